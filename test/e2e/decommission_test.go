//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/jobhistory"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/podstatus"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/yarn"
)

func decommissionSpecs() {
	It("scales the NodeManagers from 2 to 1 in the middle of a TeraSort: YARN decommissions the leaving one, which finishes its containers first, and the run succeeds with no failed or killed task attempt", func() {
		hc := &v1alpha1.HadoopCluster{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: rookReplicatedCluster}, hc)).To(Succeed())
		Expect(hc.Spec.NodeManagers.Replicas).To(HaveValue(BeEquivalentTo(2)))
		// Both NodeManagers registered: the ResourceManager reached them by the names
		// they advertise, through the cluster DNS.
		Eventually(func(g Gomega) {
			current := &v1alpha1.HadoopCluster{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(hc), current)).To(Succeed())
			g.Expect(meta.IsStatusConditionTrue(current.Status.Conditions, v1alpha1.ConditionReady)).To(BeTrue(), "%+v", current.Status.Conditions)
			g.Expect(clusterNodes(g, hc)).To(HaveEach(HaveField("State", yarn.NodeRunning)))
			g.Expect(clusterNodes(g, hc)).To(HaveLen(2))
		}).WithTimeout(5 * time.Minute).WithPolling(2 * time.Second).Should(Succeed())
		expectTopologyOfYARN(hc)
		leavingPod := &corev1.Pod{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: hadoop.NodeManagerName(hc) + "-1"}, leavingPod)).To(Succeed())
		// A NodeManager on the pod network registers under its host name's canonical
		// form, the pod's FQDN in the headless Service.
		isLeaving := func(id string) bool {
			host := strings.Split(id, ":")[0]
			return host == leavingPod.Name || strings.HasPrefix(host, leavingPod.Name+".") || host == leavingPod.Status.PodIP
		}

		const name = "terasort-scale-down"
		Expect(k8sClient.Create(ctx, newTeraSortOn(name, rookReplicatedCluster))).To(Succeed())

		By("waiting for the sort's containers on " + leavingPod.Name)
		var leavingID string
		Eventually(func(g Gomega) {
			run := &v1alpha1.BenchmarkRun{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, run)).To(Succeed())
			g.Expect(run.Status.Progress).NotTo(BeNil())
			g.Expect(run.Status.Progress.Stage).To(Equal(v1alpha1.StageTeraSort))
			nodes := clusterNodes(g, hc)
			g.Expect(nodes).To(HaveLen(2))
			for _, n := range nodes {
				if isLeaving(n.ID) {
					leavingID = n.ID
				}
			}
			g.Expect(leavingID).NotTo(BeEmpty(), "%s is among YARN's nodes: %+v", leavingPod.Name, nodes)
			// The node list's container count lags, and TeraGen's last containers may
			// still be on the leaving NodeManager when the run's progress says TeraSort:
			// the premise is a running container of the sort's own application there.
			sort := runningApplication(g, hc, "TeraSort")
			g.Expect(runningContainersOn(g, hc, sort, leavingID)).To(BeNumerically(">", 0), "the sort %s runs containers on %s", sort, leavingID)
		}).WithTimeout(runTimeout).WithPolling(time.Second).Should(Succeed())

		By("scaling to one NodeManager")
		start := time.Now()
		current := &v1alpha1.HadoopCluster{}
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(hc), current)).To(Succeed())
		current.Spec.NodeManagers.Replicas = ptr.To[int32](1)
		Expect(k8sClient.Update(ctx, current)).To(Succeed())

		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(hc), current)).To(Succeed())
			d := current.Status.Decommissioning
			g.Expect(d).NotTo(BeNil())
			g.Expect(d.Nodes).To(ConsistOf(HaveField("NodeID", leavingID)))
			// The state is YARN's at the operator's last read: RUNNING when it asked
			// for the decommission, and a node whose last containers end before the
			// next read goes on to DECOMMISSIONED without status ever showing
			// DECOMMISSIONING, which YARN's own list shows below.
			g.Expect(d.Nodes[0].State).To(BeElementOf(yarn.NodeRunning, yarn.NodeDecommissioning))
		}).WithTimeout(time.Minute).WithPolling(time.Second).Should(Succeed())
		GinkgoWriter.Printf("%s DECOMMISSIONING after %s\n", leavingID, time.Since(start).Round(time.Second))
		sts := &appsv1.StatefulSet{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: hadoop.NodeManagerName(hc)}, sts)).To(Succeed())
		Expect(sts.Spec.Replicas).To(HaveValue(BeEquivalentTo(2)), "the StatefulSet keeps the leaving pod while YARN decommissions it")

		By("waiting for YARN to decommission it and the StatefulSet to go down to 1")
		decommissioned := false
		Eventually(func(g Gomega) {
			for _, n := range clusterNodes(g, hc) {
				decommissioned = decommissioned || (n.ID == leavingID && n.State == yarn.NodeDecommissioned)
			}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(sts), sts)).To(Succeed())
			g.Expect(sts.Spec.Replicas).To(HaveValue(BeEquivalentTo(1)))
			g.Expect(decommissioned).To(BeTrue(), "YARN reported %s DECOMMISSIONED", leavingID)
		}).WithTimeout(runTimeout).WithPolling(2 * time.Second).Should(Succeed())
		GinkgoWriter.Printf("StatefulSet at 1 after %s\n", time.Since(start).Round(time.Second))

		run := waitForRun(name)
		expectNoLostAttempts(hc, rookReplicatedFS, run)
		expectDataLocalSort(run)
	})

	It("rolls a configuration change through the NodeManagers one at a time during a TeraSort, each decommissioned before its pod is replaced, and the ResourceManager last; the run succeeds with no failed or killed task attempt", func() {
		hc := &v1alpha1.HadoopCluster{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: rookReplicatedCluster}, hc)).To(Succeed())
		hc.Spec.NodeManagers.Replicas = ptr.To[int32](2)
		Expect(k8sClient.Update(ctx, hc)).To(Succeed())
		uids := func() map[string]string {
			out := map[string]string{}
			for _, c := range []hadoop.Component{hadoop.ResourceManager, hadoop.NodeManager} {
				pods := &corev1.PodList{}
				Expect(k8sClient.List(ctx, pods, client.InNamespace(namespace), client.MatchingLabels(hadoop.SelectorLabels(hc, c)))).To(Succeed())
				for _, p := range pods.Items {
					if p.DeletionTimestamp.IsZero() && podstatus.Ready(&p) {
						out[p.Name] = string(p.UID)
					}
				}
			}
			return out
		}
		// YARN may list a node RUNNING before its pod is ready: both are waited for.
		Eventually(func(g Gomega) {
			g.Expect(uids()).To(HaveLen(3), "the ResourceManager's and both NodeManagers' pods are ready")
			nodes := clusterNodes(g, hc)
			running := 0
			for _, n := range nodes {
				if n.State == yarn.NodeRunning {
					running++
				}
			}
			g.Expect(running).To(Equal(2), "%+v", nodes)
		}).WithTimeout(5 * time.Minute).WithPolling(2 * time.Second).Should(Succeed())

		rmPod := hadoop.ResourceManagerName(hc) + "-0"
		nmPods := []string{hadoop.NodeManagerName(hc) + "-0", hadoop.NodeManagerName(hc) + "-1"}
		before := uids()
		Expect(before).To(HaveLen(3))

		const name = "terasort-rolling"
		Expect(k8sClient.Create(ctx, newTeraSortOn(name, rookReplicatedCluster))).To(Succeed())
		Eventually(func(g Gomega) {
			run := &v1alpha1.BenchmarkRun{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, run)).To(Succeed())
			g.Expect(run.Status.Progress).NotTo(BeNil())
			g.Expect(run.Status.Progress.Stage).To(Equal(v1alpha1.StageTeraSort))
			g.Expect(clusterNodes(g, hc)).To(ContainElement(HaveField("NumContainers", BeNumerically(">", 0))))
		}).WithTimeout(runTimeout).WithPolling(time.Second).Should(Succeed())

		By("changing the configuration, which every pod's template carries")
		start := time.Now()
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(hc), hc)).To(Succeed())
		hc.Spec.Config.YarnSite = map[string]string{"yarn.nodemanager.delete.debug-delay-sec": "1"}
		Expect(k8sClient.Update(ctx, hc)).To(Succeed())

		sawRollingDecommission := false
		replacedAt := map[string]time.Duration{}
		Eventually(func(g Gomega) {
			current := &v1alpha1.HadoopCluster{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(hc), current)).To(Succeed())
			if d := current.Status.Decommissioning; d != nil && d.Reason == v1alpha1.DecommissionRollingUpdate {
				sawRollingDecommission = true
			}
			now := uids()
			missing := 0
			for _, pod := range nmPods {
				uid, ok := now[pod]
				if !ok {
					missing++
				} else if uid != before[pod] {
					if _, seen := replacedAt[pod]; !seen {
						replacedAt[pod] = time.Since(start)
					}
				}
			}
			Expect(missing).To(BeNumerically("<=", 1), "one NodeManager at a time: %v", now)
			if uid, ok := now[rmPod]; ok && uid != before[rmPod] {
				replacedAt[rmPod] = time.Since(start)
				Expect(replacedAt).To(HaveKey(nmPods[0]), "the ResourceManager goes after the NodeManagers")
				Expect(replacedAt).To(HaveKey(nmPods[1]), "the ResourceManager goes after the NodeManagers")
			}
			g.Expect(replacedAt).To(HaveLen(3))
		}).WithTimeout(2 * runTimeout).WithPolling(time.Second).Should(Succeed())
		GinkgoWriter.Printf("new pods ready after: %v\n", replacedAt)
		Expect(sawRollingDecommission).To(BeTrue(), "status showed a NodeManager decommissioned for the update")
		Expect(replacedAt[nmPods[1]]).To(BeNumerically("<", replacedAt[nmPods[0]]), "the highest ordinal first")

		expectNoLostAttempts(hc, rookReplicatedFS, waitForRun(name))
	})
}

// clusterNodes lists the NodeManagers of hc's ResourceManager, which runs on the pod
// network, through its Service's ClusterIP.
func clusterNodes(g Gomega, hc *v1alpha1.HadoopCluster) []yarn.Node {
	svc := &corev1.Service{}
	g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: hc.Namespace, Name: hadoop.ResourceManagerName(hc)}, svc)).To(Succeed())
	body := mustGet(g, fmt.Sprintf("http://%s:%d/ws/v1/cluster/nodes?user.name=hadoop&states=RUNNING,DECOMMISSIONING,DECOMMISSIONED,LOST,SHUTDOWN", svc.Spec.ClusterIP, hadoop.PortRMWeb))
	nodes, err := yarn.DecodeNodes(body)
	g.Expect(err).NotTo(HaveOccurred())
	return nodes
}

// runningApplication is the ID of the cluster's RUNNING application called name.
func runningApplication(g Gomega, hc *v1alpha1.HadoopCluster, name string) string {
	svc := &corev1.Service{}
	g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: hc.Namespace, Name: hadoop.ResourceManagerName(hc)}, svc)).To(Succeed())
	body := mustGet(g, fmt.Sprintf("http://%s:%d/ws/v1/cluster/apps?user.name=hadoop&states=RUNNING", svc.Spec.ClusterIP, hadoop.PortRMWeb))
	apps, err := yarn.DecodeApplications(body)
	g.Expect(err).NotTo(HaveOccurred())
	for _, a := range apps {
		if a.Name == name {
			return a.ID
		}
	}
	g.Expect(apps).To(ContainElement(HaveField("Name", name)), "a RUNNING application %s", name)
	return ""
}

// runningContainersOn counts the RUNNING containers of application appID on the YARN
// node nodeID (host:port), as the ResourceManager lists those of the application's
// current attempt: the suite reaches the ResourceManager's node only, and the
// NodeManagers run on the others.
func runningContainersOn(g Gomega, hc *v1alpha1.HadoopCluster, appID, nodeID string) int {
	svc := &corev1.Service{}
	g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: hc.Namespace, Name: hadoop.ResourceManagerName(hc)}, svc)).To(Succeed())
	base := fmt.Sprintf("http://%s:%d/ws/v1/cluster/apps/%s/appattempts", svc.Spec.ClusterIP, hadoop.PortRMWeb, appID)
	var attempts struct {
		AppAttempts struct {
			AppAttempt []struct {
				AppAttemptID string `json:"appAttemptId"`
			} `json:"appAttempt"`
		} `json:"appAttempts"`
	}
	body := mustGet(g, base+"?user.name=hadoop")
	g.Expect(json.Unmarshal(body, &attempts)).To(Succeed(), string(body))
	list := attempts.AppAttempts.AppAttempt
	g.Expect(list).NotTo(BeEmpty(), "application %s has an attempt", appID)
	var containers struct {
		Container []struct {
			NodeID string `json:"nodeId"`
			State  string `json:"containerState"`
		} `json:"container"`
	}
	body = mustGet(g, base+"/"+list[len(list)-1].AppAttemptID+"/containers?user.name=hadoop")
	g.Expect(json.Unmarshal(body, &containers)).To(Succeed(), string(body))
	n := 0
	for _, c := range containers.Container {
		if c.State == "RUNNING" && c.NodeID == nodeID {
			n++
		}
	}
	return n
}

// expectNoLostAttempts checks that a TeraSort run is clean and that no task attempt of
// it failed or was killed: with speculation off, a killed attempt is one whose
// container was lost.
func expectNoLostAttempts(hc *v1alpha1.HadoopCluster, fsName string, run *v1alpha1.BenchmarkRun) {
	GinkgoHelper()
	cleanTeraSort(run)
	for _, s := range run.Status.Stages {
		if c := s.Counters; c != nil && c.FailedTaskAttempts+c.KilledTaskAttempts > 0 {
			Fail(fmt.Sprintf("stage %s failed %d task attempts and killed %d:\n%s", s.Stage, c.FailedTaskAttempts, c.KilledTaskAttempts,
				lostAttempts(hc, fsName, teraJobNames[s.Stage])))
		}
	}
}

// teraJobNames are the MapReduce job names of TeraSort's stages, which their history
// files carry.
var teraJobNames = map[v1alpha1.BenchmarkStage]string{
	v1alpha1.StageTeraGen: "TeraGen", v1alpha1.StageTeraSort: "TeraSort", v1alpha1.StageTeraValidate: "TeraValidate",
}

// lostAttempts lists the failed and killed attempts of the latest job called name in
// the cluster's history, with MapReduce's reason for each, or says why it cannot: it
// explains a failure, and must not hide it behind one of its own.
func lostAttempts(hc *v1alpha1.HadoopCluster, fsName, name string) string {
	dir := path.Join(hadoopRoot, hadoop.HistoryIntermediateDir(hc))
	ls := func(d string) []string {
		out, err := rookFsadmin(fsName, "ls", d).Output()
		if err != nil {
			return nil
		}
		return strings.Fields(string(out))
	}
	// A history file is named job_..-<submit time>-<user>-<job name>-...; the latest
	// submission of name is the run's.
	latest, submitted := "", ""
	for _, user := range ls(dir) {
		for _, file := range ls(path.Join(dir, user)) {
			fields := strings.Split(file, "-")
			if len(fields) > 3 && fields[3] == name && strings.HasSuffix(file, ".jhist") && fields[1] > submitted {
				latest, submitted = path.Join(dir, user, file), fields[1]
			}
		}
	}
	if latest == "" {
		return fmt.Sprintf("  (no history of a %s job in %s)", name, dir)
	}
	body, err := rookFsadmin(fsName, "cat", latest).Output()
	if err != nil {
		return fmt.Sprintf("  (reading %s: %v)", latest, err)
	}
	lost, err := jobhistory.LostAttempts(bytes.NewReader(body))
	if err != nil {
		return fmt.Sprintf("  (reading %s: %v)", latest, err)
	}
	var b strings.Builder
	for _, a := range lost {
		fmt.Fprintf(&b, "  %s %s %s on %s: %s\n", a.Attempt, a.TaskType, a.Status, a.Host, a.Error)
	}
	return b.String()
}

// expectTopologyOfYARN checks that the operator learnt every NodeManager's YARN host as
// YARN itself lists it, on the node its pod runs on, and wrote them to the topology
// ConfigMap that the connector reads.
func expectTopologyOfYARN(hc *v1alpha1.HadoopCluster) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		current := &v1alpha1.HadoopCluster{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(hc), current)).To(Succeed())
		var yarnHosts []string
		for _, n := range clusterNodes(g, hc) {
			yarnHosts = append(yarnHosts, strings.Split(n.ID, ":")[0])
		}
		recorded := current.Status.NodeManagerHosts
		g.Expect(recorded).To(HaveLen(len(yarnHosts)))
		cm := &corev1.ConfigMap{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: hc.Namespace, Name: hadoop.TopologyConfigMapName(hc)}, cm)).To(Succeed())
		for _, h := range recorded {
			g.Expect(yarnHosts).To(ContainElement(h.YARNHost), "status.nodeManagerHosts names the host YARN knows %s by", h.Pod)
			pod := &corev1.Pod{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: hc.Namespace, Name: h.Pod}, pod)).To(Succeed())
			g.Expect(h.NodeName).To(Equal(pod.Spec.NodeName))
			g.Expect(cm.Data).To(HaveKeyWithValue("hosts", MatchRegexp(`(?m)^%s( \S+)* %s( |$)`, regexp.QuoteMeta(h.NodeName), regexp.QuoteMeta(h.YARNHost))))
		}
	}).WithTimeout(2 * time.Minute).WithPolling(2 * time.Second).Should(Succeed())
}

// expectDataLocalSort checks that TeraSort's maps ran where their data is. Every node
// holds an OSD, so a map placed by the block locations the connector reports is
// data-local wherever its split's primary OSD has a NodeManager; with the OSDs' CRUSH
// host names alone they would all be rack-local at best.
func expectDataLocalSort(run *v1alpha1.BenchmarkRun) {
	GinkgoHelper()
	c := teraSortCounters(run)
	GinkgoWriter.Printf("TeraSort: %d maps, %d data-local, %d rack-local\n", c.LaunchedMaps, c.DataLocalMaps, c.RackLocalMaps)
	Expect(c.DataLocalMaps).To(BeNumerically(">", 0), "data-local maps of %d", c.LaunchedMaps)
}
