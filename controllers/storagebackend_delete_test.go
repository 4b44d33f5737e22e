package controllers

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

var _ = Describe("StorageBackend deletion", Label("envtest"), func() {
	var ns, rookNs string

	BeforeEach(func() {
		ns = createNamespace("hadoop")
		rookNs = rookCluster()
	})

	// rookObjects are the Rook objects the operator manages for sb.
	rookObjects := func(sb *v1alpha1.StorageBackend) (fs *cephv1.CephFilesystem, svg *cephv1.CephFilesystemSubVolumeGroup, cc *cephv1.CephClient) {
		spec := sb.Spec.CephFS.Rook
		fs = &cephv1.CephFilesystem{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: spec.FilesystemName}}
		svg = &cephv1.CephFilesystemSubVolumeGroup{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: rook.SubVolumeGroupName(spec.FilesystemName, "hadoop")}}
		cc = &cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: rook.ClientName(sb)}}
		return fs, svg, cc
	}

	readyBackend := func(name string, mutate ...func(*v1alpha1.RookCephFS)) *v1alpha1.StorageBackend {
		sb := newRookBackend(ns, name, rookNs, mutate...)
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		playRook(sb, rookNs)
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
		return sb
	}

	It("waits for the HadoopClusters that use it, then goes and keeps the Rook objects", func() {
		sb := readyBackend("used")
		hc := &v1alpha1.HadoopCluster{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "analytics"},
			Spec:       v1alpha1.HadoopClusterSpec{StorageBackendRef: v1alpha1.LocalObjectReference{Name: "used"}},
		}
		Expect(k8sClient.Create(ctx, hc)).To(Succeed())

		Expect(k8sClient.Delete(ctx, sb)).To(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionDeletionBlocked)).Should(Equal("True/InUse"))
		Expect(conditionMessage(sb, v1alpha1.ConditionDeletionBlocked)(Default)).To(ContainSubstring("HadoopCluster analytics"))
		Expect(condition(sb, v1alpha1.ConditionReady)(Default)).To(Equal("True/Reconciled"), "a backend in use keeps serving while its deletion waits")
		Eventually(eventReasons(sb)).Should(ContainElement(v1alpha1.ReasonInUse))

		Expect(k8sClient.Delete(ctx, hc)).To(Succeed())
		Eventually(gone(sb)).Should(Succeed())

		fs, svg, cc := rookObjects(sb)
		for _, obj := range []client.Object{fs, svg, cc} {
			Expect(get(obj)()).To(Succeed(), "preserveOnDelete defaults to keeping %s", obj.GetName())
			Expect(obj.GetDeletionTimestamp()).To(BeNil())
		}
	})

	It("empties Hadoop's root with a Job, then deletes the Rook objects it created, when preserveOnDelete is false", func() {
		sb := readyBackend("disposable", func(r *v1alpha1.RookCephFS) { r.PreserveOnDelete = ptr.To(false) })
		fs, svg, cc := rookObjects(sb)

		Expect(k8sClient.Delete(ctx, sb)).To(Succeed())
		job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "disposable-delete-data"}}
		Eventually(get(job)).Should(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionDeletionBlocked)).Should(Equal("True/DeletingData"))
		Expect(metav1.IsControlledBy(job, fresh(sb)(Default))).To(BeTrue())
		c := job.Spec.Template.Spec.Containers[0]
		Expect(c.Image).To(Equal(testImage))
		Expect(c.Args).To(ContainElements("ceph.root.dir=/volumes/hadoop", "ceph.auth.id="+rook.ClientName(sb), "-skipTrash", "/*"))
		Expect(job.Spec.Template.Spec.Volumes[0].Secret.SecretName).To(Equal("disposable-ceph-client"))
		Consistently(func(g Gomega) {
			g.Expect(get(svg)()).To(Succeed())
			g.Expect(svg.DeletionTimestamp).To(BeNil())
		}, time.Second).Should(Succeed(), "Rook would refuse to delete a root that holds data")

		By("saying so when the Job fails, and starting another when it is deleted")
		finishJob(job, false, "")
		Eventually(condition(sb, v1alpha1.ConditionDeletionBlocked)).Should(Equal("True/DataDeletionFailed"))
		Expect(conditionMessage(sb, v1alpha1.ConditionDeletionBlocked)(Default)).To(ContainSubstring("delete the Job to try again"))
		failed := job.UID
		Expect(k8sClient.Delete(ctx, job, client.PropagationPolicy(metav1.DeletePropagationBackground))).To(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(get(job)()).To(Succeed())
			g.Expect(job.UID).NotTo(Equal(failed))
		}).Should(Succeed())

		finishJob(job, true, "")
		settings := &cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: rook.SettingsClientName(sb)}}
		for _, obj := range []client.Object{svg, cc, settings, fs} {
			Eventually(gone(obj)).Should(Succeed())
		}
		Eventually(gone(sb)).Should(Succeed())
	})

	It("says how to get out when preserveOnDelete is false and the backend's namespace is being deleted, and goes keeping the data once preserveOnDelete is true", func() {
		sb := readyBackend("doomed", func(r *v1alpha1.RookCephFS) { r.PreserveOnDelete = ptr.To(false) })
		fs, svg, cc := rookObjects(sb)

		// Without a namespace controller the namespace stays Terminating and deletes
		// nothing in it: the backend is deleted as the namespace controller would.
		Expect(k8sClient.Delete(ctx, namespace(ns))).To(Succeed())
		Expect(k8sClient.Delete(ctx, sb)).To(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionDeletionBlocked)).Should(Equal("True/NamespaceTerminating"))
		Expect(conditionMessage(sb, v1alpha1.ConditionDeletionBlocked)(Default)).To(And(
			ContainSubstring("by a Job in namespace "+ns+", which is being deleted"),
			ContainSubstring("set spec.cephFS.rook.preserveOnDelete to true"),
		))
		Consistently(func(g Gomega) {
			for _, obj := range []client.Object{svg, cc} {
				g.Expect(get(obj)()).To(Succeed())
				g.Expect(obj.GetDeletionTimestamp()).To(BeNil())
			}
		}, time.Second).Should(Succeed(), "nothing of Rook's is deleted while the root cannot be emptied")

		By("keeping everything once preserveOnDelete is true")
		Eventually(func(g Gomega) {
			cur := fresh(sb)(g)
			cur.Spec.CephFS.Rook.PreserveOnDelete = ptr.To(true)
			g.Expect(k8sClient.Update(ctx, cur)).To(Succeed())
		}).Should(Succeed())
		Eventually(gone(sb)).Should(Succeed())
		for _, obj := range []client.Object{fs, svg, cc} {
			Expect(get(obj)()).To(Succeed())
			Expect(obj.GetDeletionTimestamp()).To(BeNil(), "%s is kept", obj.GetName())
		}
	})

	It("lets a new backend with adoptExisting take over the file system and root a deleted one preserved", func() {
		first := readyBackend("first", func(r *v1alpha1.RookCephFS) { r.FilesystemName = "kept" })
		fs, svg, _ := rookObjects(first)
		Expect(k8sClient.Delete(ctx, first)).To(Succeed())
		Eventually(gone(first)).Should(Succeed())

		By("refusing the preserved root to a backend that does not ask to adopt")
		squatter := newRookBackend(ns, "squatter", rookNs, func(r *v1alpha1.RookCephFS) { r.FilesystemName = "kept" })
		Expect(k8sClient.Create(ctx, squatter)).To(Succeed())
		Eventually(condition(squatter, v1alpha1.ConditionFilesystemReady)).Should(Equal("False/FilesystemOwnedElsewhere"))
		Expect(k8sClient.Delete(ctx, squatter)).To(Succeed())
		Eventually(gone(squatter)).Should(Succeed())

		By("adopting the file system and the root with adoptExisting")
		second := readyBackend("second", func(r *v1alpha1.RookCephFS) {
			r.FilesystemName = "kept"
			r.AdoptExisting = true
		})
		Expect(get(svg)()).To(Succeed())
		Expect(rook.OwnedBy(svg, second)).To(BeTrue(), "the root's subvolume group now belongs to the new backend: %v", svg.Labels)
		Expect(get(fs)()).To(Succeed())
		Expect(rook.OwnedBy(fs, first)).To(BeTrue(), "an adopted file system is read, never written")
		Eventually(eventReasons(second)).Should(ContainElement(v1alpha1.EventReasonAdopted))

		By("never taking a root that a live backend owns")
		third := newRookBackend(ns, "third", rookNs, func(r *v1alpha1.RookCephFS) {
			r.FilesystemName = "kept"
			r.AdoptExisting = true
		})
		Expect(k8sClient.Create(ctx, third)).To(Succeed())
		Eventually(condition(third, v1alpha1.ConditionFilesystemReady)).Should(Equal("False/SubVolumeGroupOwnedElsewhere"))
		Expect(conditionMessage(third, v1alpha1.ConditionFilesystemReady)(Default)).To(ContainSubstring("StorageBackend " + ns + "/second"))
	})

	It("never deletes an adopted file system", func() {
		shared := &cephv1.CephFilesystem{
			ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: "shared"},
			Spec: cephv1.FilesystemSpec{
				MetadataPool:   cephv1.NamedPoolSpec{PoolSpec: cephv1.PoolSpec{Replicated: cephv1.ReplicatedSpec{Size: 3}}},
				DataPools:      []cephv1.NamedPoolSpec{{Name: "data", PoolSpec: cephv1.PoolSpec{Replicated: cephv1.ReplicatedSpec{Size: 3}}}},
				MetadataServer: cephv1.MetadataServerSpec{ActiveCount: 1},
			},
		}
		Expect(k8sClient.Create(ctx, shared)).To(Succeed())
		setPhase(shared, cephv1.ConditionReady)
		sb := readyBackend("borrower", func(r *v1alpha1.RookCephFS) {
			r.FilesystemName = "shared"
			r.AdoptExisting = true
			r.PreserveOnDelete = ptr.To(false)
		})
		_, svg, cc := rookObjects(sb)

		Expect(k8sClient.Delete(ctx, sb)).To(Succeed())
		job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "borrower-delete-data"}}
		Eventually(get(job)).Should(Succeed(), "Hadoop's root in the adopted file system is emptied before its group goes")
		finishJob(job, true, "")
		Eventually(gone(svg)).Should(Succeed())
		Eventually(gone(cc)).Should(Succeed())
		Eventually(gone(sb)).Should(Succeed())
		Expect(get(shared)()).To(Succeed())
		Expect(shared.DeletionTimestamp).To(BeNil())
	})
})
