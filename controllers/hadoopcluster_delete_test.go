package controllers

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// envtest runs no garbage collector: the spec checks the owner references through
// which a real cluster's garbage collector deletes the children, and that nothing
// holding data is touched.
var _ = Describe("HadoopCluster deletion", Label("envtest"), func() {
	It("goes at once, leaves its children to garbage collection and the storage untouched", func() {
		ns := createNamespace("hadoop")
		rookNs := rookCluster()
		sb := newRookBackend(ns, "lake", rookNs)
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		playRook(sb, rookNs)
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
		hc := createCluster(ns, "doomed", "lake")
		objs := childrenOf(hc)
		for _, obj := range objs.All() {
			Eventually(get(obj)).Should(Succeed())
		}
		uid := fresh(hc)(Default).UID

		storage := []client.Object{
			&v1alpha1.StorageBackend{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "lake"}},
			&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "lake-ceph-client"}},
			&cephv1.CephFilesystem{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: "hadoopfs"}},
			&cephv1.CephFilesystemSubVolumeGroup{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: "hadoopfs-hadoop"}},
			&cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: rook.ClientName(sb)}},
		}
		before := settledVersions(storage...)

		Expect(k8sClient.Delete(ctx, hc)).To(Succeed())
		Eventually(gone(hc)).Should(Succeed())
		for _, obj := range objs.All() {
			Expect(get(obj)()).To(Succeed())
			ref := metav1.GetControllerOf(obj)
			Expect(ref).NotTo(BeNil())
			Expect(ref.UID).To(Equal(uid), "%s must be collected with the cluster", obj.GetName())
			Expect(ref.BlockOwnerDeletion).To(HaveValue(BeTrue()))
		}
		Expect(resourceVersions(Default, storage...)).To(Equal(before), "deleting a cluster must not touch its storage")

		By("letting its StorageBackend go, with the data kept")
		Expect(k8sClient.Delete(ctx, sb)).To(Succeed())
		Eventually(gone(sb)).Should(Succeed())
		for _, obj := range storage[2:] {
			Expect(get(obj)()).To(Succeed())
			Expect(obj.GetDeletionTimestamp()).To(BeNil())
		}
	})
})
