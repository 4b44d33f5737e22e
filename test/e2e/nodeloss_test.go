//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"slices"
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
	It("finishes the run after its NodeManager pod is deleted mid-sort, and no other client waits on the pod's CephFS capabilities past the session timeout", func() {
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

		// A process of the pod that exits cleanly closes its session. One killed before
		// it unmounts leaves it open: the MDS keeps an idle session's capabilities until another client
		// wants them, then gives the dead client session_timeout to answer, marks the
		// session stale and hands them over (it closes the session itself only after
		// session_autoclose). So the bound to check is on the other clients: a change to
		// any directory the dead sessions hold capabilities on completes within the
		// session timeout.
		dirs := capDirectories(sessions)
		if !slices.Contains(dirs, cephRoot) {
			dirs = append(dirs, cephRoot)
		}
		By(fmt.Sprintf("changing, as another client, the directories the deleted pod's sessions hold capabilities on: %v", dirs))
		// A stalled change is cut off at the bound, so it fails here rather than hanging.
		start := time.Now()
		bound, cancel := context.WithTimeout(ctx, mdsSessionTimeout+30*time.Second)
		defer cancel()
		for _, dir := range dirs {
			touchDirectory(bound, dir)
		}
		GinkgoWriter.Printf("changing those directories took %s (session timeout %s)\n",
			time.Since(start).Round(time.Second/10), mdsSessionTimeout)
		for _, s := range mdsSessions() {
			if slices.Contains(sessions, s.ID) {
				GinkgoWriter.Printf("session %d of the deleted pod: %s\n", s.ID, s.State)
			}
		}

		run := waitForRun("terasort-node-loss")
		Expect(run.Status.Phase).To(Equal(v1alpha1.BenchmarkPhaseSucceeded), "%+v", run.Status)
		Expect(run.Status.Stages).To(ContainElement(And(
			HaveField("Stage", v1alpha1.StageTeraValidate),
			HaveField("TeraValidate.Errors", int32(0)),
		)))
	})
}
