package lifecycle

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// Paused is the pass of an object with spec.paused: it changes nothing but Ready's
// reason, so that the object says it is paused while every other condition keeps what
// the last pass observed. obj's conditions are at conditions; the event goes out once
// the status is written.
func Paused(ctx context.Context, c client.Client, e Events, obj client.Object, conditions *[]metav1.Condition, generation int64) (Outcome, error) {
	base := obj.DeepCopyObject().(client.Object)
	before := append([]metav1.Condition(nil), *conditions...)
	status := metav1.ConditionUnknown
	if ready := meta.FindStatusCondition(*conditions, v1alpha1.ConditionReady); ready != nil {
		status = ready.Status
	}
	meta.SetStatusCondition(conditions, metav1.Condition{
		Type:               v1alpha1.ConditionReady,
		Status:             status,
		Reason:             v1alpha1.ReasonPaused,
		Message:            "spec.paused is set: nothing is created, changed or deleted, and the other conditions show the last observed state",
		ObservedGeneration: generation,
	})
	o, err := PatchStatus(ctx, c, base, obj, before, *conditions)
	if o == Patched {
		e.Record(obj, nil, corev1.EventTypeNormal, v1alpha1.ReasonPaused, "Pause", "Reconciliation paused by spec.paused")
	}
	return o, err
}
