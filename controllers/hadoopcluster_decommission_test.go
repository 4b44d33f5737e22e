package controllers

import (
	"fmt"
	"maps"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// No kubelet runs here, so no NodeManager answers: these specs prove what the
// operator holds back and writes while it cannot learn that a leaving NodeManager is
// idle. The end-to-end suite runs the decommission against YARN.
var _ = Describe("HadoopCluster scale-down", Label("envtest"), func() {
	var ns string

	BeforeEach(func() {
		ns = createNamespace("decommission")
		readyExternalBackend(ns, "ext")
	})

	It("keeps the StatefulSet's size while a leaving NodeManager's pod is ready, says so in status, and scales down once the pod is gone", func() {
		hc := createCluster(ns, "shrinking", "ext", func(s *v1alpha1.HadoopClusterSpec) {
			s.NodeManagers.Replicas = ptr.To[int32](2)
		})
		objs := childrenOf(hc)
		Eventually(func(g Gomega) *int32 {
			g.Expect(get(objs.NodeManagers)()).To(Succeed())
			return objs.NodeManagers.Spec.Replicas
		}).Should(HaveValue(BeEquivalentTo(2)))

		By("giving the leaving ordinal a ready pod whose NodeManager cannot be reached")
		leaving := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: objs.NodeManagers.Name + "-1", Labels: objs.NodeManagers.Spec.Template.Labels},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nodemanager", Image: "hadoop"}}},
		}
		Expect(k8sClient.Create(ctx, leaving)).To(Succeed())
		markReady(leaving)

		updateCluster(hc, func(s *v1alpha1.HadoopClusterSpec) { s.NodeManagers.Replicas = ptr.To[int32](1) })
		Eventually(condition(hc, v1alpha1.ConditionNodeManagersReady)).Should(Equal("False/Decommissioning"))
		d := fresh(hc)(Default).Status.Decommissioning
		Expect(d).NotTo(BeNil())
		Expect(d.Replicas).To(BeEquivalentTo(1))
		Expect(d.Nodes).To(ConsistOf(v1alpha1.DecommissioningNode{Pod: leaving.Name}))
		Expect(d.Deadline.Sub(d.StartTime.Time)).To(Equal(time.Hour+2*time.Minute), "the default timeout and the grace")
		Eventually(events(hc)).Should(ContainElement("Normal/Decommissioning"))
		Consistently(func(g Gomega) *int32 {
			g.Expect(get(objs.NodeManagers)()).To(Succeed())
			return objs.NodeManagers.Spec.Replicas
		}, 3*time.Second, 500*time.Millisecond).Should(HaveValue(BeEquivalentTo(2)), "the leaving pod may still run containers")
		Expect(get(objs.ConfigMap)()).To(Succeed())
		Expect(objs.ConfigMap.Data).To(HaveKey(hadoop.FileNodesExclude))
		Expect(objs.ConfigMap.Data[hadoop.FileNodesExclude]).NotTo(ContainSubstring("<host>"), "no node ID was learnt, so no host is excluded")

		By("deleting the pod, which then runs nothing")
		Expect(k8sClient.Delete(ctx, leaving, client.GracePeriodSeconds(0))).To(Succeed())
		Eventually(func(g Gomega) *int32 {
			g.Expect(get(objs.NodeManagers)()).To(Succeed())
			return objs.NodeManagers.Spec.Replicas
		}).Should(HaveValue(BeEquivalentTo(1)))
		Eventually(func(g Gomega) *v1alpha1.Decommissioning { return fresh(hc)(g).Status.Decommissioning }).Should(BeNil())
		Eventually(events(hc)).Should(ContainElement("Normal/Scaled"))
	})

	It("scales down at once with a decommission timeout of zero", func() {
		hc := createCluster(ns, "abrupt", "ext", func(s *v1alpha1.HadoopClusterSpec) {
			s.NodeManagers.Replicas = ptr.To[int32](2)
			s.NodeManagers.DecommissionTimeoutSeconds = ptr.To[int32](0)
		})
		objs := childrenOf(hc)
		Eventually(func(g Gomega) *int32 {
			g.Expect(get(objs.NodeManagers)()).To(Succeed())
			return objs.NodeManagers.Spec.Replicas
		}).Should(HaveValue(BeEquivalentTo(2)))
		leaving := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: objs.NodeManagers.Name + "-1", Labels: objs.NodeManagers.Spec.Template.Labels},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nodemanager", Image: "hadoop"}}},
		}
		Expect(k8sClient.Create(ctx, leaving)).To(Succeed())
		markReady(leaving)

		updateCluster(hc, func(s *v1alpha1.HadoopClusterSpec) { s.NodeManagers.Replicas = ptr.To[int32](1) })
		Eventually(func(g Gomega) *int32 {
			g.Expect(get(objs.NodeManagers)()).To(Succeed())
			return objs.NodeManagers.Spec.Replicas
		}).Should(HaveValue(BeEquivalentTo(1)))
		Expect(fresh(hc)(Default).Status.Decommissioning).To(BeNil())
	})
})

// With no kubelet, the specs below create the StatefulSets' pods themselves and say
// which revision each runs, as the StatefulSet controller would.
var _ = Describe("HadoopCluster rolling update", Label("envtest"), func() {
	var ns string

	BeforeEach(func() {
		ns = createNamespace("rollout")
		readyExternalBackend(ns, "ext")
	})

	// runPod creates a ready pod of sts at revision.
	runPod := func(sts *appsv1.StatefulSet, ordinal int, revision string) *corev1.Pod {
		labels := map[string]string{appsv1.ControllerRevisionHashLabelKey: revision}
		maps.Copy(labels, sts.Spec.Template.Labels)
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: sts.Namespace, Name: fmt.Sprintf("%s-%d", sts.Name, ordinal), Labels: labels},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "hadoop", Image: "hadoop"}}},
		}
		Expect(k8sClient.Create(ctx, pod)).To(Succeed())
		markReady(pod)
		return pod
	}
	// updateRevision makes sts report revision as its update revision.
	updateRevision := func(sts *appsv1.StatefulSet, revision string) {
		Eventually(func(g Gomega) {
			g.Expect(get(sts)()).To(Succeed())
			sts.Status = appsv1.StatefulSetStatus{ObservedGeneration: sts.Generation, Replicas: *sts.Spec.Replicas,
				CurrentRevision: sts.Name + "-old", UpdateRevision: revision}
			g.Expect(k8sClient.Status().Update(ctx, sts)).To(Succeed())
		}).Should(Succeed())
	}
	gone := func(pod *corev1.Pod) func() bool {
		return func() bool {
			now := &corev1.Pod{}
			return apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKeyFromObject(pod), now))
		}
	}

	It("replaces the NodeManagers one at a time, highest ordinal first, and the ResourceManager after them", func() {
		hc := createCluster(ns, "rolling", "ext", func(s *v1alpha1.HadoopClusterSpec) {
			s.NodeManagers.Replicas = ptr.To[int32](2)
			// Without decommissioning, which needs a NodeManager that answers.
			s.NodeManagers.DecommissionTimeoutSeconds = ptr.To[int32](0)
		})
		objs := childrenOf(hc)
		Eventually(get(objs.NodeManagers)).Should(Succeed())
		Eventually(get(objs.ResourceManager)).Should(Succeed())
		Expect(objs.NodeManagers.Spec.UpdateStrategy.Type).To(Equal(appsv1.OnDeleteStatefulSetStrategyType))
		Expect(objs.ResourceManager.Spec.UpdateStrategy.Type).To(Equal(appsv1.OnDeleteStatefulSetStrategyType))

		nm0, nm1 := runPod(objs.NodeManagers, 0, "nm-old"), runPod(objs.NodeManagers, 1, "nm-old")
		rm := runPod(objs.ResourceManager, 0, "rm-old")
		updateRevision(objs.ResourceManager, "rm-new")
		updateRevision(objs.NodeManagers, "nm-new")

		By("replacing the highest ordinal first, and nothing else meanwhile")
		Eventually(gone(nm1)).WithTimeout(30 * time.Second).Should(BeTrue())
		Consistently(func() bool { return gone(nm0)() || gone(rm)() }, 3*time.Second, 500*time.Millisecond).Should(BeFalse())
		Eventually(events(hc)).Should(ContainElement("Normal/PodReplaced"))

		By("replacing the next once its successor runs the new revision and is ready")
		runPod(objs.NodeManagers, 1, "nm-new")
		Eventually(gone(nm0)).WithTimeout(30 * time.Second).Should(BeTrue())
		Consistently(gone(rm), 3*time.Second, 500*time.Millisecond).Should(BeFalse(), "the ResourceManager goes last")

		By("replacing the ResourceManager once every NodeManager is current and ready")
		runPod(objs.NodeManagers, 0, "nm-new")
		Eventually(gone(rm)).WithTimeout(30 * time.Second).Should(BeTrue())
	})
})

var _ = Describe("HadoopCluster rolling update of a NodeManager that fails its probe", Label("envtest"), func() {
	It("decommissions it through YARN under the host on record while its container runs, instead of replacing its pod at once", func() {
		ns := createNamespace("rollout-slow")
		readyExternalBackend(ns, "ext")
		hc := createCluster(ns, "slow", "ext", func(s *v1alpha1.HadoopClusterSpec) {
			s.NodeManagers.Replicas = ptr.To[int32](1)
		})
		objs := childrenOf(hc)
		Eventually(get(objs.NodeManagers)).Should(Succeed())
		host := fmt.Sprintf("%s-0.%s.%s.svc.cluster.local", objs.NodeManagers.Name, objs.NodeManagers.Name, ns)
		nodeManagers.answer("198.51.100.30", host)
		labels := map[string]string{appsv1.ControllerRevisionHashLabelKey: objs.NodeManagers.Name + "-1"}
		maps.Copy(labels, objs.NodeManagers.Spec.Template.Labels)
		nm := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: objs.NodeManagers.Name + "-0", Labels: labels},
			Spec:       corev1.PodSpec{NodeName: "worker-a", Containers: []corev1.Container{{Name: string(hadoop.NodeManager), Image: "hadoop"}}},
		}
		Expect(k8sClient.Create(ctx, nm)).To(Succeed())
		markReadyAt(nm, "198.51.100.30")
		// The StatefulSet controller reports the pod ready, which brings a pass.
		playStatefulSet(objs.NodeManagers, 1)
		Eventually(func(g Gomega) []v1alpha1.NodeManagerHost { return fresh(hc)(g).Status.NodeManagerHosts }).Should(ConsistOf(
			HaveField("YARNHost", host)))

		By("failing its probe while its container runs, then updating the template")
		Eventually(func(g Gomega) {
			g.Expect(get(nm)()).To(Succeed())
			nm.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}}
			nm.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: string(hadoop.NodeManager), Image: "hadoop", ImageID: "hadoop",
				State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.Now()}}}}
			g.Expect(k8sClient.Status().Update(ctx, nm)).To(Succeed())
		}).Should(Succeed())
		// The operator's cache holds the hosts status before the template changes, as
		// it does for a NodeManager that has run for a while.
		Consistently(get(nm), time.Second, 200*time.Millisecond).Should(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(get(objs.NodeManagers)()).To(Succeed())
			objs.NodeManagers.Status = appsv1.StatefulSetStatus{ObservedGeneration: objs.NodeManagers.Generation, Replicas: 1,
				CurrentRevision: objs.NodeManagers.Name + "-1", UpdateRevision: "nm-new"}
			g.Expect(k8sClient.Status().Update(ctx, objs.NodeManagers)).To(Succeed())
		}).Should(Succeed())

		By("listing its host in the exclude file and keeping its pod while YARN has not decommissioned it")
		Eventually(func(g Gomega) {
			d := fresh(hc)(g).Status.Decommissioning
			g.Expect(d).NotTo(BeNil())
			g.Expect(d.Reason).To(Equal(v1alpha1.DecommissionRollingUpdate))
			g.Expect(d.Nodes).To(ConsistOf(HaveField("NodeID", host+":"+fmt.Sprint(hadoop.PortNMRPC))))
			g.Expect(get(objs.ConfigMap)()).To(Succeed())
			g.Expect(objs.ConfigMap.Data[hadoop.FileNodesExclude]).To(ContainSubstring("<name>" + host + "</name>"))
		}).Should(Succeed())
		Consistently(get(nm), 3*time.Second, 500*time.Millisecond).Should(Succeed(), "its containers may still run")

	})
})

// markReady plays the kubelet: the pod runs and is ready, at an address of TEST-NET-1,
// where nothing answers, so the operator cannot learn a NodeManager's node ID.
func markReady(pod *corev1.Pod) {
	GinkgoHelper()
	markReadyAt(pod, "192.0.2.1")
}

// markReadyAt plays the kubelet: the pod runs and is ready at ip. The operator may
// annotate the pod meanwhile, so the status is written to the latest.
func markReadyAt(pod *corev1.Pod, ip string) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		g.Expect(get(pod)()).To(Succeed())
		pod.Status = corev1.PodStatus{Phase: corev1.PodRunning, PodIP: ip, PodIPs: []corev1.PodIP{{IP: ip}},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}}
		g.Expect(k8sClient.Status().Update(ctx, pod)).To(Succeed())
	}).Should(Succeed())
}
