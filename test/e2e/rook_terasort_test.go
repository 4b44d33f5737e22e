//go:build e2e

package e2e

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// rookTeraSortSpecs run the suite's TeraSort on each Rook backend (Context "TeraSort
// on each Rook backend").
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
		Expect(run.Status.Setup.Storage.Pool).To(Equal(&v1alpha1.PoolSetup{Name: rookReplicatedFS + "-" + rook.DataPoolReplicated, Kind: v1alpha1.PoolKindReplicated, Size: 2}),
			"the pool the run measured, in status.setup")
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
		ecRun := waitForRun(keptRookTeraSort)
		Expect(cleanTeraSort(ecRun)).To(Equal(rookTeraGenChecksum),
			"TeraGen wrote the same rows on both backends")
		Expect(ecRun.Status.Setup.Storage.Pool).To(Equal(&v1alpha1.PoolSetup{Name: rookECPool, Kind: v1alpha1.PoolKindErasureCoded, DataChunks: 2, CodingChunks: 1}),
			"the pool the run measured, in status.setup")
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
