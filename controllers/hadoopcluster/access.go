package hadoopcluster

import (
	"context"
	"strings"

	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// removeNetworkPolicies deletes the operator's NetworkPolicies of a cluster whose
// spec.access.networkPolicies is false: its owner manages the cluster's policies, and
// the operator's would still admit only what they list.
func (r *Reconciler) removeNetworkPolicies(ctx context.Context, p *clusterPass) error {
	var removed []string
	for _, c := range hadoop.NetworkPolicyComponents() {
		np := &networkingv1.NetworkPolicy{
			TypeMeta:   metav1.TypeMeta{APIVersion: "networking.k8s.io/v1", Kind: "NetworkPolicy"},
			ObjectMeta: metav1.ObjectMeta{Namespace: p.hc.Namespace, Name: hadoop.NetworkPolicyName(p.hc, c)},
		}
		deleted, err := r.removeChild(ctx, p, np)
		if err != nil {
			return err
		}
		if deleted {
			removed = append(removed, r.describe(np))
		}
	}
	if len(removed) > 0 {
		r.event(p.hc, v1alpha1.EventReasonDeleted, "Delete",
			"Deleted "+strings.Join(removed, ", ")+" because spec.access.networkPolicies is false: the cluster's network policies are its owner's to manage")
	}
	return nil
}
