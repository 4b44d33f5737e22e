//go:build e2e

package e2e

import (
	"path"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// rookDeletionSpecs delete the Rook backends, one kept with its data and one with
// preserveOnDelete false (Context "deleting Rook-mode StorageBackends").
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
