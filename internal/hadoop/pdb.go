package hadoop

import (
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// NodeManagerPodDisruptionBudget lets node drains take one NodeManager at a time, so a
// drain never kills every running container at once. A NodeManager that is not ready
// runs nothing YARN counts on and may always be evicted; otherwise one broken pod
// would block every drain.
func NodeManagerPodDisruptionBudget(hc *v1alpha1.HadoopCluster) *policyv1.PodDisruptionBudget {
	return &policyv1.PodDisruptionBudget{
		TypeMeta: metav1.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudget"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      NodeManagerName(hc),
			Namespace: hc.Namespace,
			Labels:    Labels(hc, NodeManager),
		},
		Spec: policyv1.PodDisruptionBudgetSpec{
			MaxUnavailable:             ptr.To(intstr.FromInt32(1)),
			Selector:                   &metav1.LabelSelector{MatchLabels: SelectorLabels(hc, NodeManager)},
			UnhealthyPodEvictionPolicy: ptr.To(policyv1.AlwaysAllow),
		},
	}
}
