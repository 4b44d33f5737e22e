// Package hadoop turns a HadoopCluster and its resolved storage into the Kubernetes
// objects of a YARN cluster on CephFS: the Hadoop configuration files, a ConfigMap
// holding them, StatefulSets and Services for the ResourceManager, the NodeManagers and
// the JobHistory server, a PodDisruptionBudget and a ServiceAccount. Everything here is
// pure: the same input always gives the same objects, byte for byte, so a hash of the
// configuration only changes when the configuration does.
package hadoop

import (
	networkingv1 "k8s.io/api/networking/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// Input is everything the builders read.
type Input struct {
	Cluster  *v1alpha1.HadoopCluster
	Storage  Storage
	Defaults Defaults
	// Decommission is the scale-down in progress; nil when none is.
	Decommission *Decommission
	// AttachmentResources are the devices the NetworkAttachmentDefinitions the pods
	// join name, as status.network.attachmentResources records them: a pod requests
	// one for each attachment of its own that is listed here (attachmentDevices).
	AttachmentResources []v1alpha1.AttachmentResource
}

// Storage is what a HadoopCluster takes from its Ready StorageBackend. The monitors
// and the key are not here: pods read them from the client config Secret, whose
// ceph.conf the kubelet keeps current.
type Storage struct {
	// Filesystem is the Ceph file system name.
	Filesystem string
	// RootPath is Hadoop's root directory inside the file system.
	RootPath string
	// ClientID is the cephx id, without "client.".
	ClientID string
	// ClientConfigSecret names the Secret (in the cluster's namespace) with ceph.conf
	// and the keyring.
	ClientConfigSecret string
	// ClientConfigHash changes whenever that Secret's content does.
	ClientConfigHash string
	// EvictionSecret names the Secret with the evictor's config, and EvictionClientID
	// its cephx id; both empty when the backend has no evictor.
	EvictionSecret, EvictionClientID string
	// RookNamespace is where the Rook cluster's OSD pods run; empty for an external
	// Ceph cluster.
	RookNamespace string
	// HandOverRoot says that the operator made Hadoop's root through Rook, where Ceph
	// creates it owned by root with mode 0755. The ResourceManager then makes the
	// Hadoop user its owner before it starts. An external backend's root is the Ceph
	// administrator's to hand over and is never changed.
	HandOverRoot bool
	// PublicNetwork is the Multus network Rook uses for Ceph's public traffic, with its
	// namespace filled in; nil when Rook does not use Multus. Hadoop pods must join it
	// to reach the monitors and OSDs.
	PublicNetwork *v1alpha1.NetworkAttachment
	// HDFS is set for a backend that is an HDFS, the baseline to measure CephFS
	// against. Everything above but ClientConfigHash is then empty: the cluster has no
	// Ceph client, and its hdfs-site.xml is the backend's.
	HDFS *HDFSStorage
}

// HDFSStorage is what a HadoopCluster takes from an HDFS StorageBackend.
type HDFSStorage struct {
	// DefaultFS is fs.defaultFS: hdfs://<NameNode> or hdfs://<nameservice>.
	DefaultFS string
	// Site are the hdfs-site.xml properties of the backend's client ConfigMap.
	Site map[string]string
}

// cephFS says whether the cluster's storage is CephFS, reached with the connector.
func (s Storage) cephFS() bool {
	return s.HDFS == nil
}

// Defaults come from the operator's configuration.
type Defaults struct {
	// Image is the Hadoop image for clusters that do not name one.
	Image string
	// Operator selects the operator's own pods, which read the ResourceManager's REST
	// API for the progress of benchmark stages; the ResourceManager's NetworkPolicy
	// admits them to its web port. Nil when the operator does not run in a pod of the
	// cluster, or was not told which.
	Operator *networkingv1.NetworkPolicyPeer
}

// image is the image the cluster's pods run.
func (in Input) image() string {
	if in.Cluster.Spec.Image != "" {
		return in.Cluster.Spec.Image
	}
	return in.Defaults.Image
}

// jobHistoryEnabled reads spec.jobHistory.enabled, which the API defaults to true.
func (in Input) jobHistoryEnabled() bool {
	e := in.Cluster.Spec.JobHistory.Enabled
	return e == nil || *e
}

// metricsEnabled reads spec.metrics.enabled, which the API defaults to true.
func (in Input) metricsEnabled() bool {
	e := in.Cluster.Spec.Metrics.Enabled
	return e == nil || *e
}

// yarnACLsEnabled reads spec.access.yarn.acls, which the API defaults to true.
func (in Input) yarnACLsEnabled() bool {
	e := in.Cluster.Spec.Access.YARN.ACLs
	return e == nil || *e
}
