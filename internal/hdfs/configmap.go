package hdfs

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/cephconf"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
)

// HashAnnotation on the client ConfigMap carries Hash of its data, as on a Ceph
// backend's client config Secret.
const HashAnnotation = cephconf.HashAnnotation

// maxNameLength is the limit of a ConfigMap name (a DNS subdomain).
const maxNameLength = 253

// ConfigMapName is the client ConfigMap of the StorageBackend sbName.
func ConfigMapName(sbName string) string {
	return naming.ShortName(sbName+"-hdfs-client", maxNameLength)
}

// ConfigMap is the client configuration of sb, in the shape of a discovery ConfigMap
// (core-site.xml and hdfs-site.xml), so that other Hadoop clients can mount it too.
// The caller makes sb its controller, so it goes away with sb.
func ConfigMap(sb *v1alpha1.StorageBackend, cfg ClientConfig) *corev1.ConfigMap {
	origin := "Rendered by hadoop-ceph-operator from StorageBackend " + sb.Name + ": changes to this file are overwritten."
	data := map[string]string{
		FileCoreSite: hadoop.ConfigurationXMLFrom(origin, map[string]string{KeyDefaultFS: cfg.DefaultFS}),
		FileHDFSSite: hadoop.ConfigurationXMLFrom(origin, cfg.HDFSSite),
	}
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Name:        ConfigMapName(sb.Name),
			Namespace:   sb.Namespace,
			Labels:      naming.StorageBackendLabels(sb),
			Annotations: map[string]string{HashAnnotation: hadoop.ConfigHash(data)},
		},
		Data: data,
	}
}
