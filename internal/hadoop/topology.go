package hadoop

import (
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// The connector names the OSDs' CRUSH hosts in block locations, while a NodeManager
// registers with YARN under its pod's name or its data interface's address; YARN
// matches a split's hosts to its nodes' names exactly. The topology ConfigMap tells the
// connector, in every Hadoop pod, which YARN hosts run on each node
// (KeyLocalityHostsFile), under every name Ceph may know the node by (CRUSHHostNames).
//
// It is not part of the configuration hash, like the exclude file: NodeManagers come
// and go, and a change must not roll the pods. It is mounted as a directory, which the
// kubelet updates in place, and optional, so that a pod may start before it exists.

// FileTopologyHosts is the topology ConfigMap's one file: a line per CRUSH host name,
// "<crush host> <yarn host> [<yarn host>...]".
const FileTopologyHosts = "hosts"

const volumeTopology = "topology"

// CRUSHHostNames are the names a Ceph cluster may give a node's OSDs' CRUSH host: the
// node's name; its kubernetes.io/hostname label, which Rook uses, with dots replaced
// by dashes as Rook's CRUSH names have them; and the label as it is, the host name an
// OSD outside Rook registers under. Each once, the node's name first: on clouds the
// name is often a dotted FQDN and the label may differ from it.
func CRUSHHostNames(node *corev1.Node) []string {
	names := []string{node.Name}
	if label := node.Labels[corev1.LabelHostname]; label != "" {
		for _, n := range []string{strings.ReplaceAll(label, ".", "-"), label} {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	return names
}

// TopologyConfigMap holds FileTopologyHosts of the NodeManagers in hosts, where names
// gives the CRUSH host names of each node (CRUSHHostNames) and a node not in it is
// known by its own name, and the rack table (RackTable).
func TopologyConfigMap(hc *v1alpha1.HadoopCluster, hosts []v1alpha1.NodeManagerHost, names map[string][]string, racks string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      TopologyConfigMapName(hc),
			Namespace: hc.Namespace,
			Labels:    clusterLabels(hc),
		},
		Data: map[string]string{FileTopologyHosts: TopologyHosts(hosts, names), FileRacks: racks},
	}
}

// TopologyHosts renders FileTopologyHosts: the CRUSH host names in order, each with
// the YARN hosts of its node's NodeManagers, sorted and each once, so that the same
// NodeManagers always give the same file.
func TopologyHosts(hosts []v1alpha1.NodeManagerHost, names map[string][]string) string {
	yarnHosts := map[string][]string{}
	for _, h := range hosts {
		keys := names[h.NodeName]
		if len(keys) == 0 {
			keys = []string{h.NodeName}
		}
		for _, k := range keys {
			if !slices.Contains(yarnHosts[k], h.YARNHost) {
				yarnHosts[k] = append(yarnHosts[k], h.YARNHost)
			}
		}
	}
	var b strings.Builder
	b.WriteString(`# Rendered by hadoop-ceph-operator: the hosts YARN knows the NodeManagers on each
# Kubernetes node by, under each name Ceph may give the node's CRUSH host, which the
# connector lists in block locations before the node (` + KeyLocalityHostsFile + `).
# Changes to this file are overwritten.
`)
	for _, k := range slices.Sorted(maps.Keys(yarnHosts)) {
		slices.Sort(yarnHosts[k])
		b.WriteString(k + " " + strings.Join(yarnHosts[k], " ") + "\n")
	}
	return b.String()
}

func topologyVolume(hc *v1alpha1.HadoopCluster) corev1.Volume {
	return corev1.Volume{Name: volumeTopology, VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
		LocalObjectReference: corev1.LocalObjectReference{Name: TopologyConfigMapName(hc)},
		Optional:             ptr.To(true),
	}}}
}

func topologyMount() corev1.VolumeMount {
	return corev1.VolumeMount{Name: volumeTopology, MountPath: TopologyDir, ReadOnly: true}
}
