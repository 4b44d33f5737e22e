package controllers

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

var _ = Describe("HadoopCluster components", Label("envtest"), func() {
	It("says why NodeManagers are not ready: unschedulable, rolling, starting", func() {
		ns := createNamespace("hadoop")
		readyExternalBackend(ns, "ext")
		hc := createCluster(ns, "busy", "ext", func(s *v1alpha1.HadoopClusterSpec) {
			s.NodeManagers.Replicas = ptr.To[int32](2)
		})
		objs := childrenOf(hc)
		for _, sts := range objs.StatefulSets() {
			Eventually(get(sts)).Should(Succeed())
		}
		playStatefulSet(objs.ResourceManager, 1)
		playStatefulSet(objs.JobHistory, 1)
		Eventually(condition(hc, v1alpha1.ConditionResourceManagerReady)).Should(Equal("True/Reconciled"))
		Eventually(condition(hc, v1alpha1.ConditionJobHistoryReady)).Should(Equal("True/Reconciled"))

		By("counting pods that start")
		playStatefulSet(objs.NodeManagers, 1)
		Eventually(conditionMessage(hc, v1alpha1.ConditionNodeManagersReady)).Should(Equal("1/2 pods of StatefulSet busy-nodemanager ready"))
		Expect(condition(hc, v1alpha1.ConditionNodeManagersReady)(Default)).To(Equal("False/PodsNotReady"))
		Expect(fresh(hc)(Default).Status.NodeManagers).To(Equal("1/2"))

		By("passing on what the scheduler says of a pod it cannot place")
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "busy-nodemanager-1", Labels: hadoop.Labels(hc, hadoop.NodeManager)},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nodemanager", Image: testImage}}},
		}
		Expect(k8sClient.Create(ctx, pod)).To(Succeed())
		pod.Status.Conditions = []corev1.PodCondition{{
			Type:    corev1.PodScheduled,
			Status:  corev1.ConditionFalse,
			Reason:  corev1.PodReasonUnschedulable,
			Message: "0/3 nodes are available: 3 Insufficient rdma/hca.",
		}}
		Expect(k8sClient.Status().Update(ctx, pod)).To(Succeed())
		Eventually(condition(hc, v1alpha1.ConditionNodeManagersReady)).Should(Equal("False/Unschedulable"))
		Expect(conditionMessage(hc, v1alpha1.ConditionNodeManagersReady)(Default)).To(Equal(
			"pod busy-nodemanager-1 cannot be scheduled: 0/3 nodes are available: 3 Insufficient rdma/hca."))
		Expect(condition(hc, v1alpha1.ConditionReady)(Default)).To(Equal("False/Unschedulable"))
		Eventually(events(hc)).Should(ContainElement("Warning/Unschedulable"))

		By("reporting a rollout once the pod is placed")
		pod.Status.Conditions[0] = corev1.PodCondition{Type: corev1.PodScheduled, Status: corev1.ConditionTrue}
		Expect(k8sClient.Status().Update(ctx, pod)).To(Succeed())
		Eventually(func(g Gomega) {
			sts := objs.NodeManagers
			g.Expect(get(sts)()).To(Succeed())
			sts.Status = appsv1.StatefulSetStatus{
				ObservedGeneration: sts.Generation, Replicas: 2, ReadyReplicas: 2, UpdatedReplicas: 1,
				CurrentRevision: "busy-nodemanager-1", UpdateRevision: "busy-nodemanager-2",
			}
			g.Expect(k8sClient.Status().Update(ctx, sts)).To(Succeed())
		}).Should(Succeed())
		Eventually(condition(hc, v1alpha1.ConditionNodeManagersReady)).Should(Equal("False/RollingUpdate"))
		Expect(conditionMessage(hc, v1alpha1.ConditionNodeManagersReady)(Default)).To(ContainSubstring("1/2 pods updated, 2 ready"))

		playStatefulSet(objs.NodeManagers, 2)
		Eventually(condition(hc, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
		Expect(fresh(hc)(Default).Status.NodeManagers).To(Equal("2/2"))
	})
})
