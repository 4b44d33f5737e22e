//go:build e2e

package e2e

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// mdsSessionTimeout is the file system's session_timeout (Ceph's default, which
// hack/ceph keeps): how long the MDS waits for a client that stopped talking before
// it drops the client's session and other clients may use its files again.
const mdsSessionTimeout = 60 * time.Second

func nodeLossSpecs() {
	It("finishes the run after its NodeManager pod is deleted mid-sort, and none of the pod's CephFS sessions outlives the session timeout", func() {
		Expect(k8sClient.Create(ctx, newTeraSort("terasort-node-loss"))).To(Succeed())

		By("waiting for the sort's MapReduce job to run on YARN")
		Eventually(func(g Gomega) {
			run := &v1alpha1.BenchmarkRun{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: "terasort-node-loss"}, run)).To(Succeed())
			g.Expect(run.Status.Progress).NotTo(BeNil())
			g.Expect(run.Status.Progress.Stage).To(Equal(v1alpha1.StageTeraSort))
			apps, err := runningYARNApps()
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(apps).NotTo(BeEmpty())
		}).WithTimeout(runTimeout).Should(Succeed())

		pod := &corev1.Pod{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: hadoop.NodeManagerName(newCluster()) + "-0"}, pod)).To(Succeed())
		sessions := sessionsOfPod(pod.Name)
		Expect(sessions).NotTo(BeEmpty(), "the NodeManager and its containers hold CephFS sessions tagged with the pod's name")

		By("deleting the NodeManager pod " + pod.Name)
		Expect(k8sClient.Delete(ctx, pod)).To(Succeed())
		Eventually(func(g Gomega) {
			now := &corev1.Pod{}
			err := k8sClient.Get(ctx, client.ObjectKeyFromObject(pod), now)
			g.Expect(client.IgnoreNotFound(err)).To(Succeed())
			g.Expect(err != nil || now.UID != pod.UID).To(BeTrue(), "the old pod is gone")
		}).WithTimeout(3 * time.Minute).Should(Succeed())

		// A process of the pod that exits cleanly closes its session; one that is killed
		// (a task JVM still in its shutdown hooks when the kubelet's SIGKILL comes) leaves
		// it to the MDS, which marks it stale after session_timeout and takes its
		// capabilities back, so other clients go on, and closes it minutes later
		// (session_autoclose). Open past the timeout would mean others could stall on it.
		By("checking that every session of the deleted pod has ended or gone stale within the file system's session timeout")
		Eventually(func() map[int64]string {
			states := map[int64]string{}
			for _, s := range mdsSessions() {
				states[s.ID] = s.State
			}
			open := map[int64]string{}
			for _, id := range sessions {
				if state, ok := states[id]; ok && (state == "open" || state == "opening") {
					open[id] = state
				}
			}
			return open
		}).WithTimeout(mdsSessionTimeout+30*time.Second).Should(BeEmpty(),
			"sessions of the deleted pod still hold capabilities past the session timeout")

		run := waitForRun("terasort-node-loss")
		Expect(run.Status.Phase).To(Equal(v1alpha1.BenchmarkPhaseSucceeded), "%+v", run.Status)
		Expect(run.Status.Stages).To(ContainElement(And(
			HaveField("Stage", v1alpha1.StageTeraValidate),
			HaveField("TeraValidate.Errors", int32(0)),
		)))
	})
}
