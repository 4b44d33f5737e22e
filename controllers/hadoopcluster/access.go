package hadoopcluster

import (
	"context"

	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// removeNetworkPolicies deletes the operator's NetworkPolicies of a cluster whose
// spec.access.networkPolicies is false: its owner manages the cluster's policies, and
// the operator's would still admit only what they list.
func (r *Reconciler) removeNetworkPolicies(ctx context.Context, p *clusterPass) error {
	var policies []client.Object
	for _, c := range hadoop.NetworkPolicyComponents() {
		policies = append(policies, &networkingv1.NetworkPolicy{
			TypeMeta:   metav1.TypeMeta{APIVersion: "networking.k8s.io/v1", Kind: "NetworkPolicy"},
			ObjectMeta: metav1.ObjectMeta{Namespace: p.hc.Namespace, Name: hadoop.NetworkPolicyName(p.hc, c)},
		})
	}
	return r.removeChildren(ctx, p,
		"spec.access.networkPolicies is false: the cluster's network policies are its owner's to manage", policies...)
}
