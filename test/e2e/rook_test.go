//go:build e2e

package e2e

import (
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/cephconf"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
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

func rookInstallSpecs() {
	It("installs Rook v1.18 and a Ceph 18.2 with a mon and an OSD on each of the three nodes, Ceph's public and cluster networks on the data network through Rook's Multus provider, while the operator runs; the operator restarts itself, exiting cleanly, to watch Rook", func() {
		// Rook's Multus provider needs the NetworkAttachmentDefinition API.
		ensureMultusAPI()
		before := operatorContainer(Default).RestartCount
		up := command("hack/rook/up.sh")
		up.Env = append(up.Env, "HCO_ROOK_NETWORK="+rookNetwork)
		runLogged(up)

		var status struct {
			Health struct {
				Status string `json:"status"`
			} `json:"health"`
			MonMap struct {
				Mons int `json:"num_mons"`
			} `json:"monmap"`
			OSDMap struct {
				Up int `json:"num_up_osds"`
				In int `json:"num_in_osds"`
			} `json:"osdmap"`
		}
		rookCephJSON(&status, "status")
		Expect(status.Health.Status).To(Equal("HEALTH_OK"))
		Expect(status.MonMap.Mons).To(Equal(3))
		Expect(status.OSDMap.Up).To(Equal(3))
		Expect(status.OSDMap.In).To(Equal(3))

		By("finding the mons at their Services' addresses and every OSD on Rook's public and cluster networks, on the nodes' data links")
		expectCephDaemonNetworks()

		By("finding one CRUSH host per node, named as Rook names it (the node's kubernetes.io/hostname label, dots as dashes), with one OSD each")
		Expect(crushHostOSDs()).To(Equal(expectedCRUSHHosts()))
		var versions map[string]map[string]int
		rookCephJSON(&versions, "versions")
		for version := range versions["overall"] {
			Expect(version).To(HavePrefix("ceph version 18.2."), "every daemon runs Ceph Reef")
		}

		Eventually(func(g Gomega) {
			c := operatorContainer(g)
			g.Expect(c.RestartCount).To(Equal(before + 1))
			g.Expect(c.LastTerminationState.Terminated).NotTo(BeNil())
			g.Expect(c.LastTerminationState.Terminated.ExitCode).To(BeZero())
			g.Expect(c.Ready).To(BeTrue())
		}).WithTimeout(2 * time.Minute).Should(Succeed())
	})
}

func rookBackendSpecs() {
	It("makes a replicated CephFS through Rook, and converges with one of each Rook object when the operator's pod is deleted during the creation", func() {
		sb := newRookBackend(rookReplicatedBackend, rookReplicatedFS, func(r *v1alpha1.RookCephFS) {
			r.DataPool = v1alpha1.DataPool{Replicated: &v1alpha1.ReplicatedPool{Size: 2}}
			r.PreserveOnDelete = ptr.To(false)
		})
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())

		By("deleting the operator's pod once it has created the CephFilesystem, before the backend is Ready")
		Eventually(func() error {
			return k8sClient.Get(ctx, client.ObjectKey{Namespace: rookNamespace, Name: rookReplicatedFS}, &cephv1.CephFilesystem{})
		}).WithTimeout(time.Minute).WithPolling(time.Second).Should(Succeed())
		Expect(backendReady(rookReplicatedBackend)).To(BeFalse(), "the backend was Ready before the operator's pod could be deleted")
		restartOperator()

		got := waitForBackend(rookReplicatedBackend)
		Expect(got.Status.RawOverhead).To(Equal("2"))
		Expect(got.Status.Monitors).To(Equal(rookMonitors()))
		expectMDSOnPublicNetwork()

		By("finding one CephFilesystem, one subvolume group, and Hadoop's, the evictor's and the settings' CephClients for it, named as the operator names them")
		clientName, evictorName, settingsName := rook.ClientName(sb), rook.EvictorName(sb), rook.SettingsClientName(sb)
		for list, want := range map[client.ObjectList][]string{
			&cephv1.CephFilesystemList{}:               {rookReplicatedFS},
			&cephv1.CephFilesystemSubVolumeGroupList{}: {rook.SubVolumeGroupName(rookReplicatedFS, "hadoop")},
			&cephv1.CephClientList{}:                   {clientName, evictorName, settingsName},
		} {
			Expect(k8sClient.List(ctx, list, client.InNamespace(rookNamespace), client.MatchingLabels(naming.StorageBackendLabels(sb)))).To(Succeed())
			items, err := meta.ExtractList(list)
			Expect(err).NotTo(HaveOccurred())
			var names []string
			for _, item := range items {
				names = append(names, item.(client.Object).GetName())
			}
			Expect(names).To(ConsistOf(want), "%T", list)
		}
		Expect(cephFilesystems()).To(ConsistOf(rookReplicatedFS))
		Expect(cephClients()).To(ContainElement("client." + clientName))
		// Ready waits for Hadoop's client only; the evictor's has a condition of its own,
		// and Rook may make its key after the backend is Ready.
		Eventually(func(g Gomega) {
			cur := &v1alpha1.StorageBackend{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(sb), cur)).To(Succeed())
			g.Expect(meta.IsStatusConditionTrue(cur.Status.Conditions, v1alpha1.ConditionEvictorReady)).To(BeTrue(), "%+v", cur.Status.Conditions)
			g.Expect(cur.Status.EvictionClientID).To(Equal(evictorName))
		}).WithTimeout(time.Minute).Should(Succeed())
		Expect(cephClients()).To(ContainElement("client." + evictorName))
		Expect(cephClientCaps("client."+evictorName)).To(Equal(map[string]string{"mon": "allow r", "mds": "allow *"}),
			"Ceph gave the evictor the least caps that evict")

		By("setting refuse_standby_for_another_fs on the file system with a client that may do nothing else")
		expectSettingsApplied(sb, rookReplicatedFS)
	})

	It("makes an erasure-coded 2+1 CephFS with Hadoop's root laid out on the EC pool, 1.5x raw overhead in status, and a client config from Rook's monitors and key", func() {
		sb := newRookBackend(rookECBackend, rookECFS, withECPool)
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		got := waitForBackend(rookECBackend)

		By("finding the active MDS and its standby-replay on different nodes")
		Eventually(func(g Gomega) {
			states := rookFS(rookECFS).mdsStates()
			g.Expect(states).To(HaveLen(2))
			g.Expect(slices.Sorted(maps.Values(states))).To(Equal([]string{"active", "standby-replay"}))
			nodes := rookMDSNodes(g, rookECFS)
			g.Expect(nodes).To(HaveLen(2))
			var onNodes []string
			for name := range states {
				g.Expect(nodes).To(HaveKey(name))
				onNodes = append(onNodes, nodes[name])
			}
			g.Expect(onNodes[0]).NotTo(Equal(onNodes[1]), "MDS daemons %v", nodes)
		}).WithTimeout(3 * time.Minute).WithPolling(2 * time.Second).Should(Succeed())

		Expect(got.Status.RawOverhead).To(Equal("1.5"))
		Expect(got.Status.DataPools).To(ContainElement(v1alpha1.DataPoolStatus{
			Name: rookECPool, Kind: v1alpha1.PoolKindErasureCoded, DataChunks: 2, CodingChunks: 1, RawOverhead: "1.5", HadoopData: true,
		}))
		Expect(mustRun(kubectl("-n", namespace, "get", "storagebackend", rookECBackend))).To(MatchRegexp(`rook-ec\s+Rook\s+hadoop-ec\s+1\.5\s+True`))

		var group struct {
			DataPool string `json:"data_pool"`
		}
		rookCephJSON(&group, "fs", "subvolumegroup", "info", rookECFS, "hadoop")
		Expect(group.DataPool).To(Equal(rookECPool), "Hadoop's root is laid out on the EC pool")

		secret := &corev1.Secret{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: got.Status.ClientConfigSecret}, secret)).To(Succeed())
		Expect(string(secret.Data[cephconf.KeyCephConf])).To(ContainSubstring("mon_host = " + strings.Join(rookMonitors(), ",")))
		rookKey := &corev1.Secret{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: rookNamespace, Name: rook.ClientSecretName(rook.ClientName(sb))}, rookKey)).To(Succeed())
		Expect(string(secret.Data[cephconf.KeyKeyring])).To(ContainSubstring("key = " + string(rookKey.Data[rook.ClientSecretKeyKey])))

		By("setting refuse_standby_for_another_fs, so that the replicated file system cannot take this one's standby MDS")
		expectSettingsApplied(sb, rookECFS)
	})

	It("gives Hadoop's client everything inside its root and nothing outside: no read, no write, no layout", func() {
		outside := "/volumes/outside"
		mustRun(rookFsadmin(rookECFS, "mkdir", outside))
		mustRun(rookFsadmin(rookECFS, "put", outside+"/secret"))

		out := mustRun(cephfsClient(rookECBackend, "probe", outside, rookECPool))
		var results map[string]string
		Expect(json.Unmarshal([]byte(out), &results)).To(Succeed(), out)
		GinkgoWriter.Printf("as client.%s: %v\n", rook.ClientName(newRookBackend(rookECBackend, rookECFS)), results)
		Expect(results).To(HaveKeyWithValue("mount the root", "ok"))
		Expect(results).To(HaveKeyWithValue("write and read inside the root", "ok"))
		Expect(results).To(HaveKeyWithValue("set a layout inside the root", "ok"))
		Expect(results).To(HaveKeyWithValue("read outside through ..", Not(Equal("ok"))))
		for _, denied := range []string{
			"mount the file system's top", "mount a directory outside the root",
			"read a file outside the root", "write a file outside the root", "set a layout outside the root",
		} {
			Expect(results).To(HaveKeyWithValue(denied, "EPERM"), denied)
		}
		Expect(rookFsadmin(rookECFS, "exists", outside+"/written").Run()).NotTo(Succeed(), "nothing was written outside the root")
	})

	It("keeps a deleted StorageBackend's file system, whose MDS daemons go on serving it alone beside the other file systems", func() {
		sb := newRookBackend(rookKeptBackend, rookKeptFS)
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		waitForBackend(rookKeptBackend)
		expectSettingsApplied(sb, rookKeptFS)
		expectMetadataServersHealthy(rookKeptBackend)

		Expect(k8sClient.Delete(ctx, sb)).To(Succeed())
		Eventually(func() error {
			return k8sClient.Get(ctx, client.ObjectKeyFromObject(sb), sb)
		}).WithTimeout(2*time.Minute).Should(Satisfy(apierrors.IsNotFound), "the backend is gone")
		Expect(cephFilesystems()).To(ContainElement(rookKeptFS), "preserveOnDelete is true by default")
		expectMDSSettled()
	})
}

func rookTeraSortSpecs() {
	It("runs a TeraSort on a HadoopCluster on the replicated backend, with two NodeManagers on the pod network in two racks that YARN and CRUSH agree on, whose data-local maps each ran on a node that holds a copy of its split, as Ceph places it, and whose rack-local maps each ran in a rack that holds one", func() {
		waitForCluster(rookReplicatedCluster)
		run := newTeraSortOn("terasort-rook-replicated", rookReplicatedCluster)
		// Its input stays for the locality check; the backend's deletion removes it.
		run.Spec.Cleanup = ptr.To(false)
		switchBefore := dataSwitchBytes()
		Expect(k8sClient.Create(ctx, run)).To(Succeed())
		run = waitForRun(run.Name)
		expectCephFSOnDataNetwork(rookReplicatedCluster, dataSwitchBytes()-switchBefore)
		rookTeraGenChecksum = cleanTeraSort(run)
		hc := &v1alpha1.HadoopCluster{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: rookReplicatedCluster}, hc)).To(Succeed())
		expectRacks(hc)
		expectDataLocalMaps(hc, rookReplicatedFS, rookReplicatedFS+"-"+rook.DataPoolReplicated, run)
	})

	It("runs the same TeraSort on the erasure-coded backend with a NodeManager on every node, each registered in YARN under a host of its own that the operator maps to its node and in its node's rack, with the same checksums and raw used over stored of 1.5 ± 5% on the EC pool, read from Ceph", func() {
		hc := newSpreadCluster(rookECCluster, rookECBackend)
		Expect(k8sClient.Create(ctx, hc)).To(Succeed())
		waitForCluster(rookECCluster)
		expectNodeManagerPerNode(hc)
		before := poolStats(rookECPool)
		mdsBefore := mdsRestarts()
		run := newTeraSortOn(keptRookTeraSort, rookECCluster)
		run.Spec.Cleanup = ptr.To(false)
		Expect(k8sClient.Create(ctx, run)).To(Succeed())
		Expect(cleanTeraSort(waitForRun(keptRookTeraSort))).To(Equal(rookTeraGenChecksum),
			"TeraGen wrote the same rows on both backends")
		By("three file systems side by side, one kept without a backend: each served by its own MDS daemons, none restarted during the sort, no MDS warning")
		Expect(mdsRestarts()).To(Equal(mdsBefore), "restarts of Rook's MDS containers, by pod")
		expectOwnMDSDaemons()
		expectMetadataServersHealthy(rookReplicatedBackend, rookECBackend)

		// Ceph's pool statistics follow the OSDs' reports by a few seconds.
		Eventually(func(g Gomega) {
			after := poolStats(rookECPool)
			stored, used := after.Stored-before.Stored, after.BytesUsed-before.BytesUsed
			g.Expect(stored).To(BeNumerically(">=", teraSortRows*100), "TeraGen's and TeraSort's output are on the EC pool")
			ratio := float64(used) / float64(stored)
			GinkgoWriter.Printf("EC pool %s: %d bytes stored, %d bytes raw: %.3f\n", rookECPool, stored, used, ratio)
			g.Expect(ratio).To(BeNumerically("~", 1.5, 0.075))
		}).WithTimeout(time.Minute).Should(Succeed())
	})
}

func osdLossSpecs() {
	It("finishes a TeraSort on the EC 2+1 pool after an OSD pod is deleted mid-sort: TeraValidate is clean, the OSD comes back, and how long the pool stayed degraded is recorded", func() {
		const name = "terasort-osd-loss"
		Expect(k8sClient.Create(ctx, newTeraSortOn(name, rookECCluster))).To(Succeed())
		waitForSortOnYARN(name, rookECCluster)

		pods := &corev1.PodList{}
		Expect(k8sClient.List(ctx, pods, client.InNamespace(rookNamespace), client.MatchingLabels{"app": "rook-ceph-osd", "ceph-osd-id": "1"})).To(Succeed())
		Expect(pods.Items).To(HaveLen(1))
		osd := pods.Items[0]

		By("deleting the pod of OSD 1, " + osd.Name)
		deleted := time.Now()
		Expect(k8sClient.Delete(ctx, &osd)).To(Succeed())
		var degraded, clean time.Duration
		Eventually(func(g Gomega) {
			unclean := uncleanPGs()
			if unclean > 0 && degraded == 0 {
				degraded = time.Since(deleted)
			}
			g.Expect(degraded).NotTo(BeZero(), "the pool has not been seen degraded yet")
			g.Expect(unclean).To(BeZero())
			g.Expect(osdsUp()).To(Equal(3))
		}).WithTimeout(5 * time.Minute).WithPolling(time.Second).Should(Succeed())
		clean = time.Since(deleted)
		GinkgoWriter.Printf("placement groups not active+clean %s after the OSD pod's deletion, all active+clean again after %s\n",
			degraded.Round(time.Second), clean.Round(time.Second))
		AddReportEntry("placement groups not active+clean after an OSD pod's deletion (seconds)", (clean - degraded).Round(time.Second).Seconds())

		Expect(k8sClient.List(ctx, pods, client.InNamespace(rookNamespace), client.MatchingLabels{"app": "rook-ceph-osd", "ceph-osd-id": "1"})).To(Succeed())
		Expect(pods.Items).To(ConsistOf(HaveField("UID", Not(Equal(osd.UID)))), "Rook's Deployment brought the OSD back in a new pod")

		Expect(cleanTeraSort(waitForRun(name))).To(Equal(rookTeraGenChecksum))
	})
}

func rookDeletionSpecs() {
	It("keeps the CephFilesystem, the root and the data when the erasure-coded StorageBackend is deleted, and a new StorageBackend that adopts the file system finds the files", func() {
		kept := &v1alpha1.BenchmarkRun{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: keptRookTeraSort}, kept)).To(Succeed())
		data := path.Join(benchmark.WorkDir(kept), "r1", "teragen")
		deleteCluster(rookECCluster)
		old := newRookBackend(rookECBackend, rookECFS)
		Expect(k8sClient.Delete(ctx, old)).To(Succeed())
		Eventually(func() error {
			return k8sClient.Get(ctx, client.ObjectKeyFromObject(old), &v1alpha1.StorageBackend{})
		}).WithTimeout(2 * time.Minute).Should(Satisfy(apierrors.IsNotFound))

		for _, obj := range []client.Object{
			&cephv1.CephFilesystem{ObjectMeta: metav1.ObjectMeta{Namespace: rookNamespace, Name: rookECFS}},
			&cephv1.CephFilesystemSubVolumeGroup{ObjectMeta: metav1.ObjectMeta{Namespace: rookNamespace, Name: rook.SubVolumeGroupName(rookECFS, "hadoop")}},
			&cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{Namespace: rookNamespace, Name: rook.ClientName(old)}},
			&cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{Namespace: rookNamespace, Name: rook.EvictorName(old)}},
		} {
			Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), obj)).To(Succeed(), "%T %s is kept", obj, obj.GetName())
			Expect(obj.GetDeletionTimestamp()).To(BeNil())
		}
		Expect(cephFilesystems()).To(ContainElement(rookECFS))
		Expect(fsFlags(rookECFS)).To(ContainElement(rook.RefuseStandbyForAnotherFS), "the kept file system keeps its flag")
		Eventually(func() error {
			return k8sClient.Get(ctx, client.ObjectKey{Namespace: rookNamespace, Name: rook.SettingsClientName(old)}, &cephv1.CephClient{})
		}).WithTimeout(time.Minute).Should(Satisfy(apierrors.IsNotFound), "the settings client goes with its backend")
		Eventually(cephClients).WithTimeout(time.Minute).ShouldNot(ContainElement("client." + rook.SettingsClientName(old)))
		Expect(mustRun(rookFsadmin(rookECFS, "ls", path.Join(hadoopRoot, data)))).To(ContainSubstring("part-"))

		By("adopting the kept file system with a new StorageBackend, whose own client finds the files")
		adopter := newRookBackend(rookAdopter, rookECFS, func(r *v1alpha1.RookCephFS) { r.AdoptExisting = true })
		Expect(k8sClient.Create(ctx, adopter)).To(Succeed())
		got := waitForBackend(rookAdopter)
		Expect(got.Status.RawOverhead).To(Equal("1.5"))
		Expect(mustRun(cephfsClient(rookAdopter, "ls", data))).To(ContainSubstring("part-"))
	})

	It("deletes what docs/storage.md lists, and only that, when a StorageBackend with preserveOnDelete false is deleted", func() {
		// A backend in use is not deleted; the cluster the specs before shared goes
		// first.
		deleteCluster(rookReplicatedCluster)
		sb := newRookBackend(rookReplicatedBackend, rookReplicatedFS)
		clientName := rook.ClientName(sb)
		poolsBefore := cephPools()
		Expect(poolsBefore).To(ContainElements(rookReplicatedFS+"-metadata", rookReplicatedFS+"-data"))
		Expect(mustRun(rookFsadmin(rookReplicatedFS, "ls", hadoopRoot))).To(ContainSubstring("hadoop-system"),
			"the cluster that ran there left its ResourceManager's state in the root, which Ceph would not let Rook remove")

		Expect(k8sClient.Delete(ctx, sb)).To(Succeed())
		for _, obj := range []client.Object{
			&cephv1.CephFilesystem{ObjectMeta: metav1.ObjectMeta{Namespace: rookNamespace, Name: rookReplicatedFS}},
			&cephv1.CephFilesystemSubVolumeGroup{ObjectMeta: metav1.ObjectMeta{Namespace: rookNamespace, Name: rook.SubVolumeGroupName(rookReplicatedFS, "hadoop")}},
			&cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{Namespace: rookNamespace, Name: clientName}},
			&cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{Namespace: rookNamespace, Name: rook.EvictorName(sb)}},
			&cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{Namespace: rookNamespace, Name: rook.SettingsClientName(sb)}},
			sb,
		} {
			Eventually(func() error {
				return k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), obj)
			}).WithTimeout(3*time.Minute).Should(Satisfy(apierrors.IsNotFound), "%T %s is deleted", obj, obj.GetName())
		}

		By("Rook removing the file system, its pools and the client from Ceph")
		var remaining []string
		for _, p := range poolsBefore {
			if !strings.HasPrefix(p, rookReplicatedFS+"-") {
				remaining = append(remaining, p)
			}
		}
		Eventually(cephPools).WithTimeout(3 * time.Minute).Should(ConsistOf(remaining))
		Eventually(cephFilesystems).WithTimeout(time.Minute).Should(ConsistOf(rookECFS, rookKeptFS))
		Eventually(cephClients).WithTimeout(time.Minute).ShouldNot(ContainElement(BeElementOf("client."+clientName, "client."+rook.EvictorName(sb), "client."+rook.SettingsClientName(sb))))
		Expect(cephClients()).To(ContainElements(
			"client."+rook.ClientName(newRookBackend(rookECBackend, rookECFS)),
			"client."+rook.ClientName(newRookBackend(rookAdopter, rookECFS)),
		), "the erasure-coded file system's clients stay")
		Expect(waitForBackend(rookAdopter).Status.RawOverhead).To(Equal("1.5"), "the adopted backend is untouched")

		By("leaving the kept file system's MDS daemons healthy and its own, with no MDS warning, once the other file system is gone")
		expectMDSSettled()
		expectMetadataServersHealthy(rookAdopter)
	})
}

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

// rookDir is where hack/rook keeps the local Rook's client files.
func rookDir() string {
	if dir := os.Getenv("HCO_ROOK_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(filepath.Dir(cephDir()), "rook")
}

// rookCeph runs the ceph command as the local Rook's administrator (hack/rook/ceph.sh).
func rookCeph(args ...string) *exec.Cmd {
	return command("hack/rook/ceph.sh", args...)
}

// rookCephJSON runs a ceph command with JSON output and decodes it into v.
// Only standard output is decoded: the dump commands say what they dumped ("dumped
// monmap epoch 3") on standard error.
func rookCephJSON(v any, args ...string) {
	GinkgoHelper()
	cmd := rookCeph(append(args, "--format", "json")...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	Expect(err).NotTo(HaveOccurred(), "%s: %s%s", cmd.String(), out, stderr.String())
	Expect(json.Unmarshal(out, v)).To(Succeed(), "%s", out)
}

// rookFsadmin looks at a file system of the local Rook as its administrator.
func rookFsadmin(filesystem string, args ...string) *exec.Cmd {
	cmd := fsadmin(args...)
	cmd.Env = append(cmd.Env, "HCO_CEPH_DIR="+rookDir(), "HCO_CEPH_FS="+filesystem)
	return cmd
}

// cephfsClient runs testdata/cephfs-client.py as the client of a StorageBackend, with
// the ceph.conf and keyring of its client config Secret, confined to its root.
func cephfsClient(backend string, args ...string) *exec.Cmd {
	GinkgoHelper()
	sb := &v1alpha1.StorageBackend{}
	Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: backend}, sb)).To(Succeed())
	secret := &corev1.Secret{}
	Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: sb.Status.ClientConfigSecret}, secret)).To(Succeed())
	dir := GinkgoT().TempDir()
	conf, keyring := filepath.Join(dir, "ceph.conf"), filepath.Join(dir, "keyring")
	Expect(os.WriteFile(conf, secret.Data[cephconf.KeyCephConf], 0o600)).To(Succeed())
	Expect(os.WriteFile(keyring, secret.Data[cephconf.KeyKeyring], 0o600)).To(Succeed())
	script := filepath.Join(repoRoot, "test", "e2e", "testdata", "cephfs-client.py")
	return command(script, append([]string{conf, keyring, sb.Status.ClientID, sb.Status.FilesystemName, sb.Status.RootPath}, args...)...)
}

// rookMonitors are the monitors Rook publishes in its mon endpoints ConfigMap.
func rookMonitors() []string {
	GinkgoHelper()
	cm := &corev1.ConfigMap{}
	Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: rookNamespace, Name: rook.MonEndpointsConfigMap}, cm)).To(Succeed())
	monitors, err := cephconf.ParseMonEndpoints(cm.Data[rook.MonEndpointsKey])
	Expect(err).NotTo(HaveOccurred())
	return monitors
}

// crushHostOSDs counts the OSDs under each CRUSH host of the local Rook.
func crushHostOSDs() map[string]int {
	GinkgoHelper()
	hosts := map[string]int{}
	for _, host := range osdHosts() {
		hosts[host]++
	}
	return hosts
}

// expectedCRUSHHosts is one OSD on each node's CRUSH host: Rook names it after the
// node's kubernetes.io/hostname label with dots replaced by dashes.
func expectedCRUSHHosts() map[string]int {
	GinkgoHelper()
	nodes := &corev1.NodeList{}
	Expect(k8sClient.List(ctx, nodes)).To(Succeed())
	want := map[string]int{}
	for _, n := range nodes.Items {
		want[strings.ReplaceAll(n.Labels[corev1.LabelHostname], ".", "-")] = 1
	}
	return want
}

func cephFilesystems() []string {
	GinkgoHelper()
	var list []struct {
		Name string `json:"name"`
	}
	rookCephJSON(&list, "fs", "ls")
	var names []string
	for _, fs := range list {
		names = append(names, fs.Name)
	}
	return names
}

func cephPools() []string {
	GinkgoHelper()
	var pools []string
	rookCephJSON(&pools, "osd", "pool", "ls")
	return pools
}

// cephClientCaps are the caps Ceph holds for entity, by daemon type.
func cephClientCaps(entity string) map[string]string {
	GinkgoHelper()
	var entries []struct {
		Caps map[string]string `json:"caps"`
	}
	rookCephJSON(&entries, "auth", "get", entity)
	Expect(entries).To(HaveLen(1))
	return entries[0].Caps
}

func cephClients() []string {
	GinkgoHelper()
	var auth struct {
		Entries []struct {
			Entity string `json:"entity"`
		} `json:"auth_dump"`
	}
	rookCephJSON(&auth, "auth", "ls")
	var names []string
	for _, e := range auth.Entries {
		names = append(names, e.Entity)
	}
	return names
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

// fsFlags are the flags `ceph fs get` lists for filesystem, on its line "flags <bits>
// <name>...".
func fsFlags(filesystem string) []string {
	GinkgoHelper()
	for _, line := range strings.Split(mustRun(rookCeph("fs", "get", filesystem)), "\n") {
		if fields := strings.Fields(line); len(fields) > 1 && fields[0] == "flags" {
			return fields[2:]
		}
	}
	Fail("ceph fs get " + filesystem + " lists no flags")
	return nil
}

// poolUsage is a pool's line of `ceph df`: bytes stored, and raw bytes used on the OSDs.
type poolUsage struct {
	Stored    int64 `json:"stored"`
	BytesUsed int64 `json:"bytes_used"`
}

func poolStats(pool string) poolUsage {
	GinkgoHelper()
	var df struct {
		Pools []struct {
			Name  string    `json:"name"`
			Stats poolUsage `json:"stats"`
		} `json:"pools"`
	}
	rookCephJSON(&df, "df", "detail")
	for _, p := range df.Pools {
		if p.Name == pool {
			return p.Stats
		}
	}
	Fail("ceph df has no pool " + pool)
	return poolUsage{}
}

// uncleanPGs counts the cluster's placement groups that are not active+clean. An OSD
// holds placement groups of every pool, the EC pool's among them; `ceph status` sums
// them up, where a list of each group would be large.
func uncleanPGs() int {
	GinkgoHelper()
	var status struct {
		PGMap struct {
			ByState []struct {
				Name  string `json:"state_name"`
				Count int    `json:"count"`
			} `json:"pgs_by_state"`
		} `json:"pgmap"`
	}
	rookCephJSON(&status, "status")
	n := 0
	for _, s := range status.PGMap.ByState {
		if s.Name != "active+clean" {
			n += s.Count
		}
	}
	return n
}

func osdsUp() int {
	GinkgoHelper()
	var stat struct {
		Up int `json:"num_up_osds"`
	}
	rookCephJSON(&stat, "osd", "stat")
	return stat.Up
}

// runLogged runs a long command with its output going to the spec's log as it comes.
func runLogged(cmd *exec.Cmd) {
	GinkgoHelper()
	cmd.Stdout, cmd.Stderr = GinkgoWriter, GinkgoWriter
	Expect(cmd.Run()).To(Succeed(), "%s", cmd.String())
}
