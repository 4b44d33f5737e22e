//go:build e2e

package e2e

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/jobhistory"
)

// localityObjectSize is the object size, and so the block size, of the files the
// replicated backend's cluster writes (newReplicatedCluster's ceph.object.size). A
// block is then one RADOS object, whose two copies are on two of the three hosts: a
// block's hosts are a real choice, which blocks of many objects spread over every
// host would not be. The suite's TeraGen writes two files of 25 MB, so TeraSort reads
// four splits.
const localityObjectSize = 16 << 20

// expectDataLocalMaps checks the run's TeraSort map by map, from the job's history
// file, which the ApplicationMaster leaves on CephFS:
//   - the hosts the connector reported for the splits are, split for split, where
//     Ceph put the input's objects (`ceph osd map` of every object of every input
//     file, against the CRUSH hosts each split names);
//   - every attempt YARN calls NODE_LOCAL ran on a NodeManager whose node is one of
//     its split's CRUSH hosts, so it read a copy on its own node;
//   - every attempt ran in the rack YARN gives its node, which is the node's rack
//     label (expectRacks checks it against CRUSH);
//   - every attempt YARN calls RACK_LOCAL ran on a node that holds no copy of its
//     split, in a rack that holds one, and every OFF_SWITCH attempt in a rack that
//     holds none;
//   - the NODE_LOCAL and RACK_LOCAL attempts are as many as the job's DATA_LOCAL_MAPS
//     and RACK_LOCAL_MAPS counters, and there is at least one NODE_LOCAL.
func expectDataLocalMaps(hc *v1alpha1.HadoopCluster, fsName, pool string, run *v1alpha1.BenchmarkRun) {
	GinkgoHelper()
	attempts := teraSortMapAttempts(hc, fsName)
	Expect(attempts).NotTo(BeEmpty())

	By("finding each input object's hosts in Ceph")
	hostOf := osdHosts()
	crushHosts := map[string]bool{}
	for _, h := range hostOf {
		crushHosts[h] = true
	}
	input := path.Join(hadoopRoot, benchmark.WorkDir(run), "r1", "teragen")
	var placed []string
	for _, name := range strings.Fields(mustRun(rookFsadmin(fsName, "ls", input))) {
		if !strings.HasPrefix(name, "part-") {
			continue
		}
		fields := strings.Fields(mustRun(rookFsadmin(fsName, "stat", path.Join(input, name))))
		Expect(fields).To(HaveLen(2))
		size, err := strconv.ParseInt(fields[1], 10, 64)
		Expect(err).NotTo(HaveOccurred())
		for n := int64(0); n*localityObjectSize < size; n++ {
			var mapped struct {
				Acting []int `json:"acting"`
			}
			rookCephJSON(&mapped, "osd", "map", pool, fmt.Sprintf("%s.%08x", fields[0], n))
			var hosts []string
			for _, osd := range mapped.Acting {
				Expect(hostOf).To(HaveKey(osd))
				hosts = append(hosts, hostOf[osd])
			}
			placed = append(placed, hostSet(hosts))
		}
	}

	By("matching every split's reported hosts with Ceph's, and every attempt's locality with its node and rack")
	nodeOfHost := nodeManagerNodes(hc)
	rackOf := crushRacks()
	reported := map[string]string{}
	dataLocal, rackLocal, offRack := 0, 0, 0
	for _, a := range attempts {
		var crush []string
		for _, h := range a.SplitLocations {
			if crushHosts[h] {
				crush = append(crush, h)
			}
		}
		reported[a.Task] = hostSet(crush)
		var splitRacks []string
		for _, h := range crush {
			splitRacks = append(splitRacks, rackOf[h])
		}
		node := nodeOfHost(a.Host)
		GinkgoWriter.Printf("%s %s: split on %v (CRUSH %s, racks %s), ran on %s (node %s, CRUSH %s, rack %s): %s\n",
			a.Attempt, a.Status, a.SplitLocations, reported[a.Task], hostSet(splitRacks), a.Host, node.Name, crushHostOf(node), a.Rack, a.Locality)
		if a.Status != "SUCCEEDED" {
			continue
		}
		Expect(a.Rack).To(Equal(hadoop.NodeRack(&node)), "%s ran in the rack of node %s", a.Attempt, node.Name)
		switch a.Locality {
		case "NODE_LOCAL":
			dataLocal++
			Expect(a.SplitLocations).To(ContainElement(a.Host), "YARN matched the attempt's host with its split's")
			Expect(crush).To(ContainElement(crushHostOf(node)), "%s ran on %s, which holds a copy of its split", a.Attempt, node.Name)
		case "RACK_LOCAL":
			rackLocal++
			Expect(crush).NotTo(ContainElement(crushHostOf(node)), "%s is rack-local, so %s holds no copy of its split", a.Attempt, node.Name)
			Expect(splitRacks).To(ContainElement(a.Rack), "%s ran in a rack that holds a copy of its split", a.Attempt)
		case "OFF_SWITCH":
			offRack++
			Expect(splitRacks).NotTo(ContainElement(a.Rack), "%s is off-rack, so its rack holds no copy of its split", a.Attempt)
		}
	}
	var splits []string
	for _, s := range reported {
		splits = append(splits, s)
	}
	Expect(splits).To(ConsistOf(placed), "the connector reported Ceph's placement of the input's objects, one split an object")

	counters := teraSortCounters(run)
	Expect(dataLocal).To(BeNumerically(">", 0), "data-local maps")
	Expect(int64(dataLocal)).To(Equal(counters.DataLocalMaps), "NODE_LOCAL attempts against DATA_LOCAL_MAPS")
	Expect(int64(rackLocal)).To(Equal(counters.RackLocalMaps), "RACK_LOCAL attempts against RACK_LOCAL_MAPS")
	AddReportEntry("data-local, rack-local and off-rack maps of a TeraSort over 16 MiB objects with two copies on three hosts in two racks",
		fmt.Sprintf("%d, %d and %d of %d", dataLocal, rackLocal, offRack, len(reported)))
}

// teraSortMapAttempts reads the map attempts of the cluster's one TeraSort job from its
// history file in the intermediate done directory, where it stays while no JobHistory
// server moves it.
func teraSortMapAttempts(hc *v1alpha1.HadoopCluster, fsName string) []jobhistory.MapAttempt {
	GinkgoHelper()
	dir := path.Join(hadoopRoot, hadoop.HistoryIntermediateDir(hc))
	var files []string
	for _, user := range strings.Fields(mustRun(rookFsadmin(fsName, "ls", dir))) {
		for _, name := range strings.Fields(mustRun(rookFsadmin(fsName, "ls", path.Join(dir, user)))) {
			if strings.Contains(name, "-TeraSort-") && strings.HasSuffix(name, ".jhist") {
				files = append(files, path.Join(dir, user, name))
			}
		}
	}
	Expect(files).To(HaveLen(1), "one TeraSort's history in %s", dir)
	attempts, err := jobhistory.MapAttempts(strings.NewReader(mustRun(rookFsadmin(fsName, "cat", files[0]))))
	Expect(err).NotTo(HaveOccurred(), files[0])
	return attempts
}

// crushBucket is a bucket or an OSD of the local Rook's CRUSH tree.
type crushBucket struct {
	ID       int    `json:"id"`
	Type     string `json:"type"`
	Name     string `json:"name"`
	Children []int  `json:"children"`
}

// crushTree is the local Rook's CRUSH tree, as `ceph osd tree` lists it.
func crushTree() []crushBucket {
	GinkgoHelper()
	var tree struct {
		Nodes []crushBucket `json:"nodes"`
	}
	rookCephJSON(&tree, "osd", "tree")
	return tree.Nodes
}

// osdHosts is the CRUSH host of every OSD of the local Rook.
func osdHosts() map[int]string {
	GinkgoHelper()
	hosts := map[int]string{}
	for _, n := range crushTree() {
		if n.Type == "host" {
			for _, osd := range n.Children {
				hosts[osd] = n.Name
			}
		}
	}
	return hosts
}

// nodeManagerNodes maps a host YARN names one of the cluster's NodeManagers by to the
// node its pod runs on. On the pod network that host is the pod's name in the cluster's
// headless Service, or its address.
func nodeManagerNodes(hc *v1alpha1.HadoopCluster) func(host string) corev1.Node {
	GinkgoHelper()
	pods := &corev1.PodList{}
	Expect(k8sClient.List(ctx, pods, client.InNamespace(namespace), client.MatchingLabels(hadoop.SelectorLabels(hc, hadoop.NodeManager)))).To(Succeed())
	return func(host string) corev1.Node {
		GinkgoHelper()
		i := slices.IndexFunc(pods.Items, func(p corev1.Pod) bool {
			return host == p.Name || strings.HasPrefix(host, p.Name+".") || host == p.Status.PodIP
		})
		Expect(i).NotTo(BeNumerically("<", 0), "no NodeManager pod of %s is YARN's host %s", hc.Name, host)
		node := corev1.Node{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Name: pods.Items[i].Spec.NodeName}, &node)).To(Succeed())
		return node
	}
}

// crushHostOf is the CRUSH host Rook names after a node: its kubernetes.io/hostname
// label with dots as dashes.
func crushHostOf(n corev1.Node) string {
	return strings.ReplaceAll(n.Labels[corev1.LabelHostname], ".", "-")
}

// teraSortCounters are the counters of the run's TeraSort stage.
func teraSortCounters(run *v1alpha1.BenchmarkRun) *v1alpha1.JobCounters {
	GinkgoHelper()
	for _, s := range run.Status.Stages {
		if s.Stage == v1alpha1.StageTeraSort {
			Expect(s.Counters).NotTo(BeNil())
			return s.Counters
		}
	}
	Fail("the run has no TeraSort stage")
	return nil
}

// hostSet is a set of hosts in one comparable form.
func hostSet(hosts []string) string {
	s := slices.Clone(hosts)
	slices.Sort(s)
	return strings.Join(slices.Compact(s), ",")
}
