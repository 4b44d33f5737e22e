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
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
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

// waitForCluster waits until the HadoopCluster is Ready with all its NodeManagers
// running in YARN.
func waitForCluster(name string) {
	GinkgoHelper()
	var replicas int
	Eventually(func(g Gomega) {
		hc := &v1alpha1.HadoopCluster{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, hc)).To(Succeed())
		g.Expect(meta.IsStatusConditionTrue(hc.Status.Conditions, v1alpha1.ConditionReady)).To(BeTrue(), "%+v", hc.Status.Conditions)
		g.Expect(hc.Status.ReadyNodeManagers).To(Equal(*hc.Spec.NodeManagers.Replicas))
		replicas = int(*hc.Spec.NodeManagers.Replicas)
	}).WithTimeout(5 * time.Minute).Should(Succeed())
	Eventually(func(g Gomega) {
		nodes, err := yarnNodes()
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(nodes).To(HaveLen(replicas))
		g.Expect(nodes).To(HaveEach(HaveField("State", "RUNNING")))
	}).WithTimeout(2 * time.Minute).Should(Succeed())
}

// newCluster is the suite's HadoopCluster on the external Ceph.
func newCluster() *v1alpha1.HadoopCluster {
	return newClusterOn(clusterName, backendName)
}

// newClusterOn is a HadoopCluster on a StorageBackend, sized for a 2-core node: one
// NodeManager with room for an ApplicationMaster and two tasks, a JobHistory server,
// and one submitter beside the admins. Everything runs on the host network, as HPC
// clusters run Hadoop, and the NodeManager advertises its node's address on the nodes'
// network (dataInterface); the daemons' host ports keep one NodeManager to a node, and
// the suite runs one such cluster at a time.
func newClusterOn(name, backend string) *v1alpha1.HadoopCluster {
	small := func(cpu, memory string) corev1.ResourceRequirements {
		return corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(memory)},
			Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(memory)},
		}
	}
	return &v1alpha1.HadoopCluster{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec: v1alpha1.HadoopClusterSpec{
			StorageBackendRef: v1alpha1.LocalObjectReference{Name: backend},
			ImagePullPolicy:   corev1.PullNever,
			ResourceManager:   v1alpha1.ResourceManagerSpec{Resources: small("100m", "1Gi")},
			NodeManagers: v1alpha1.NodeManagerSpec{
				Replicas:  ptr.To[int32](1),
				Resources: small("500m", "6Gi"),
				YARN:      &v1alpha1.YARNResources{VCores: ptr.To[int32](4)},
			},
			// It idles between jobs: a small CPU request leaves room for the stage pods
			// beside two clusters on the node's two cores.
			JobHistory: v1alpha1.JobHistorySpec{Resources: small("20m", "1Gi")},
			Network:    v1alpha1.NetworkSpec{HostNetwork: true, DataInterface: dataInterface},
			// The benchmark stages submit as hadoop, which is always an admin.
			Access: v1alpha1.AccessSpec{YARN: v1alpha1.YARNAccess{Submitters: &v1alpha1.ACLEntries{Users: []string{submitter}}}},
		},
	}
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
