//go:build e2e

package e2e

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// The Rook path: Rook's operator and a Ceph 18.2 cluster across the local cluster's
// three nodes (hack/rook: a mon and an OSD on each, failure domain host) are installed
// while the operator runs, and everything below goes through Rook's own
// reconcile of what the operator asks for.
const (
	rookNamespace = "rook-ceph"

	rookReplicatedBackend = "rook-replicated"
	rookReplicatedFS      = "hadoop-rep"
	rookECBackend         = "rook-ec"
	rookECFS              = "hadoop-ec"
	// rookAdopter takes over the erasure-coded file system once rookECBackend is gone.
	rookAdopter = "rook-ec-adopted"
	// rookKeptBackend is deleted at once, and its file system stays beside the others
	// to the end of the suite, as a user's kept file system would.
	rookKeptBackend = "rook-kept"
	rookKeptFS      = "hadoop-kept"

	rookReplicatedCluster = "rook-rep"
	rookECCluster         = "rook-ec"
	// keptRookTeraSort's data stays on the erasure-coded file system, for the deletion
	// specs to find.
	keptRookTeraSort = "terasort-rook-ec"
	// hadoopRoot is Hadoop's root on every Rook backend here, the default.
	hadoopRoot = "/volumes/hadoop"
)

// rookECPool is the Ceph pool that holds Hadoop's data on the erasure-coded backend.
var rookECPool = rookECFS + "-" + rook.DataPoolErasureCoded

// rookTeraGenChecksum is TeraGen's checksum of the suite's TeraSort on the replicated
// backend, which every other TeraSort of the same rows must match.
var rookTeraGenChecksum string

// withECPool makes a backend's data pool erasure-coded 2+1, with a hot standby MDS:
// the suite's node-loss spec runs on it, and the operator spreads the file system's
// MDS daemons over the nodes.
func withECPool(r *v1alpha1.RookCephFS) {
	r.DataPool = v1alpha1.DataPool{ErasureCoded: &v1alpha1.ErasureCodedPool{DataChunks: 2, CodingChunks: 1}}
	r.MetadataServer.ActiveStandby = ptr.To(true)
}

// rookMDSNodes is the node of each running MDS pod of the Rook file system fs, by MDS
// daemon name (Rook's ceph_daemon_id label).
func rookMDSNodes(g Gomega, fs string) map[string]string {
	pods := &corev1.PodList{}
	g.Expect(k8sClient.List(ctx, pods, client.InNamespace(rookNamespace),
		client.MatchingLabels{"app": "rook-ceph-mds", "rook_file_system": fs})).To(Succeed())
	nodes := map[string]string{}
	for _, p := range pods.Items {
		if p.DeletionTimestamp.IsZero() && p.Status.Phase == corev1.PodRunning {
			nodes[p.Labels["ceph_daemon_id"]] = p.Spec.NodeName
		}
	}
	return nodes
}

// newRookBackend is a Rook-mode StorageBackend for the local Rook: every pool's
// failure domain is the host (one OSD per node), the metadata pool keeps three copies,
// and the MDS runs without a hot standby (withECPool adds one).
func newRookBackend(name, filesystem string, mutate ...func(*v1alpha1.RookCephFS)) *v1alpha1.StorageBackend {
	spec := &v1alpha1.RookCephFS{
		Namespace:      rookNamespace,
		FilesystemName: filesystem,
		MetadataPool:   v1alpha1.ReplicatedPool{Size: 3},
		DataPool:       v1alpha1.DataPool{Replicated: &v1alpha1.ReplicatedPool{Size: 2}},
		FailureDomain:  "host",
		MetadataServer: v1alpha1.MetadataServer{ActiveCount: 1, ActiveStandby: ptr.To(false)},
	}
	for _, m := range mutate {
		m(spec)
	}
	return &v1alpha1.StorageBackend{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec:       v1alpha1.StorageBackendSpec{CephFS: v1alpha1.CephFSSpec{Rook: spec}},
	}
}

func backendReady(name string) bool {
	GinkgoHelper()
	sb := &v1alpha1.StorageBackend{}
	Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, sb)).To(Succeed())
	return meta.IsStatusConditionTrue(sb.Status.Conditions, v1alpha1.ConditionReady)
}

// waitForBackend waits until the StorageBackend is Ready and returns it.
func waitForBackend(name string) *v1alpha1.StorageBackend {
	GinkgoHelper()
	sb := &v1alpha1.StorageBackend{}
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, sb)).To(Succeed())
		g.Expect(meta.IsStatusConditionTrue(sb.Status.Conditions, v1alpha1.ConditionReady)).To(BeTrue(), "%+v", sb.Status.Conditions)
	}).WithTimeout(5 * time.Minute).Should(Succeed())
	return sb
}

// restartOperator deletes the operator's pod and waits for its replacement to be Ready.
func restartOperator() {
	GinkgoHelper()
	pods := &corev1.PodList{}
	Expect(k8sClient.List(ctx, pods, client.InNamespace(operatorNamespace),
		client.MatchingLabels{"app.kubernetes.io/instance": operatorRelease})).To(Succeed())
	Expect(pods.Items).To(HaveLen(1))
	old := pods.Items[0]
	Expect(k8sClient.Delete(ctx, &old)).To(Succeed())
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.List(ctx, pods, client.InNamespace(operatorNamespace),
			client.MatchingLabels{"app.kubernetes.io/instance": operatorRelease})).To(Succeed())
		g.Expect(pods.Items).To(HaveLen(1))
		g.Expect(pods.Items[0].UID).NotTo(Equal(old.UID))
		g.Expect(pods.Items[0].Status.ContainerStatuses).To(ConsistOf(HaveField("Ready", true)))
	}).WithTimeout(2 * time.Minute).Should(Succeed())
}

// cleanTeraSort checks that a TeraSort run succeeded with a clean validation whose
// checksum is TeraGen's, and returns that checksum.
func cleanTeraSort(run *v1alpha1.BenchmarkRun) string {
	GinkgoHelper()
	Expect(run.Status.Phase).To(Equal(v1alpha1.BenchmarkPhaseSucceeded), "%+v", run.Status)
	var generated, validated string
	for _, s := range run.Status.Stages {
		Expect(s.Phase).To(Equal(v1alpha1.StagePhaseSucceeded), "stage %s", s.Stage)
		switch s.Stage {
		case v1alpha1.StageTeraGen:
			Expect(s.Counters).NotTo(BeNil())
			generated = s.Counters.TeraGenChecksum
		case v1alpha1.StageTeraValidate:
			Expect(s.TeraValidate).NotTo(BeNil())
			Expect(s.TeraValidate.Errors).To(BeZero())
			validated = s.TeraValidate.Checksum
		}
	}
	Expect(generated).NotTo(BeEmpty())
	Expect(validated).To(Equal(generated), "TeraValidate's checksum of the sorted rows equals TeraGen's")
	return generated
}

// waitForSortOnYARN waits until the run's TeraSort stage has its MapReduce job
// running on the YARN of cluster.
func waitForSortOnYARN(name, cluster string) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		run := &v1alpha1.BenchmarkRun{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, run)).To(Succeed())
		g.Expect(run.Status.Progress).NotTo(BeNil())
		g.Expect(run.Status.Progress.Stage).To(Equal(v1alpha1.StageTeraSort))
		apps, err := runningYARNApps(cluster)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(apps).NotTo(BeEmpty())
	}).WithTimeout(runTimeout).Should(Succeed())
}

// expectSettingsApplied waits for sb's FilesystemSettingsApplied and checks, in Ceph,
// the flag on filesystem and the settings client's caps.
func expectSettingsApplied(sb *v1alpha1.StorageBackend, filesystem string) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		cur := &v1alpha1.StorageBackend{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(sb), cur)).To(Succeed())
		g.Expect(meta.IsStatusConditionTrue(cur.Status.Conditions, v1alpha1.ConditionFilesystemSettingsApplied)).To(BeTrue(), "%+v", cur.Status.Conditions)
	}).WithTimeout(3 * time.Minute).Should(Succeed())
	Expect(fsFlags(filesystem)).To(ContainElement(rook.RefuseStandbyForAnotherFS))
	Expect(cephClientCaps("client."+rook.SettingsClientName(sb))).To(Equal(rook.SettingsCaps(filesystem)),
		"Ceph holds the caps that set the flag and nothing else")
}
