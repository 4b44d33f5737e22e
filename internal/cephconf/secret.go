package cephconf

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
)

// HashAnnotation on the client config Secret carries Hash of its data.
const HashAnnotation = "hadoopceph.io/client-config-hash"

// maxNameLength is the limit of a Secret name (a DNS subdomain).
const maxNameLength = 253

// SecretName is the client config Secret of the StorageBackend sbName.
func SecretName(sbName string) string {
	return naming.ShortName(sbName+"-ceph-client", maxNameLength)
}

// Secret is the client config Secret of sb rendered from cfg. The caller makes sb its
// controller, so it goes away with sb.
func Secret(sb *v1alpha1.StorageBackend, cfg Config) *corev1.Secret {
	return secret(SecretName(sb.Name), sb, cfg)
}

// EvictionSecretName is the Secret of the StorageBackend sbName with its evictor's
// client config.
func EvictionSecretName(sbName string) string {
	return naming.ShortName(sbName+"-ceph-evictor", maxNameLength)
}

// EvictionSecret is the evictor's client config of sb, rendered from cfg: a Secret of
// its own, so that only the eviction Jobs mount a key with the evictor's caps.
func EvictionSecret(sb *v1alpha1.StorageBackend, cfg Config) *corev1.Secret {
	return secret(EvictionSecretName(sb.Name), sb, cfg)
}

// SettingsSecretName is the Secret of the StorageBackend sbName with the client config
// of the client that sets its file system's flags.
func SettingsSecretName(sbName string) string {
	return naming.ShortName(sbName+"-ceph-fs-settings", maxNameLength)
}

// SettingsSecret is the client config of sb's settings client, rendered from cfg: a
// Secret of its own, mounted by nothing but the Job that sets the flags.
func SettingsSecret(sb *v1alpha1.StorageBackend, cfg Config) *corev1.Secret {
	return secret(SettingsSecretName(sb.Name), sb, cfg)
}

func secret(name string, sb *v1alpha1.StorageBackend, cfg Config) *corev1.Secret {
	data := cfg.Data()
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{
			Name:        name,
			Namespace:   sb.Namespace,
			Labels:      naming.StorageBackendLabels(sb),
			Annotations: map[string]string{HashAnnotation: Hash(data)},
		},
		Type: corev1.SecretTypeOpaque,
		Data: data,
	}
}
