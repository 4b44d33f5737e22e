package hadoopcluster

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// replaceStatefulSet deletes the cluster's StatefulSet existing when the desired one
// names another governing Service: spec.serviceName cannot change in place, so an
// apply would fail on every pass. The deletion orphans the pods, which keep running;
// the deletion's watch event brings the pass that creates the StatefulSet anew, and
// the new one adopts them, rolling them only if their template changed too. It says
// whether the child is being replaced, which is also true while a deletion someone
// else started is still in progress: the child is created again once it is gone.
func (r *Reconciler) replaceStatefulSet(ctx context.Context, p *clusterPass, existing, desired client.Object) (bool, error) {
	want, ok := desired.(*appsv1.StatefulSet)
	if !ok {
		return false, nil
	}
	have := existing.(*appsv1.StatefulSet)
	if have.DeletionTimestamp == nil && have.Spec.ServiceName == want.Spec.ServiceName {
		return false, nil
	}
	// Until the new one exists, status reports the pods through the old one.
	p.statefulSets[have.Name] = have
	if have.DeletionTimestamp != nil {
		return true, nil
	}
	err := r.Delete(ctx, have, client.PropagationPolicy(metav1.DeletePropagationOrphan), client.Preconditions{UID: ptr.To(have.UID)})
	if err != nil && !apierrors.IsNotFound(err) {
		return false, fmt.Errorf("deleting %s to replace it: %w", r.describe(have), err)
	}
	r.Events.Normal(p.hc, nil, v1alpha1.EventReasonReplaced, "Replace", fmt.Sprintf(
		"Deleted StatefulSet %s, leaving its pods running, to create it anew with serviceName %s instead of %s, which cannot change in place",
		have.Name, want.Spec.ServiceName, have.Spec.ServiceName))
	return true, nil
}
