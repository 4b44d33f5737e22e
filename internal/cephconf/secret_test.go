package cephconf

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

func TestSecret(t *testing.T) {
	sb := &v1alpha1.StorageBackend{ObjectMeta: metav1.ObjectMeta{Namespace: "analytics", Name: "lake"}}
	cfg := Config{Monitors: []string{"10.0.0.1:6789"}, ClientID: "hadoop", Key: validKey, Filesystem: "fs", RootPath: "/hadoop"}

	want := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{
			Name:      "lake-ceph-client",
			Namespace: "analytics",
			Labels: map[string]string{
				"hadoopceph.io/storagebackend-namespace": "analytics",
				"hadoopceph.io/storagebackend-name":      "lake",
				"app.kubernetes.io/managed-by":           "hadoop-ceph-operator",
			},
			Annotations: map[string]string{HashAnnotation: Hash(cfg.Data())},
		},
		Type: corev1.SecretTypeOpaque,
		Data: cfg.Data(),
	}
	if diff := cmp.Diff(want, Secret(sb, cfg)); diff != "" {
		t.Errorf("Secret() mismatch (-want +got):\n%s", diff)
	}
}

func TestSecretName(t *testing.T) {
	if got := SecretName("lake"); got != "lake-ceph-client" {
		t.Errorf("SecretName() = %q, want lake-ceph-client", got)
	}
	long := strings.Repeat("n", 253)
	if got := SecretName(long); len(got) > 253 || !strings.HasPrefix(got, strings.Repeat("n", 200)) {
		t.Errorf("SecretName() of a 253-character name = %q (%d characters)", got, len(got))
	}
}

// Each client's key is in a Secret of its own, so that a pod mounts only the key it
// needs.
func TestSecretNamesDiffer(t *testing.T) {
	names := map[string]bool{SecretName("lake"): true, EvictionSecretName("lake"): true, SettingsSecretName("lake"): true}
	if len(names) != 3 {
		t.Errorf("the client config Secrets of one backend share names: %v", names)
	}
	sb := &v1alpha1.StorageBackend{ObjectMeta: metav1.ObjectMeta{Namespace: "analytics", Name: "lake"}}
	if got := SettingsSecret(sb, Config{ClientID: "x", Key: validKey}).Name; got != "lake-ceph-fs-settings" {
		t.Errorf("SettingsSecret() is named %q, want lake-ceph-fs-settings", got)
	}
}
