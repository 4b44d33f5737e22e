package hadoop

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// YARN fixes a NodeManager's rack when it registers, through the mapping that
// net.topology.node.switch.mapping.impl names; MapReduce's ApplicationMasters resolve
// the hosts of every split through the same mapping to ask for rack-local containers.
// The connector's mapping (RackMappingClass) reads a table from the topology
// ConfigMap: the ResourceManager through the API (a NodeManager registers seconds
// after its pod is scheduled, long before the kubelet updates a mounted ConfigMap),
// every other Hadoop process from the mounted file.
//
// A node's rack is the label Rook builds the CRUSH bucket above its host from, so that
// CRUSH and YARN read one truth: topology.rook.io/rack, else the node's zone. Rook
// replaces dots with dashes in CRUSH names, and so does the rack here.

// FileRacks is the topology ConfigMap's rack table: a line per host name or address,
// "<key> <rack>".
const FileRacks = "racks"

// RackMappingClass is the connector's DNSToSwitchMapping.
const RackMappingClass = "io.hadoopceph.fs.KubernetesRackMapping"

// Keys of the rack mapping.
const (
	keySwitchMapping = "net.topology.node.switch.mapping.impl"
	// KeyRacksFile is the table's path in every Hadoop pod (TopologyDir).
	KeyRacksFile = "fs.ceph.topology.racks.file"
	// KeyRacksConfigMap names the ConfigMap, "<namespace>/<name>", that the
	// ResourceManager reads the table from through the API.
	KeyRacksConfigMap = "fs.ceph.topology.racks.configmap"
)

// userTopologyKeys are core-site.xml keys with which a user brings a topology mapping
// of their own (Hadoop's script or table mapping): the operator's then stays out.
var userTopologyKeys = []string{keySwitchMapping, "net.topology.script.file.name", "net.topology.table.file.name"}

// rackMapping is whether the cluster's processes use RackMappingClass: on CephFS,
// unless the user brought a mapping. An HDFS backend's block locations name DataNodes,
// which no node label places.
func (in Input) rackMapping() bool {
	return in.Storage.cephFS() && !slices.ContainsFunc(userTopologyKeys, func(k string) bool {
		_, set := in.Cluster.Spec.Config.CoreSite[k]
		return set
	})
}

// RackLabels are the node labels a rack is read from, in order: the first present wins.
var RackLabels = []string{"topology.rook.io/rack", corev1.LabelTopologyZone}

// NodeRack is the YARN rack of node, "/<rack>", or "" when it has no rack label.
func NodeRack(node *corev1.Node) string {
	for _, l := range RackLabels {
		if v := node.Labels[l]; v != "" {
			return "/" + strings.ReplaceAll(v, ".", "-")
		}
	}
	return ""
}

// RackTable renders FileRacks. Every node with a rack is listed under the names Ceph
// may give its CRUSH host (CRUSHHostNames), which split locations name. A node that
// runs pods of the cluster is also listed under its addresses and under every name its
// NodeManagers may register with: their pods' names (the first label of a pod's DNS
// name), their addresses, and the YARN hosts learnt from them. Keys are sorted and
// each listed once; a key two nodes claim keeps the rack of the first by name.
func RackTable(nodes []corev1.Node, pods []corev1.Pod, hosts []v1alpha1.NodeManagerHost) string {
	nodes = slices.Clone(nodes)
	slices.SortFunc(nodes, func(a, b corev1.Node) int { return cmp.Compare(a.Name, b.Name) })
	local := map[string][]string{}
	for _, p := range pods {
		if p.Spec.NodeName != "" {
			local[p.Spec.NodeName] = append(local[p.Spec.NodeName], p.Name, p.Status.PodIP)
		}
	}
	for _, h := range hosts {
		local[h.NodeName] = append(local[h.NodeName], h.YARNHost)
	}
	rack := map[string]string{}
	for i := range nodes {
		n := &nodes[i]
		r := NodeRack(n)
		if r == "" {
			continue
		}
		keys := CRUSHHostNames(n)
		if extra, ok := local[n.Name]; ok {
			for _, a := range n.Status.Addresses {
				keys = append(keys, a.Address)
			}
			keys = append(keys, extra...)
		}
		for _, k := range keys {
			k = strings.ToLower(k)
			if _, taken := rack[k]; !taken && k != "" {
				rack[k] = r
			}
		}
	}
	var b strings.Builder
	b.WriteString(`# Rendered by hadoop-ceph-operator: the YARN rack of each name or address a
# NodeManager may register with or a block location may name, from the nodes'
# ` + strings.Join(RackLabels, " or ") + ` labels (` + KeyRacksFile + `).
# Changes to this file are overwritten.
`)
	for _, k := range slices.Sorted(maps.Keys(rack)) {
		b.WriteString(k + " " + rack[k] + "\n")
	}
	return b.String()
}
