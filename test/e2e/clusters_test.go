//go:build e2e

package e2e

import (
	"os"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// The suite's HadoopClusters. Each storage path has one cluster that its specs share,
// because a cluster's start is most of a short spec's time on this machine: the
// external Ceph's (newCluster), the HDFS baseline's, and on Rook one per backend, the
// replicated one's on the pod network (newReplicatedCluster) and the erasure-coded
// one's on the host network with a NodeManager per node (newSpreadCluster).

// newCluster is the suite's HadoopCluster on the external Ceph.
func newCluster() *v1alpha1.HadoopCluster {
	return newClusterOn(clusterName, backendName)
}

// newClusterOn is a HadoopCluster on a StorageBackend, sized for a 2-core node: one
// NodeManager with room for an ApplicationMaster and two tasks, a JobHistory server,
// and one submitter beside the admins. Everything runs on the host network, as HPC
// clusters run Hadoop, and the NodeManager advertises its node's address on the nodes'
// network (dataInterface); the daemons' host ports keep one NodeManager to a node, and
// the suite runs one such cluster at a time.
func newClusterOn(name, backend string) *v1alpha1.HadoopCluster {
	small := func(cpu, memory string) corev1.ResourceRequirements {
		return corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(memory)},
			Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(memory)},
		}
	}
	return &v1alpha1.HadoopCluster{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec: v1alpha1.HadoopClusterSpec{
			StorageBackendRef: v1alpha1.LocalObjectReference{Name: backend},
			ImagePullPolicy:   corev1.PullIfNotPresent,
			ResourceManager:   v1alpha1.ResourceManagerSpec{Resources: small("100m", "1Gi")},
			NodeManagers: v1alpha1.NodeManagerSpec{
				Replicas:  ptr.To[int32](1),
				Resources: small("500m", "6Gi"),
				YARN:      &v1alpha1.YARNResources{VCores: ptr.To[int32](4)},
			},
			// It idles between jobs: a small CPU request leaves room for the stage pods
			// beside two clusters on the node's two cores.
			JobHistory: v1alpha1.JobHistorySpec{Resources: small("20m", "1Gi")},
			Network:    v1alpha1.NetworkSpec{HostNetwork: true, DataInterface: dataInterface},
			// The benchmark stages submit as hadoop, which is always an admin.
			Access: v1alpha1.AccessSpec{YARN: v1alpha1.YARNAccess{Submitters: &v1alpha1.ACLEntries{Users: []string{submitter}}}},
		},
	}
}

// newReplicatedCluster is the cluster of the Rook replicated backend, on the pod
// network, where NetworkPolicies apply: two NodeManagers (the host network's fixed
// ports would keep them on two nodes; the pod network lets the scheduler choose) and
// a ResourceManager that declared RPC clients may reach. The specs that share it, in
// order: NetworkPolicies, the replicated TeraSort, the scale-down and the rolling
// update, and the backend's deletion, which finds what its ResourceManager left.
func newReplicatedCluster() *v1alpha1.HadoopCluster {
	GinkgoHelper()
	hc := newClusterOn(rookReplicatedCluster, rookReplicatedBackend)
	hc.Spec.Network = v1alpha1.NetworkSpec{}
	hc.Spec.NodeManagers.Replicas = ptr.To[int32](2)
	hc.Spec.NodeManagers.Resources = corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m"), corev1.ResourceMemory: resource.MustParse("4Gi")},
		Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("4Gi")},
	}
	hc.Spec.NodeManagers.YARN = &v1alpha1.YARNResources{VCores: ptr.To[int32](2)}
	// It runs beside the erasure-coded backend's cluster; its specs read YARN, not the
	// JobHistory server, whose CPU request the stage pods need here.
	hc.Spec.JobHistory = v1alpha1.JobHistorySpec{Enabled: ptr.To(false)}
	// The suite reads YARN from the host, through the ResourceManager's Service. The
	// cluster's NetworkPolicies admit the host only on the ResourceManager's own node
	// (kube-router lets a node reach its own pods), so it stays on the first node; the
	// operator, on the pod network, passes through their operator rule wherever the
	// pods run. The NodeManagers run on the workers, one each (the operator spreads
	// them over hosts), beside the erasure-coded cluster's: that fills the workers'
	// memory, so the benchmarks' client pods run on the first node, which the host
	// loss spec never takes down.
	hc.Spec.ResourceManager.PodOverrides.NodeSelector = v1alpha1.Labels{corev1.LabelHostname: v1alpha1.LabelValue(firstNode().Labels[corev1.LabelHostname])}
	hc.Spec.NodeManagers.PodOverrides.NodeSelector = v1alpha1.Labels{workerLabel: "true"}
	// With two NodeManagers MapReduce speculates, and kills the attempt that loses the
	// race. Without speculation, a killed attempt is one a lost container caused,
	// which is what the decommission specs look for.
	hc.Spec.Config.MapredSite = map[string]string{"mapreduce.map.speculative": "false", "mapreduce.reduce.speculative": "false"}
	// A block of one object, so that a split's hosts are its object's two copies
	// (expectDataLocalMaps); and the splits keep the hosts the connector reported,
	// where TeraSort's own scheduler would keep only the one it picks for each.
	hc.Spec.Config.CoreSite = map[string]string{"ceph.object.size": strconv.Itoa(localityObjectSize)}
	hc.Spec.Config.MapredSite["mapreduce.terasort.use.terascheduler"] = "false"
	hc.Spec.Access.Clients.RPC = []v1alpha1.NetworkPeer{{PodSelector: &metav1.LabelSelector{MatchLabels: map[string]string{rpcClientLabel: "rpc"}}}}
	return hc
}

// newSpreadCluster is newClusterOn with a NodeManager on every node: their host ports
// keep them one to a node, and each advertises its node's address on the nodes'
// link. The ResourceManager and the JobHistory server stay on the first node, which
// runs the control plane and is never the one the suite takes down.
func newSpreadCluster(name, backend string) *v1alpha1.HadoopCluster {
	GinkgoHelper()
	hc := newClusterOn(name, backend)
	hc.Spec.NodeManagers.Replicas = ptr.To[int32](suiteNodes)
	// A worker's allocatable memory is its share of the host's, 7.75 GiB here
	// (docs/local-cluster.md), and the replicated backend's cluster runs a 4 GiB
	// NodeManager beside this one's on each: 3.5 GiB is the least the operator takes
	// (1 GiB for the JVM, and YARN's room for an ApplicationMaster and a task), and
	// three such NodeManagers together hold more than newClusterOn's one.
	hc.Spec.NodeManagers.Resources = corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("3584Mi")},
		Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("3584Mi")},
	}
	first := v1alpha1.Labels{corev1.LabelHostname: v1alpha1.LabelValue(firstNode().Labels[corev1.LabelHostname])}
	hc.Spec.ResourceManager.PodOverrides.NodeSelector = first
	hc.Spec.JobHistory.PodOverrides.NodeSelector = first
	return hc
}

// workerLabel marks the nodes other than the first (labelWorkers): the suite puts the
// replicated backend's NodeManagers there.
const workerLabel = "e2e.hadoopceph.io/worker"

// labelWorkers labels every node but the first with workerLabel, as a real cluster's
// administrator labels the machines that may run a kind of work.
func labelWorkers(nodes []corev1.Node) {
	GinkgoHelper()
	first := firstNode().Name
	for i := range nodes {
		if nodes[i].Name == first {
			continue
		}
		patch := client.MergeFrom(nodes[i].DeepCopy())
		if nodes[i].Labels == nil {
			nodes[i].Labels = map[string]string{}
		}
		nodes[i].Labels[workerLabel] = "true"
		Expect(k8sClient.Patch(ctx, &nodes[i], patch)).To(Succeed())
	}
}

// firstNode is the node that runs the control plane: the one whose name is the
// host's.
func firstNode() corev1.Node {
	GinkgoHelper()
	host, err := os.Hostname()
	Expect(err).NotTo(HaveOccurred())
	node := corev1.Node{}
	Expect(k8sClient.Get(ctx, client.ObjectKey{Name: strings.ToLower(host)}, &node)).To(Succeed())
	return node
}

// waitForCluster waits until the HadoopCluster is Ready with all its NodeManagers
// running in YARN.
func waitForCluster(name string) {
	GinkgoHelper()
	var replicas int
	Eventually(func(g Gomega) {
		hc := &v1alpha1.HadoopCluster{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, hc)).To(Succeed())
		g.Expect(meta.IsStatusConditionTrue(hc.Status.Conditions, v1alpha1.ConditionReady)).To(BeTrue(), "%+v", hc.Status.Conditions)
		g.Expect(hc.Status.ReadyNodeManagers).To(Equal(*hc.Spec.NodeManagers.Replicas))
		replicas = int(*hc.Spec.NodeManagers.Replicas)
	}).WithTimeout(5 * time.Minute).Should(Succeed())
	Eventually(func(g Gomega) {
		nodes, err := yarnNodes(name)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(nodes).To(HaveLen(replicas))
		g.Expect(nodes).To(HaveEach(HaveField("State", "RUNNING")))
	}).WithTimeout(2 * time.Minute).Should(Succeed())
}
