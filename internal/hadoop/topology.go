package hadoop

import (
	"cmp"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// The connector names the OSDs' CRUSH hosts in block locations, which under Rook are
// the Kubernetes nodes' names, while a NodeManager registers with YARN under its pod's
// name or its data interface's address; YARN matches a split's hosts to its nodes'
// names exactly. The topology ConfigMap tells the connector, in every Hadoop pod,
// which YARN hosts run on each node (KeyLocalityHostsFile).
//
// It is not part of the configuration hash, like the exclude file: NodeManagers come
// and go, and a change must not roll the pods. It is mounted as a directory, which the
// kubelet updates in place, and optional, so that a pod may start before it exists.

// FileTopologyHosts is the topology ConfigMap's one file: a line per node,
// "<node> <yarn host> [<yarn host>...]".
const FileTopologyHosts = "hosts"

const volumeTopology = "topology"

// TopologyConfigMap holds FileTopologyHosts of the NodeManagers in hosts.
func TopologyConfigMap(hc *v1alpha1.HadoopCluster, hosts []v1alpha1.NodeManagerHost) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      TopologyConfigMapName(hc),
			Namespace: hc.Namespace,
			Labels:    clusterLabels(hc),
		},
		Data: map[string]string{FileTopologyHosts: TopologyHosts(hosts)},
	}
}

// TopologyHosts renders FileTopologyHosts: the nodes in name order, each with its
// NodeManagers' YARN hosts, sorted and each once, so that the same NodeManagers always
// give the same file.
func TopologyHosts(hosts []v1alpha1.NodeManagerHost) string {
	sorted := slices.Clone(hosts)
	slices.SortFunc(sorted, func(a, b v1alpha1.NodeManagerHost) int {
		return cmp.Or(strings.Compare(a.NodeName, b.NodeName), strings.Compare(a.YARNHost, b.YARNHost))
	})
	var b strings.Builder
	b.WriteString(`# Rendered by hadoop-ceph-operator: the hosts YARN knows the NodeManagers on each
# Kubernetes node by, which the connector lists in block locations before the node
# (` + KeyLocalityHostsFile + `). Changes to this file are overwritten.
`)
	for i, h := range sorted {
		switch {
		case i > 0 && h.NodeName == sorted[i-1].NodeName && h.YARNHost == sorted[i-1].YARNHost:
			continue
		case i > 0 && h.NodeName == sorted[i-1].NodeName:
			b.WriteString(" " + h.YARNHost)
			continue
		case i > 0:
			b.WriteString("\n")
		}
		b.WriteString(h.NodeName + " " + h.YARNHost)
	}
	if len(sorted) > 0 {
		b.WriteString("\n")
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
