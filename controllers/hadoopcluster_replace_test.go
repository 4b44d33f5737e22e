package controllers

import (
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// envtest runs no garbage collector, so the spec plays its part: it drops the orphan
// finalizer that the garbage collector removes once it has released the pods.
var _ = Describe("HadoopCluster StatefulSet replacement", Label("envtest"), func() {
	It("moves a StatefulSet made with its client Service as governing Service to the headless one, orphaning its pods", func() {
		ns := createNamespace("replace")
		readyExternalBackend(ns, "ext")
		hc := createCluster(ns, "older", "ext")
		objs := childrenOf(hc)
		rm := objs.ResourceManager
		Eventually(get(rm)).Should(Succeed())
		Expect(rm.Spec.ServiceName).To(Equal(hadoop.HeadlessServiceName(hc, hadoop.ResourceManager)))
		Eventually(get(objs.ResourceManagerHeadless)).Should(Succeed())
		Expect(objs.ResourceManagerHeadless.Spec.ClusterIP).To(Equal(corev1.ClusterIPNone))

		By("standing in an earlier release's StatefulSet, which named the client Service")
		updateCluster(hc, func(s *v1alpha1.HadoopClusterSpec) { s.Paused = true })
		Eventually(condition(hc, v1alpha1.ConditionReady)).Should(HaveSuffix("/Paused"))
		older := &appsv1.StatefulSet{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: rm.Name, Labels: rm.Labels, OwnerReferences: rm.OwnerReferences},
			Spec:       *rm.Spec.DeepCopy(),
		}
		older.Spec.ServiceName = hadoop.ResourceManagerName(hc)
		Expect(k8sClient.Delete(ctx, rm)).To(Succeed())
		Eventually(gone(rm)).Should(Succeed())
		Expect(k8sClient.Create(ctx, older)).To(Succeed())
		olderUID := older.UID

		By("resuming: the operator deletes it with orphan propagation and says why")
		updateCluster(hc, func(s *v1alpha1.HadoopClusterSpec) { s.Paused = false })
		Eventually(func(g Gomega) []string {
			current := &appsv1.StatefulSet{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(older), current)).To(Succeed())
			g.Expect(current.UID).To(Equal(olderUID))
			g.Expect(current.DeletionTimestamp).NotTo(BeNil())
			return current.Finalizers
		}).Should(ContainElement(metav1.FinalizerOrphanDependents), "the pods must outlive the StatefulSet")
		Eventually(events(hc)).Should(ContainElement("Normal/Replaced"))

		By("creating it anew once the garbage collector has let it go")
		Eventually(func(g Gomega) {
			current := &appsv1.StatefulSet{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(older), current)).To(Succeed())
			current.Finalizers = slices.DeleteFunc(current.Finalizers, func(f string) bool { return f == metav1.FinalizerOrphanDependents })
			g.Expect(k8sClient.Update(ctx, current)).To(Succeed())
		}).Should(Succeed())
		Eventually(func(g Gomega) types.UID {
			g.Expect(get(rm)()).To(Succeed())
			g.Expect(rm.Spec.ServiceName).To(Equal(hadoop.HeadlessServiceName(hc, hadoop.ResourceManager)))
			return rm.UID
		}).ShouldNot(Equal(olderUID))
		Expect(metav1.IsControlledBy(rm, fresh(hc)(Default))).To(BeTrue())
		Expect(rm.Spec.Replicas).To(Equal(ptr.To[int32](1)))
	})
})
