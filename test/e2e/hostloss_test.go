//go:build e2e

package e2e

import (
	"maps"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/podstatus"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/yarn"
)

// nodeAddress is a node's InternalIP.
func nodeAddress(n corev1.Node) string {
	for _, a := range n.Status.Addresses {
		if a.Type == corev1.NodeInternalIP {
			return a.Address
		}
	}
	return ""
}

// expectNodeManagerPerNode checks that the cluster has a NodeManager on every node,
// each registered in YARN under a host of its own, and that the operator mapped each
// node to the host YARN knows its NodeManager by (the topology the connector reads).
// YARN names a NodeManager after the canonical name of the address it advertises: a
// worker's /etc/hosts names its address, and on the first node the cluster DNS
// answers the reverse lookup with the node's name, which the host's /etc/hosts gives
// another address, so Java takes the address itself; the names are
// whatever resolution gives, and the operator learns them from YARN.
func expectNodeManagerPerNode(hc *v1alpha1.HadoopCluster) {
	GinkgoHelper()
	nodes := &corev1.NodeList{}
	Expect(k8sClient.List(ctx, nodes)).To(Succeed())
	var want []string
	for _, n := range nodes.Items {
		want = append(want, nodeAddress(n))
	}
	pods := &corev1.PodList{}
	Expect(k8sClient.List(ctx, pods, client.InNamespace(namespace), client.MatchingLabels(hadoop.SelectorLabels(hc, hadoop.NodeManager)))).To(Succeed())
	var hostIPs []string
	for _, p := range pods.Items {
		hostIPs = append(hostIPs, p.Status.HostIP)
	}
	Expect(hostIPs).To(ConsistOf(want), "a NodeManager pod on every node")
	registered, err := yarnNodes(hc.Name)
	Expect(err).NotTo(HaveOccurred())
	hosts := map[string]bool{}
	for _, n := range registered {
		host, _, err := net.SplitHostPort(n.ID)
		Expect(err).NotTo(HaveOccurred(), "YARN node id %s", n.ID)
		hosts[host] = true
	}
	GinkgoWriter.Printf("YARN's NodeManagers: %v\n", slices.Sorted(maps.Keys(hosts)))
	Expect(hosts).To(HaveLen(len(want)), "each NodeManager registered under a host of its own: %v", registered)
	expectTopologyOfYARN(hc)
	expectRacks(hc)
}

// localCluster runs the local cluster's launcher (cmd/local-cluster), which stops and
// starts the workers.
func localCluster(args ...string) {
	GinkgoHelper()
	bin := os.Getenv("LOCAL_CLUSTER")
	if bin == "" {
		bin = filepath.Join(filepath.Dir(cephDir()), "bin", "local-cluster")
	}
	runLogged(command(bin, args...))
}

// nodeReady is a node's Ready condition status.
func nodeReady(name string) func(Gomega) corev1.ConditionStatus {
	return func(g Gomega) corev1.ConditionStatus {
		n := &corev1.Node{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Name: name}, n)).To(Succeed())
		for _, c := range n.Status.Conditions {
			if c.Type == corev1.NodeReady {
				return c.Status
			}
		}
		return ""
	}
}

func hostLossSpecs() {
	It("finishes a TeraSort on the EC 2+1 pool across hosts when a whole worker is lost mid-sort, its kubelet, containerd, pods and OSD stopped at once: the lost NodeManager's CephFS sessions are evicted from the node's state without its pod being deleted, the run succeeds with TeraValidate clean once the node is back, and Ceph heals", func() {
		const name = "terasort-host-loss"
		hc := newSpreadCluster(rookECCluster, rookECBackend)
		Expect(k8sClient.Create(ctx, newTeraSortOn(name, rookECCluster))).To(Succeed())
		waitForSortOnYARN(name, rookECCluster)

		By("choosing a worker whose NodeManager does not run the job's ApplicationMaster, and which runs none of the run's client pods")
		// As hadoop, an admin: YARN hides the ApplicationMaster's host from users its
		// ACLs do not let view the application.
		body, err := resourceManagerGet(rookECCluster, "/ws/v1/cluster/apps?states=RUNNING&user.name=hadoop")
		Expect(err).NotTo(HaveOccurred())
		apps, err := yarn.DecodeApplications(body)
		Expect(err).NotTo(HaveOccurred())
		Expect(apps).To(HaveLen(1))
		amHost, _, err := net.SplitHostPort(apps[0].AMHostHTTPAddress)
		Expect(err).NotTo(HaveOccurred(), "the ApplicationMaster's address %q", apps[0].AMHostHTTPAddress)
		pods := &corev1.PodList{}
		Expect(k8sClient.List(ctx, pods, client.InNamespace(namespace), client.MatchingLabels(hadoop.SelectorLabels(hc, hadoop.NodeManager)))).To(Succeed())
		// A stage's pod is the job's client, and a Job runs its pod once: the run
		// would fail with its client, not with the sort.
		clients := &corev1.PodList{}
		Expect(k8sClient.List(ctx, clients, client.InNamespace(namespace), client.MatchingLabels{benchmark.LabelRun: name})).To(Succeed())
		clientNodes := map[string]bool{}
		for _, c := range clients.Items {
			clientNodes[c.Spec.NodeName] = true
		}
		first := firstNode().Name
		var victim *corev1.Pod
		for i, p := range pods.Items {
			if p.Spec.NodeName != first && p.Status.HostIP != amHost && !clientNodes[p.Spec.NodeName] {
				victim = &pods.Items[i]
				break
			}
		}
		Expect(victim).NotTo(BeNil(), "no worker without the ApplicationMaster (on %s) and the run's client pods (on %v) runs a NodeManager", amHost, clientNodes)
		lostNode := victim.Spec.NodeName
		fs := rookFS(rookECFS)
		var sessions []int64
		// Retried: with two file systems on this Rook, an MDS is sometimes between
		// restarts (issue: several CephFS on one Rook), and the file system has no
		// active one for a moment.
		Eventually(func(g Gomega) {
			g.Expect(InterceptGomegaFailure(func() { sessions = fs.sessionsOfPodUID(victim.UID) })).To(Succeed())
			g.Expect(sessions).NotTo(BeEmpty(), "the NodeManager on %s and its containers hold CephFS sessions tagged with the pod's UID", lostNode)
		}).WithTimeout(2 * time.Minute).WithPolling(2 * time.Second).Should(Succeed())

		By("cutting the power of " + lostNode + ": every process of the node ends at once")
		localCluster("stop", lostNode, "--kill")
		killed := time.Now()
		// A spec that fails before the node is started again leaves it running for the
		// specs after it (a node already running is left as it is).
		DeferCleanup(func() { localCluster("start", lostNode) })
		// The node controller marks a node Unknown once its kubelet has not renewed its
		// lease for the node monitor grace period (50 s by default).
		Eventually(nodeReady(lostNode)).WithTimeout(2 * time.Minute).WithPolling(time.Second).Should(Equal(corev1.ConditionUnknown))
		unknown := time.Now()
		GinkgoWriter.Printf("%s marked Ready Unknown %s after its power went\n", lostNode, unknown.Sub(killed).Round(time.Second))

		// The lost node may have run the file system's active MDS: its standby takes over
		// after the MDS beacon grace (15 s) and a replay, and the sessions are read from
		// whichever MDS is active.
		By("fencing the lost NodeManager's sessions from the node's state, its pod left in place")
		Eventually(func(g Gomega) *metav1.Time {
			cur := &v1alpha1.HadoopCluster{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(hc), cur)).To(Succeed())
			for _, sp := range cur.Status.SessionPods {
				if sp.UID == string(victim.UID) {
					return sp.Fenced
				}
			}
			return nil
		}).WithTimeout(time.Minute).WithPolling(time.Second).ShouldNot(BeNil(), "status.sessionPods records the pod as fenced")
		Eventually(func(g Gomega) []int64 {
			var all []mdsSession
			g.Expect(InterceptGomegaFailure(func() { all = fs.mdsSessions() })).To(Succeed())
			var left []int64
			for _, s := range all {
				if slices.Contains(sessions, s.ID) {
					left = append(left, s.ID)
				}
			}
			return left
		}).WithTimeout(3*time.Minute).WithPolling(time.Second).Should(BeEmpty(), "the MDS dropped every session of the lost NodeManager")
		fenced := time.Since(unknown)
		GinkgoWriter.Printf("the lost NodeManager's %d sessions were evicted %s after its node was marked Unknown\n", len(sessions), fenced.Round(time.Second))
		AddReportEntry("seconds from a lost node marked Unknown to its NodeManager's CephFS sessions evicted", fenced.Round(time.Second).Seconds())
		still := &corev1.Pod{}
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(victim), still)).To(Succeed(), "nobody deleted the lost node's pod")
		Expect(still.UID).To(Equal(victim.UID))

		By("starting " + lostNode + " again, as after a reboot")
		localCluster("start", lostNode)
		Expect(cleanTeraSort(waitForRun(name))).To(Equal(rookTeraGenChecksum))

		expectFencingKeepsNewSessions(hc, victim, fs, sessions)

		By("Ceph healing: every OSD up and every placement group active+clean again")
		Eventually(func(g Gomega) {
			g.Expect(osdsUp()).To(Equal(3))
			g.Expect(uncleanPGs()).To(BeZero())
		}).WithTimeout(5 * time.Minute).WithPolling(5 * time.Second).Should(Succeed())
		GinkgoWriter.Printf("Ceph active+clean again %s after the power went\n", time.Since(killed).Round(time.Second))
		waitForCluster(rookECCluster)
	})
}

// expectFencingKeepsNewSessions checks the cut a fencing Job makes. The kubelet runs a
// lost node's pod again under the same UID once the node is back, and a fencing Job
// that comes late (its rank's MDS was on the lost node, and the takeover waited out
// the reconnect timeout) must evict only the sessions opened before the pod was
// fenced. The pod's fencing Job, run again now that its containers have opened new
// sessions, evicts none of them.
func expectFencingKeepsNewSessions(hc *v1alpha1.HadoopCluster, pod *corev1.Pod, fs cephFS, old []int64) {
	GinkgoHelper()
	By("running the lost NodeManager's fencing Job again after its node is back: the sessions its restarted containers opened stay")
	// The Job's pod has evicted the sessions, but the Job may not say so yet: a run
	// that ends as the node comes back leaves this spec here seconds after the
	// eviction, before the Job's pod has exited and the Job counted it.
	fence := &batchv1.Job{}
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: hadoop.FenceSessionsJobName(hc, pod.UID)}, fence)).To(Succeed())
		g.Expect(fence.Status.Succeeded).To(BeEquivalentTo(1), "the fencing Job %s: %+v", fence.Name, fence.Status)
	}).WithTimeout(2 * time.Minute).WithPolling(time.Second).Should(Succeed())
	// The restarted NodeManager opens its sessions as it starts, once the file system
	// has an active MDS again: the lost node may have run the active one, and its
	// standby takes over only after a while (issue: several CephFS on one Rook). Ready
	// first, so that a NodeManager that never came back says so.
	Eventually(func(g Gomega) {
		cur := &corev1.Pod{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(pod), cur)).To(Succeed())
		g.Expect(cur.UID).To(Equal(pod.UID))
		g.Expect(podstatus.Ready(cur)).To(BeTrue(), "the restarted NodeManager %s is not Ready: %+v", pod.Name, cur.Status.Conditions)
	}).WithTimeout(6 * time.Minute).WithPolling(5 * time.Second).Should(Succeed())
	// An idle NodeManager holds no CephFS session: its JVM opens the file system for
	// a container's localization or an application's logs, and the run may have
	// finished before the node came back. A client started in the restarted pod's
	// container opens one, tagged with the pod's UID as the NodeManager's own are.
	holdSessionIn(hc, pod)
	var fresh []int64
	Eventually(func(g Gomega) []int64 {
		g.Expect(InterceptGomegaFailure(func() { fresh = fs.sessionsOfPodUID(pod.UID) })).To(Succeed())
		return fresh
	}).WithTimeout(3*time.Minute).WithPolling(2*time.Second).ShouldNot(BeEmpty(), "the client in the restarted NodeManager's pod opens a session")
	for _, id := range fresh {
		Expect(old).NotTo(ContainElement(id), "session %d of the lost node outlived the fencing", id)
	}

	// The same pod template, under a name of its own: a Job's selector and its pods'
	// controller labels are the Job's.
	again := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: "fence-again-" + string(pod.UID)[:8]}}
	again.Spec.BackoffLimit = fence.Spec.BackoffLimit
	again.Spec.Template = *fence.Spec.Template.DeepCopy()
	for k := range again.Spec.Template.Labels {
		if strings.Contains(k, "controller-uid") || strings.Contains(k, "job-name") {
			delete(again.Spec.Template.Labels, k)
		}
	}
	Expect(k8sClient.Create(ctx, again)).To(Succeed())
	DeferCleanup(func() {
		Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, again, client.PropagationPolicy(metav1.DeletePropagationBackground)))).To(Succeed())
	})
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(again), again)).To(Succeed())
		g.Expect(again.Status.Failed).To(BeZero(), "%+v", again.Status)
		g.Expect(again.Status.Succeeded).To(BeEquivalentTo(1), "%+v", again.Status)
	}).WithTimeout(3 * time.Minute).WithPolling(2 * time.Second).Should(Succeed())
	// Retried: with two file systems on this Rook, an MDS is sometimes between
	// restarts (issue: several CephFS on one Rook), and the file system has no active
	// one for a moment; a session keeps its id across the reconnect.
	var left []int64
	Eventually(func() error {
		return InterceptGomegaFailure(func() { left = fs.sessionsOfPodUID(pod.UID) })
	}).WithTimeout(2*time.Minute).WithPolling(2*time.Second).Should(Succeed(), "reading the MDS's sessions")
	for _, id := range fresh {
		Expect(left).To(ContainElement(id), "the fencing Job run again evicted session %d, opened after the pod was fenced", id)
	}
	GinkgoWriter.Printf("the fencing Job run again kept the restarted NodeManager's %d sessions\n", len(fresh))
}

// holdSessionIn starts a Hadoop client in the pod's NodeManager container that keeps
// a CephFS session open: it follows a file of its own (hadoop fs -tail -f reads it
// every 5 s through one cached FileSystem) until the spec's cleanup removes the file,
// or for 15 minutes at most. It runs detached, so the exec returns at once. The file
// is in the cluster's own directory, which the NodeManager's user owns.
func holdSessionIn(hc *v1alpha1.HadoopCluster, pod *corev1.Pod) {
	GinkgoHelper()
	file := hadoop.SystemDir(hc) + "/e2e-session-" + string(pod.UID)
	sh := func(script string) string {
		return mustRun(kubectl("-n", pod.Namespace, "exec", pod.Name, "-c", string(hadoop.NodeManager), "--", "bash", "-c", script))
	}
	sh("hadoop fs -touchz " + file + " && { nohup timeout 900 hadoop fs -tail -f " + file + " >/dev/null 2>&1 & }")
	DeferCleanup(func() { sh("hadoop fs -rm -f -skipTrash " + file) })
}
