//go:build e2e

package e2e

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/cephconf"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// rookBackendSpecs make the Rook path's StorageBackends: the replicated and the
// erasure-coded one the later specs share, and one deleted at once whose file system
// stays (Context "StorageBackends through Rook").
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
