package hadoop

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

func rackNode(name string, labels map[string]string, addresses ...string) corev1.Node {
	n := corev1.Node{}
	n.Name, n.Labels = name, labels
	for _, a := range addresses {
		n.Status.Addresses = append(n.Status.Addresses, corev1.NodeAddress{Type: corev1.NodeInternalIP, Address: a})
	}
	return n
}

func TestNodeRack(t *testing.T) {
	for _, tc := range []struct {
		name   string
		labels map[string]string
		want   string
	}{
		{"no label", nil, ""},
		{"Rook's rack", map[string]string{"topology.rook.io/rack": "r1"}, "/r1"},
		{"dots as Rook's CRUSH names have them", map[string]string{"topology.rook.io/rack": "rack.a"}, "/rack-a"},
		{"the zone without a rack", map[string]string{corev1.LabelTopologyZone: "eu-west-1a"}, "/eu-west-1a"},
		{"the rack before the zone", map[string]string{corev1.LabelTopologyZone: "z1", "topology.rook.io/rack": "r2"}, "/r2"},
		{"an empty rack label", map[string]string{"topology.rook.io/rack": ""}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := rackNode("n", tc.labels)
			if got := NodeRack(&n); got != tc.want {
				t.Errorf("NodeRack = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestRackTable lists three nodes, two of them in one rack and one without a rack: the
// nodes with pods of the cluster under every name a NodeManager may register with, the
// others under their CRUSH host names only.
func TestRackTable(t *testing.T) {
	rack := func(r string) map[string]string {
		return map[string]string{"topology.rook.io/rack": r, corev1.LabelHostname: ""}
	}
	nodes := []corev1.Node{
		rackNode("n3.hco.test", map[string]string{"topology.rook.io/rack": "rack.b", corev1.LabelHostname: "n3"}, "10.118.2.2"),
		rackNode("n1.hco.test", rack("rack.a"), "10.118.0.1"),
		rackNode("n2.hco.test", rack("rack.a"), "10.118.1.2"),
		rackNode("plain", nil, "10.118.3.2"),
	}
	pod := func(name, node, ip string) corev1.Pod {
		p := corev1.Pod{}
		p.Name, p.Spec.NodeName, p.Status.PodIP = name, node, ip
		return p
	}
	pods := []corev1.Pod{
		pod("hc-nodemanager-0", "n1.hco.test", "10.244.0.7"),
		pod("hc-nodemanager-1", "n3.hco.test", ""),
		pod("hc-nodemanager-2", "plain", "10.244.3.4"),
		pod("hc-nodemanager-3", "", ""),
	}
	hosts := []v1alpha1.NodeManagerHost{
		{Pod: "hc-nodemanager-0", NodeName: "n1.hco.test", YARNHost: "HC-NodeManager-0.hc-nodemanager.ns.svc.cluster.local"},
		{Pod: "hc-nodemanager-2", NodeName: "plain", YARNHost: "10.244.3.4"},
	}
	got := RackTable(nodes, pods, hosts)
	var lines []string
	for _, l := range strings.Split(got, "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	want := []string{
		"10.118.0.1 /rack-a",
		"10.118.2.2 /rack-b",
		"10.244.0.7 /rack-a",
		"hc-nodemanager-0 /rack-a",
		"hc-nodemanager-0.hc-nodemanager.ns.svc.cluster.local /rack-a",
		"hc-nodemanager-1 /rack-b",
		"n1.hco.test /rack-a",
		"n2.hco.test /rack-a",
		"n3 /rack-b",
		"n3.hco.test /rack-b",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if !strings.HasPrefix(got, "# Rendered by hadoop-ceph-operator") || !strings.HasSuffix(got, "\n") {
		t.Errorf("no header or no final newline:\n%s", got)
	}
	// n2 runs no pod of the cluster: its address is not listed, its CRUSH name is.
	if strings.Contains(got, "10.118.1.2") {
		t.Errorf("a node without the cluster's pods is listed under its address:\n%s", got)
	}
}

// TestCoreSiteRackMapping: the operator's mapping unless the user brings one.
func TestCoreSiteRackMapping(t *testing.T) {
	testInput := func(t *testing.T) Input {
		return Input{Cluster: loadCluster(t, goldenCases[0].name), Storage: goldenCases[0].storage, Defaults: goldenCases[0].defaults}
	}
	in := testInput(t)
	site := CoreSite(in)
	if site[keySwitchMapping] != RackMappingClass || site[KeyRacksFile] != TopologyDir+"/"+FileRacks ||
		site[KeyRacksConfigMap] != in.Cluster.Namespace+"/"+TopologyConfigMapName(in.Cluster) {
		t.Errorf("core-site without the rack mapping: %v", site)
	}
	for _, k := range userTopologyKeys {
		in := testInput(t)
		in.Cluster.Spec.Config.CoreSite = map[string]string{k: "/etc/hadoop/topology.sh"}
		site := CoreSite(in)
		if _, set := site[KeyRacksConfigMap]; set {
			t.Errorf("with %s set by the user, the operator still sets %s", k, KeyRacksConfigMap)
		}
		if site[k] != "/etc/hadoop/topology.sh" {
			t.Errorf("the user's %s was lost: %v", k, site)
		}
	}
}
