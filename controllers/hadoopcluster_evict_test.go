package controllers

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// No kubelet and no Job controller run here: these specs prove which pods the
// operator records and which eviction Jobs it makes. The end-to-end suite runs an
// eviction against Ceph.
var _ = Describe("HadoopCluster eviction of a dead pod's CephFS sessions", Label("envtest"), func() {
	It("records its pods by UID and, once one is gone, starts a Job that evicts that UID's sessions with the evictor's key alone", func() {
		ns := createNamespace("evict")
		evictingBackend(ns, "ext")
		hc, objs, pod := recordedNodeManager(ns, "fenced", "")

		By("deleting the pod without grace, as for a lost node, while its successor appears under the same name")
		oldUID := pod.UID
		Expect(k8sClient.Delete(ctx, pod, client.GracePeriodSeconds(0))).To(Succeed())
		Eventually(gone(pod)).Should(Succeed())
		successor := nodeManagerPod(objs)
		Expect(k8sClient.Create(ctx, successor)).To(Succeed())

		var job batchv1.Job
		Eventually(func(g Gomega) {
			jobs := evictionJobs(g, ns)
			g.Expect(jobs).To(HaveLen(1))
			job = jobs[0]
		}).Should(Succeed())
		Expect(job.Name).To(Equal(hadoop.EvictSessionsJobName(hc, oldUID)))
		Expect(metav1.IsControlledBy(&job, fresh(hc)(Default))).To(BeTrue(), "the Job goes with the cluster")
		spec := job.Spec.Template.Spec
		Expect(spec.Containers[0].Env).To(ContainElements(
			corev1.EnvVar{Name: "POD_UID", Value: string(oldUID)},
			corev1.EnvVar{Name: "POD_NAME", Value: pod.Name},
			corev1.EnvVar{Name: "EVICTOR_ID", Value: "hadoop-evictor"},
			corev1.EnvVar{Name: "CEPH_FS", Value: "cephfs"},
		))
		var secrets []string
		for _, v := range spec.Volumes {
			if v.Secret != nil {
				secrets = append(secrets, v.Secret.SecretName)
			}
		}
		Expect(secrets).To(Equal([]string{"ext-ceph-evictor"}), "Hadoop's key stays out of the Job")
		Eventually(events(hc)).Should(ContainElement("Normal/" + v1alpha1.EventReasonEvictingSessions))

		By("recording the successor, whose sessions are not evicted")
		Eventually(func(g Gomega) []v1alpha1.SessionPod { return fresh(hc)(g).Status.SessionPods }).
			Should(Equal([]v1alpha1.SessionPod{{Name: successor.Name, UID: string(successor.UID)}}))
		Consistently(func(g Gomega) []batchv1.Job { return evictionJobs(g, ns) }, 2*time.Second, 500*time.Millisecond).Should(HaveLen(1))
	})

	It("evicts the sessions of a pod whose node is unreachable, once, while the pod object remains", func() {
		ns := createNamespace("fence")
		evictingBackend(ns, "ext")
		node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "lost-" + ns + ".fence.test"}}
		Expect(k8sClient.Create(ctx, node)).To(Succeed())
		DeferCleanup(func() { Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, node))).To(Succeed()) })
		setNodeReady(node, corev1.ConditionTrue, "kubelet is posting ready status")

		hc, _, pod := recordedNodeManager(ns, "lost", node.Name)

		By("marking the node unreachable, as the node controller does when its kubelet stops reporting")
		setNodeReady(node, corev1.ConditionUnknown, "Kubelet stopped posting node status.")
		Eventually(func(g Gomega) []string {
			var names []string
			for _, j := range evictionJobs(g, ns) {
				names = append(names, j.Name)
			}
			return names
		}).Should(Equal([]string{hadoop.FenceSessionsJobName(hc, pod.UID)}))
		Eventually(func(g Gomega) *metav1.Time {
			sp := fresh(hc)(g).Status.SessionPods
			g.Expect(sp).To(HaveLen(1))
			return sp[0].Fenced
		}).ShouldNot(BeNil())
		Eventually(events(hc)).Should(ContainElement("Warning/" + v1alpha1.EventReasonFencingSessions))

		By("not evicting again when the pod object finally goes")
		Expect(k8sClient.Delete(ctx, pod, client.GracePeriodSeconds(0))).To(Succeed())
		Eventually(gone(pod)).Should(Succeed())
		Eventually(func(g Gomega) []v1alpha1.SessionPod { return fresh(hc)(g).Status.SessionPods }).Should(BeEmpty())
		Consistently(func(g Gomega) []batchv1.Job { return evictionJobs(g, ns) }, 2*time.Second, 500*time.Millisecond).Should(HaveLen(1))
		Expect(events(hc)(Default)).NotTo(ContainElement("Normal/" + v1alpha1.EventReasonEvictingSessions))
	})

	It("records a fenced pod unfenced once its node is back, and evicts the sessions it opened since when it goes", func() {
		ns := createNamespace("fence")
		evictingBackend(ns, "ext")
		node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "back-" + ns + ".fence.test"}}
		Expect(k8sClient.Create(ctx, node)).To(Succeed())
		DeferCleanup(func() { Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, node))).To(Succeed()) })
		setNodeReady(node, corev1.ConditionTrue, "kubelet is posting ready status")
		hc, _, pod := recordedNodeManager(ns, "back", node.Name)

		setNodeReady(node, corev1.ConditionUnknown, "Kubelet stopped posting node status.")
		fencedAt := func(g Gomega) *metav1.Time {
			sp := fresh(hc)(g).Status.SessionPods
			g.Expect(sp).To(HaveLen(1))
			return sp[0].Fenced
		}
		Eventually(fencedAt).ShouldNot(BeNil())

		By("the node reporting Ready again, as after a reboot: the kubelet restarts the pod's containers under its UID")
		setNodeReady(node, corev1.ConditionTrue, "kubelet is posting ready status")
		Eventually(fencedAt).Should(BeNil())

		Expect(k8sClient.Delete(ctx, pod, client.GracePeriodSeconds(0))).To(Succeed())
		Eventually(gone(pod)).Should(Succeed())
		Eventually(func(g Gomega) []string {
			var names []string
			for _, j := range evictionJobs(g, ns) {
				names = append(names, j.Name)
			}
			return names
		}).Should(ConsistOf(hadoop.FenceSessionsJobName(hc, pod.UID), hadoop.EvictSessionsJobName(hc, pod.UID)))
	})

	It("records nothing when the StorageBackend has no evictor", func() {
		ns := createNamespace("evict")
		readyExternalBackend(ns, "ext")
		hc := createCluster(ns, "open", "ext")
		objs := childrenOf(hc)
		Eventually(get(objs.NodeManagers)).Should(Succeed())
		pod := nodeManagerPod(objs)
		Expect(k8sClient.Create(ctx, pod)).To(Succeed())
		Eventually(condition(hc, v1alpha1.ConditionStorageReady)).Should(Equal("True/Reconciled"))
		Expect(k8sClient.Delete(ctx, pod, client.GracePeriodSeconds(0))).To(Succeed())
		Consistently(func(g Gomega) []batchv1.Job { return evictionJobs(g, ns) }, 2*time.Second, 500*time.Millisecond).Should(BeEmpty())
		Expect(fresh(hc)(Default).Status.SessionPods).To(BeEmpty())
	})
})

// nodeManagerPod is the NodeManager pod of ordinal 0 as the StatefulSet controller,
// which does not run here, would make it (not yet created).
func nodeManagerPod(objs *clusterObjects) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: objs.NodeManagers.Namespace, Name: objs.NodeManagers.Name + "-0", Labels: objs.NodeManagers.Spec.Template.Labels},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nodemanager", Image: "hadoop"}}},
	}
}

// recordedNodeManager creates a cluster on StorageBackend "ext" and its NodeManager
// pod on node, and waits until the pod is on record and no eviction started.
func recordedNodeManager(ns, name, node string) (*v1alpha1.HadoopCluster, *clusterObjects, *corev1.Pod) {
	GinkgoHelper()
	hc := createCluster(ns, name, "ext")
	objs := childrenOf(hc)
	Eventually(get(objs.NodeManagers)).Should(Succeed())
	pod := nodeManagerPod(objs)
	pod.Spec.NodeName = node
	Expect(k8sClient.Create(ctx, pod)).To(Succeed())
	Eventually(func(g Gomega) []v1alpha1.SessionPod { return fresh(hc)(g).Status.SessionPods }).
		Should(Equal([]v1alpha1.SessionPod{{Name: pod.Name, UID: string(pod.UID)}}))
	Consistently(func(g Gomega) []batchv1.Job { return evictionJobs(g, ns) }, 2*time.Second, 500*time.Millisecond).
		Should(BeEmpty(), "a live pod's sessions are never evicted")
	return hc, objs, pod
}

// evictingBackend makes a Ready external StorageBackend with an evictor.
func evictingBackend(ns, name string) {
	sb := externalBackend(ns, name, false)
	Eventually(func(g Gomega) {
		cur := fresh(sb)(g)
		cur.Spec.CephFS.External.Evictor = &v1alpha1.CephxClientRef{ClientID: "hadoop-evictor", KeySecretRef: v1alpha1.SecretKeyRef{Name: "evictor-key"}}
		g.Expect(k8sClient.Update(ctx, cur)).To(Succeed())
	}).Should(Succeed())
	writeKeySecret(ns, "evictor-key")
	Eventually(condition(sb, v1alpha1.ConditionEvictorReady)).Should(Equal("True/Reconciled"))
}

// setNodeReady writes the node's Ready condition, as its kubelet or the node
// controller would.
func setNodeReady(node *corev1.Node, status corev1.ConditionStatus, message string) {
	Eventually(func(g Gomega) {
		cur := &corev1.Node{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(node), cur)).To(Succeed())
		cur.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: status, Message: message, LastTransitionTime: metav1.Now(), LastHeartbeatTime: metav1.Now()}}
		g.Expect(k8sClient.Status().Update(ctx, cur)).To(Succeed())
	}).Should(Succeed())
}

// evictionJobs lists the eviction Jobs in ns.
func evictionJobs(g Gomega, ns string) []batchv1.Job {
	jobs := &batchv1.JobList{}
	g.Expect(k8sClient.List(ctx, jobs, client.InNamespace(ns), client.MatchingLabels{hadoop.LabelComponent: string(hadoop.EvictSessions)})).To(Succeed())
	return jobs.Items
}
