//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// mdsSessionTimeout is the file system's session_timeout (Ceph's default, which
// hack/ceph keeps): how long the MDS waits for a client that stopped talking before
// it drops the client's session and other clients may use its files again.
const mdsSessionTimeout = 60 * time.Second

func nodeLossSpecs() {
	It("finishes the run after its NodeManager is killed and its pod deleted without grace mid-sort, and evicts the pod's CephFS sessions so that no other client waits for the session timeout", func() {
		Expect(k8sClient.Create(ctx, newTeraSort("terasort-node-loss"))).To(Succeed())

		By("waiting for the sort's MapReduce job to run on YARN")
		Eventually(func(g Gomega) {
			run := &v1alpha1.BenchmarkRun{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: "terasort-node-loss"}, run)).To(Succeed())
			g.Expect(run.Status.Progress).NotTo(BeNil())
			g.Expect(run.Status.Progress.Stage).To(Equal(v1alpha1.StageTeraSort))
			apps, err := runningYARNApps(clusterName)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(apps).NotTo(BeEmpty())
		}).WithTimeout(runTimeout).Should(Succeed())

		hc := newCluster()
		pod := &corev1.Pod{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: hadoop.NodeManagerName(hc) + "-0"}, pod)).To(Succeed())
		sessions := localFS.sessionsOfPodUID(pod.UID)
		Expect(sessions).NotTo(BeEmpty(), "the NodeManager and its containers hold CephFS sessions tagged with the pod's UID")
		dirs := localFS.capDirectories(sessions)
		if !slices.Contains(dirs, cephRoot) {
			dirs = append(dirs, cephRoot)
		}
		Eventually(func(g Gomega) []v1alpha1.SessionPod {
			cur := &v1alpha1.HadoopCluster{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(hc), cur)).To(Succeed())
			return cur.Status.SessionPods
		}).Should(ContainElement(v1alpha1.SessionPod{Name: pod.Name, UID: string(pod.UID)}), "the operator knows the pod by its UID")

		// As on a node that dies: the processes go without unmounting, and the pod's
		// object goes without waiting for a kubelet.
		By("killing the NodeManager's JVM and its containers' with SIGKILL, and deleting pod " + pod.Name + " without grace")
		killed := killPodProcesses(pod.UID)
		Expect(killed).NotTo(BeZero(), "the pod's Java processes were found")
		Expect(k8sClient.Delete(ctx, pod, client.GracePeriodSeconds(0))).To(Succeed())
		deleted := time.Now()

		By("evicting the dead pod's sessions through the operator's Job")
		job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: hadoop.EvictSessionsJobName(hc, pod.UID)}}
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(job), job)).To(Succeed())
			g.Expect(job.Status.Succeeded).To(BeEquivalentTo(1), "%+v", job.Status)
		}).WithTimeout(2 * time.Minute).Should(Succeed())
		GinkgoWriter.Printf("eviction Job %s succeeded %s after the deletion\n", job.Name, time.Since(deleted).Round(time.Second/10))
		Eventually(func() []int64 {
			var left []int64
			for _, s := range localFS.mdsSessions() {
				if slices.Contains(sessions, s.ID) {
					left = append(left, s.ID)
				}
			}
			return left
		}).WithTimeout(30*time.Second).Should(BeEmpty(), "the MDS dropped every session of the dead pod")

		// Another client's change to a directory the dead sessions held capabilities
		// on would otherwise wait until the MDS gives up on them (session_timeout).
		By(fmt.Sprintf("changing, as another client, the directories the dead pod's sessions held capabilities on before it died: %v", dirs))
		bound, cancel := context.WithDeadline(ctx, deleted.Add(mdsSessionTimeout))
		defer cancel()
		for _, dir := range dirs {
			touchDirectory(bound, dir)
		}
		GinkgoWriter.Printf("those changes were done %s after the deletion (session timeout %s)\n",
			time.Since(deleted).Round(time.Second/10), mdsSessionTimeout)

		run := waitForRun("terasort-node-loss")
		Expect(run.Status.Phase).To(Equal(v1alpha1.BenchmarkPhaseSucceeded), "%+v", run.Status)
		Expect(run.Status.Stages).To(ContainElement(And(
			HaveField("Stage", v1alpha1.StageTeraValidate),
			HaveField("TeraValidate.Errors", int32(0)),
		)))
	})
}

// killPodProcesses sends SIGKILL to every process of the pod with uid, found by the
// POD_UID in its environment (the NodeManager's JVM and its containers' JVMs carry
// it), and returns how many it killed. From the host: a container's first process
// ignores SIGKILL sent from inside its own PID namespace.
func killPodProcesses(uid types.UID) int {
	GinkgoHelper()
	entries, err := os.ReadDir("/proc")
	Expect(err).NotTo(HaveOccurred())
	marker := []byte("\x00" + hadoop.EnvPodUID + "=" + string(uid) + "\x00")
	killed := 0
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		environ, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !bytes.Contains(append([]byte{0}, environ...), marker) {
			continue
		}
		if syscall.Kill(pid, syscall.SIGKILL) == nil {
			killed++
		}
	}
	return killed
}
