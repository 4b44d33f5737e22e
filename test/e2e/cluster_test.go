//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// The suite's StorageBackend and HadoopCluster.
const (
	backendName = "ceph"
	clusterName = "e2e"
	keySecret   = "ceph-hadoop-key"
	// evictorKeySecret holds the key of client.hadoop-evictor (hack/ceph/up.sh).
	evictorKeySecret = "ceph-evictor-key"
)

// localMonitor is the local Ceph's monitor (hack/ceph/env.sh's CEPH_MONITOR), msgr v1,
// on an address of the host that every node of the local cluster routes to.
const localMonitor = "10.118.255.1:16789"

// dataInterface is the link every node of the local cluster has on the nodes' network,
// under one name (docs/local-cluster.md), as the data NIC of a real cluster's machines.
const dataInterface = "hco-node0"

func clusterSpecs() {
	It("has an external StorageBackend that becomes Ready", func() {
		keyring, err := os.ReadFile(filepath.Join(cephDir(), "ceph.client.hadoop.keyring"))
		Expect(err).NotTo(HaveOccurred())
		Expect(k8sClient.Create(ctx, &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Name: keySecret, Namespace: namespace},
			StringData: map[string]string{"key": keyringKey(string(keyring))},
		})).To(Succeed())
		evictor, err := os.ReadFile(filepath.Join(cephDir(), "ceph.client.hadoop-evictor.keyring"))
		Expect(err).NotTo(HaveOccurred())
		Expect(k8sClient.Create(ctx, &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Name: evictorKeySecret, Namespace: namespace},
			StringData: map[string]string{"key": keyringKey(string(evictor))},
		})).To(Succeed())
		Expect(k8sClient.Create(ctx, &v1alpha1.StorageBackend{
			ObjectMeta: metav1.ObjectMeta{Name: backendName, Namespace: namespace},
			Spec: v1alpha1.StorageBackendSpec{CephFS: v1alpha1.CephFSSpec{External: &v1alpha1.ExternalCephFS{
				Monitors:       []string{localMonitor},
				FilesystemName: "cephfs",
				ClientID:       "hadoop",
				KeySecretRef:   v1alpha1.SecretKeyRef{Name: keySecret},
				RootPath:       cephRoot,
				Evictor: &v1alpha1.CephxClientRef{
					ClientID:     "hadoop-evictor",
					KeySecretRef: v1alpha1.SecretKeyRef{Name: evictorKeySecret},
				},
			}}},
		})).To(Succeed())
		Eventually(func(g Gomega) {
			sb := &v1alpha1.StorageBackend{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: backendName}, sb)).To(Succeed())
			g.Expect(meta.IsStatusConditionTrue(sb.Status.Conditions, v1alpha1.ConditionReady)).To(BeTrue(), "%+v", sb.Status.Conditions)
			g.Expect(meta.IsStatusConditionTrue(sb.Status.Conditions, v1alpha1.ConditionEvictorReady)).To(BeTrue(), "%+v", sb.Status.Conditions)
		}).WithTimeout(time.Minute).Should(Succeed())
	})

	It("runs a HadoopCluster that becomes Ready with its NodeManager registered in YARN", func() {
		Expect(k8sClient.Create(ctx, newCluster())).To(Succeed())
		waitForCluster(clusterName)
	})
}

// cephDir is where hack/ceph keeps the local cluster's files.
func cephDir() string {
	if dir := os.Getenv("HCO_CEPH_DIR"); dir != "" {
		return dir
	}
	cache := os.Getenv("HCO_CACHE")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "hadoop-ceph-operator")
	}
	return filepath.Join(cache, "ceph")
}

// keyringKey is the base64 key of a keyring file's "key = ..." line.
func keyringKey(keyring string) string {
	for _, line := range strings.Split(keyring, "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok && strings.TrimSpace(k) == "key" {
			return strings.TrimSpace(v)
		}
	}
	Fail("no key in the keyring")
	return ""
}
