package hadoop

import (
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// The ResourceManager reads the rack table from the topology ConfigMap through the API
// (racks.go). It alone gets a token, projected into its container, with a Role that
// reads that one ConfigMap and nothing else; the other pods of the cluster share its
// ServiceAccount but mount no token.

// TopologyReaderName names the Role and RoleBinding that let the ResourceManager read
// the topology ConfigMap.
func TopologyReaderName(hc *v1alpha1.HadoopCluster) string {
	return hc.Name + "-topology-reader"
}

// TopologyReaderRole may get the cluster's topology ConfigMap.
func TopologyReaderRole(hc *v1alpha1.HadoopCluster) *rbacv1.Role {
	return &rbacv1.Role{
		TypeMeta:   metav1.TypeMeta{APIVersion: rbacv1.SchemeGroupVersion.String(), Kind: "Role"},
		ObjectMeta: metav1.ObjectMeta{Name: TopologyReaderName(hc), Namespace: hc.Namespace, Labels: clusterLabels(hc)},
		Rules: []rbacv1.PolicyRule{{
			APIGroups:     []string{""},
			Resources:     []string{"configmaps"},
			ResourceNames: []string{TopologyConfigMapName(hc)},
			Verbs:         []string{"get"},
		}},
	}
}

// TopologyReaderRoleBinding grants TopologyReaderRole to the cluster's ServiceAccount.
func TopologyReaderRoleBinding(hc *v1alpha1.HadoopCluster) *rbacv1.RoleBinding {
	return &rbacv1.RoleBinding{
		TypeMeta:   metav1.TypeMeta{APIVersion: rbacv1.SchemeGroupVersion.String(), Kind: "RoleBinding"},
		ObjectMeta: metav1.ObjectMeta{Name: TopologyReaderName(hc), Namespace: hc.Namespace, Labels: clusterLabels(hc)},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: TopologyReaderName(hc)},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: ServiceAccountName(hc), Namespace: hc.Namespace}},
	}
}

const (
	volumeAPIToken = "api-token"
	// apiTokenDir is where a pod's service account token is mounted by convention,
	// and where the connector's rack mapping looks for it.
	apiTokenDir = "/var/run/secrets/kubernetes.io/serviceaccount"
	// apiTokenSeconds is the token's life; the kubelet renews it at 80% of that, and
	// the mapping reads the file again on every request.
	apiTokenSeconds = 3600
)

// apiTokenVolume is what automounting would give, projected by hand because the
// ServiceAccount mounts no token: a short-lived token, the cluster's CA and the
// namespace.
func apiTokenVolume() corev1.Volume {
	return corev1.Volume{Name: volumeAPIToken, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
		Sources: []corev1.VolumeProjection{
			{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr.To[int64](apiTokenSeconds)}},
			{ConfigMap: &corev1.ConfigMapProjection{
				LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"},
				Items:                []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}},
			}},
			{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{
				Path: "namespace", FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"},
			}}}},
		},
	}}}
}

func apiTokenMount() corev1.VolumeMount {
	return corev1.VolumeMount{Name: volumeAPIToken, MountPath: apiTokenDir, ReadOnly: true}
}
