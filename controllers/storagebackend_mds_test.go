package controllers

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// createMDSPod creates a pod labelled as Rook labels an MDS daemon of file system fs,
// and gives it the status a kubelet would: Ready and running, or its container waiting
// in CrashLoopBackOff after restarts.
func createMDSPod(ns, fs, name string, crashLooping bool, restarts int32) *corev1.Pod {
	GinkgoHelper()
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{
			"app": "rook-ceph-mds", "rook_file_system": fs, "rook_cluster": ns,
		}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "mds", Image: "quay.io/ceph/ceph:v18"}}},
	}
	Expect(k8sClient.Create(ctx, pod)).To(Succeed())
	setMDSStatus(pod, crashLooping, restarts)
	return pod
}

func setMDSStatus(pod *corev1.Pod, crashLooping bool, restarts int32) {
	GinkgoHelper()
	ready, state := corev1.ConditionTrue, corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}
	var last corev1.ContainerState
	if crashLooping {
		ready = corev1.ConditionFalse
		state = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}
		last = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 137, Reason: "Error"}}
	}
	Eventually(func(g Gomega) {
		g.Expect(get(pod)()).To(Succeed())
		pod.Status.Phase = corev1.PodRunning
		pod.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: ready}}
		pod.Status.ContainerStatuses = []corev1.ContainerStatus{{
			Name: "mds", Image: "quay.io/ceph/ceph:v18", Ready: ready == corev1.ConditionTrue,
			RestartCount: restarts, State: state, LastTerminationState: last,
		}}
		g.Expect(k8sClient.Status().Update(ctx, pod)).To(Succeed())
	}).Should(Succeed())
}

var _ = Describe("StorageBackend's MDS daemons", Label("envtest"), func() {
	It("reports its file system's MDS pods in MetadataServersHealthy, outside Ready, naming a crash-looping one", func() {
		ns, rookNs := createNamespace("hadoop"), rookCluster()
		sb := newRookBackend(ns, "lake", rookNs)
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		playRook(sb, rookNs)
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
		Eventually(condition(sb, v1alpha1.ConditionMetadataServersHealthy)).Should(Equal("False/NoMetadataServers"))

		By("finding both daemons of its file system Ready, whatever another file system's do")
		a := createMDSPod(rookNs, "hadoopfs", "rook-ceph-mds-hadoopfs-a", false, 0)
		b := createMDSPod(rookNs, "hadoopfs", "rook-ceph-mds-hadoopfs-b", false, 0)
		createMDSPod(rookNs, "kept", "rook-ceph-mds-kept-a", true, 5)
		Eventually(condition(sb, v1alpha1.ConditionMetadataServersHealthy)).Should(Equal("True/MetadataServersReady"))
		Eventually(conditionMessage(sb, v1alpha1.ConditionMetadataServersHealthy)).Should(Equal(
			"2 MDS pods of file system hadoopfs are Ready: rook-ceph-mds-hadoopfs-a, rook-ceph-mds-hadoopfs-b"))

		By("naming the daemon that waits in CrashLoopBackOff, with a warning, and leaving Ready as it was")
		setMDSStatus(b, true, 7)
		Eventually(condition(sb, v1alpha1.ConditionMetadataServersHealthy)).Should(Equal("False/MetadataServerCrashLooping"))
		Eventually(conditionMessage(sb, v1alpha1.ConditionMetadataServersHealthy)).Should(ContainSubstring(
			"rook-ceph-mds-hadoopfs-b (container mds, 7 restarts, last exit code 137: Error)"))
		Eventually(events(sb)).Should(ContainElement("Warning/" + v1alpha1.ReasonMetadataServerCrashLooping))
		Expect(condition(sb, v1alpha1.ConditionReady)(Default)).To(Equal("True/Reconciled"))

		By("counting the restarts once the daemon is Ready again")
		setMDSStatus(b, false, 8)
		Eventually(condition(sb, v1alpha1.ConditionMetadataServersHealthy)).Should(Equal("True/MetadataServersReady"))
		Eventually(conditionMessage(sb, v1alpha1.ConditionMetadataServersHealthy)).Should(HaveSuffix(
			"their containers restarted 8 times since the pods started"))

		By("saying which daemon is not Ready")
		Eventually(func(g Gomega) {
			g.Expect(get(a)()).To(Succeed())
			a.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}}
			g.Expect(k8sClient.Status().Update(ctx, a)).To(Succeed())
		}).Should(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionMetadataServersHealthy)).Should(Equal("False/MetadataServersNotReady"))
		Eventually(conditionMessage(sb, v1alpha1.ConditionMetadataServersHealthy)).Should(HavePrefix(
			"MDS pods of file system hadoopfs not Ready: rook-ceph-mds-hadoopfs-a "))
	})
})
