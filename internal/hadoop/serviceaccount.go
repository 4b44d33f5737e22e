package hadoop

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// ServiceAccount is the identity of the cluster's pods. It has no roles and no token:
// it exists so that the pods do not run as the namespace's default account, which
// other workloads may have granted rights to.
func ServiceAccount(hc *v1alpha1.HadoopCluster) *corev1.ServiceAccount {
	return &corev1.ServiceAccount{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      ServiceAccountName(hc),
			Namespace: hc.Namespace,
			Labels:    clusterLabels(hc),
		},
		AutomountServiceAccountToken: ptr.To(false),
	}
}
