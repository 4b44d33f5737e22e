//go:build e2e

package e2e

import (
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// hack/rook/up.sh puts the local nodes in two racks (topology.rook.io/rack rack.a and
// rack.b) before Rook builds CRUSH, and the operator gives YARN the same racks.

// crushRacks maps every CRUSH host of the local Rook to its rack, "/<rack>" as YARN
// writes racks; a host under no rack maps to /default-rack.
func crushRacks() map[string]string {
	GinkgoHelper()
	tree := crushTree()
	name := map[int]string{}
	for _, n := range tree {
		name[n.ID] = n.Name
	}
	racks := map[string]string{}
	for _, n := range tree {
		if n.Type == "host" {
			if _, placed := racks[n.Name]; !placed {
				racks[n.Name] = "/default-rack"
			}
		}
		if n.Type == "rack" {
			for _, child := range n.Children {
				racks[name[child]] = "/" + n.Name
			}
		}
	}
	return racks
}

// expectRacks checks that CRUSH and YARN agree on the rack of every node that runs one
// of the cluster's NodeManagers: YARN's rack for the NodeManager (fixed when it
// registered) is the node's rack label as the operator reads it, and that is the CRUSH
// rack of the node's host; and that the nodes are not all in one rack.
func expectRacks(hc *v1alpha1.HadoopCluster) {
	GinkgoHelper()
	crush := crushRacks()
	GinkgoWriter.Printf("CRUSH racks: %v\n", crush)
	Eventually(func(g Gomega) {
		current := &v1alpha1.HadoopCluster{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(hc), current)).To(Succeed())
		g.Expect(current.Status.NodeManagerHosts).NotTo(BeEmpty())
		rackOf := map[string]string{}
		for _, n := range clusterNodes(g, hc) {
			rackOf[strings.Split(n.ID, ":")[0]] = n.Rack
		}
		seen := map[string]bool{}
		for _, h := range current.Status.NodeManagerHosts {
			node := &corev1.Node{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Name: h.NodeName}, node)).To(Succeed())
			want := hadoop.NodeRack(node)
			g.Expect(want).NotTo(BeEmpty(), "node %s has a rack label", node.Name)
			g.Expect(rackOf).To(HaveKeyWithValue(h.YARNHost, want), "YARN's rack of %s (node %s)", h.YARNHost, node.Name)
			g.Expect(crush).To(HaveKeyWithValue(crushHostOf(*node), want), "the CRUSH rack of node %s", node.Name)
			GinkgoWriter.Printf("%s on %s: rack %s in YARN and CRUSH\n", h.YARNHost, node.Name, want)
			seen[want] = true
		}
		if len(current.Status.NodeManagerHosts) == suiteNodes {
			g.Expect(seen).To(HaveLen(2), "the NodeManagers on every node span both racks")
		}
	}).WithTimeout(2 * time.Minute).WithPolling(2 * time.Second).Should(Succeed())
}
