package hadoop

import (
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/golden"
)

// TestTopologyConfigMap renders the map of a cluster whose NodeManagers run on the pod
// network, two of them on one node, and one on a data interface, listed as status
// might hold them: in no particular order.
func TestTopologyConfigMap(t *testing.T) {
	hc := loadCluster(t, "replicated")
	hosts := []v1alpha1.NodeManagerHost{
		{Pod: "analytics-nodemanager-2", UID: "c3", NodeName: "worker-b", YARNHost: "analytics-nodemanager-2.analytics-nodemanager.data.svc.cluster.local"},
		{Pod: "analytics-nodemanager-1", UID: "b2", NodeName: "worker-a", YARNHost: "analytics-nodemanager-1.analytics-nodemanager.data.svc.cluster.local"},
		{Pod: "analytics-nodemanager-0", UID: "a1", NodeName: "worker-a", YARNHost: "analytics-nodemanager-0.analytics-nodemanager.data.svc.cluster.local"},
		{Pod: "analytics-nodemanager-3", UID: "d4", NodeName: "worker-c", YARNHost: "10.20.0.13"},
	}
	names := map[string][]string{"worker-a": {"worker-a"}, "worker-c": {"worker-c.example.com", "worker-c"}}
	golden.Assert(t, "topology/configmap-analytics-topology.yaml", golden.YAML(t, TopologyConfigMap(hc, hosts, names, RackTable(nil, nil, nil))))
}

// Rook names a CRUSH host after the node's host name label, dots replaced by dashes;
// a Ceph outside Rook uses the host's name, which is the label.
func TestCRUSHHostNames(t *testing.T) {
	node := func(name, label string) *corev1.Node {
		n := &corev1.Node{}
		n.Name = name
		if label != "" {
			n.Labels = map[string]string{corev1.LabelHostname: label}
		}
		return n
	}
	for _, tc := range []struct {
		name string
		node *corev1.Node
		want []string
	}{
		{"a short name, its label the same", node("worker-a", "worker-a"), []string{"worker-a"}},
		{"no label", node("worker-a", ""), []string{"worker-a"}},
		{"an FQDN, its label the same", node("ip-10-0-1-2.ec2.internal", "ip-10-0-1-2.ec2.internal"), []string{"ip-10-0-1-2.ec2.internal", "ip-10-0-1-2-ec2-internal"}},
		{"a label that differs from the name", node("n3.hco.test", "n3"), []string{"n3.hco.test", "n3"}},
		{"a dotted label that differs", node("node-7", "node-7.rack2.example.com"), []string{"node-7", "node-7-rack2-example-com", "node-7.rack2.example.com"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := CRUSHHostNames(tc.node); !slices.Equal(got, tc.want) {
				t.Errorf("CRUSHHostNames = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestTopologyHosts(t *testing.T) {
	const header = "# Rendered by hadoop-ceph-operator"
	for _, tc := range []struct {
		name  string
		hosts []v1alpha1.NodeManagerHost
		names map[string][]string
		lines []string
	}{
		{name: "no NodeManager", lines: nil},
		{
			name:  "one",
			hosts: []v1alpha1.NodeManagerHost{{Pod: "nm-0", UID: "a", NodeName: "node-a", YARNHost: "nm-0.nm"}},
			lines: []string{"node-a nm-0.nm"},
		},
		{
			name: "nodes and hosts sorted",
			hosts: []v1alpha1.NodeManagerHost{
				{Pod: "nm-2", UID: "c", NodeName: "node-b", YARNHost: "nm-2.nm"},
				{Pod: "nm-1", UID: "b", NodeName: "node-a", YARNHost: "nm-1.nm"},
				{Pod: "nm-0", UID: "a", NodeName: "node-a", YARNHost: "nm-0.nm"},
			},
			lines: []string{"node-a nm-0.nm nm-1.nm", "node-b nm-2.nm"},
		},
		{
			// A pod that is stopping and its replacement, on one node under one name.
			name: "a host once per node",
			hosts: []v1alpha1.NodeManagerHost{
				{Pod: "nm-0", UID: "old", NodeName: "node-a", YARNHost: "10.0.0.7"},
				{Pod: "nm-0", UID: "new", NodeName: "node-a", YARNHost: "10.0.0.7"},
				{Pod: "nm-1", UID: "b", NodeName: "node-b", YARNHost: "10.0.0.7"},
			},
			lines: []string{"node-a 10.0.0.7", "node-b 10.0.0.7"},
		},
		{
			// Rook's CRUSH host of an FQDN-named node, and a node whose label differs.
			name: "every CRUSH name of a node",
			hosts: []v1alpha1.NodeManagerHost{
				{Pod: "nm-0", UID: "a", NodeName: "n2.hco.test", YARNHost: "10.118.1.2"},
				{Pod: "nm-1", UID: "b", NodeName: "n3.hco.test", YARNHost: "10.118.2.2"},
			},
			names: map[string][]string{"n2.hco.test": {"n2.hco.test", "n2-hco-test"}, "n3.hco.test": {"n3.hco.test", "n3"}},
			lines: []string{"n2-hco-test 10.118.1.2", "n2.hco.test 10.118.1.2", "n3 10.118.2.2", "n3.hco.test 10.118.2.2"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := TopologyHosts(tc.hosts, tc.names)
			if !strings.HasPrefix(got, header) {
				t.Errorf("no header:\n%s", got)
			}
			var lines []string
			for _, l := range strings.Split(got, "\n") {
				if l != "" && !strings.HasPrefix(l, "#") {
					lines = append(lines, l)
				}
			}
			if strings.Join(lines, "\n") != strings.Join(tc.lines, "\n") {
				t.Errorf("lines %q, want %q", lines, tc.lines)
			}
			if !strings.HasSuffix(got, "\n") {
				t.Errorf("the file does not end in a newline:\n%s", got)
			}
		})
	}
}

// Every container that runs Hadoop's code, the stage clients' included, finds the file
// core-site.xml names, in a directory mount that follows the ConfigMap's updates and
// does not keep a pod from starting before the ConfigMap exists.
func TestEveryHadoopContainerMountsTheTopology(t *testing.T) {
	for _, tc := range goldenCases {
		if !tc.storage.cephFS() {
			continue // The hosts file is the CephFS connector's; HDFS has its own locality.
		}
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Cluster: loadCluster(t, tc.name), Storage: tc.storage, Defaults: tc.defaults}
			objs := build(t, in)
			if got := CoreSite(in)[KeyLocalityHostsFile]; got != TopologyDir+"/"+FileTopologyHosts {
				t.Errorf("core-site.xml names %q as %s", got, KeyLocalityHostsFile)
			}
			templates := map[string]corev1.PodTemplateSpec{
				"client": ClientPodTemplateSpec(in, objs.ConfigHash, ClientContainer{Command: "/bin/true"}),
			}
			for _, sts := range []*appsv1.StatefulSet{objs.ResourceManager, objs.NodeManagers, objs.JobHistory} {
				if sts != nil {
					templates[sts.Name] = sts.Spec.Template
				}
			}
			for name, pod := range templates {
				var volume *corev1.Volume
				for i, v := range pod.Spec.Volumes {
					if v.Name == volumeTopology {
						volume = &pod.Spec.Volumes[i]
					}
				}
				if volume == nil || volume.ConfigMap == nil || volume.ConfigMap.Name != TopologyConfigMapName(in.Cluster) ||
					volume.ConfigMap.Optional == nil || !*volume.ConfigMap.Optional {
					t.Errorf("%s: volume %s is %+v, want the optional ConfigMap %s", name, volumeTopology, volume, TopologyConfigMapName(in.Cluster))
				}
				for _, c := range append(pod.Spec.InitContainers, pod.Spec.Containers...) {
					found := false
					for _, m := range c.VolumeMounts {
						if m.Name == volumeTopology {
							found = m.MountPath == TopologyDir && m.SubPath == "" && m.ReadOnly
						}
					}
					if !found {
						t.Errorf("%s: container %s does not mount %s read-only at %s", name, c.Name, volumeTopology, TopologyDir)
					}
				}
			}
		})
	}
}

// A user may turn the mapping off, to measure what it brings; the connector reads an
// empty value as no file.
func TestLocalityHostsFileCanBeTurnedOff(t *testing.T) {
	in := replicatedInput(t)
	in.Cluster.Spec.Config.CoreSite = map[string]string{KeyLocalityHostsFile: ""}
	if errs := Validate(in); len(errs) > 0 {
		t.Fatalf("Validate: %v", errs)
	}
	xml := ConfigurationXML(CoreSite(in))
	if want := "<name>" + KeyLocalityHostsFile + "</name>\n    <value></value>"; !strings.Contains(xml, want) {
		t.Errorf("core-site.xml lacks %q:\n%s", want, xml)
	}
}
