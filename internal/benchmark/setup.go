package benchmark

import (
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// Hadoop's defaults of the TeraSort parameters a run and its cluster may leave unset
// (mapred-default.xml).
const (
	hadoopDefaultMaps    = 2
	hadoopDefaultReduces = 1
)

// Setup is what a run with spec measures on the Ready cluster hc, for status.setup when
// the first stage starts. sb is the cluster's StorageBackend (nil when it cannot be
// read), and storage what the cluster's pods take from it, Rook's public network among
// it (nil when it cannot be resolved, which leaves the network unknown). NodeManagers
// are those ready: a Ready cluster has all it wants.
func Setup(spec *v1alpha1.BenchmarkRunSpec, hc *v1alpha1.HadoopCluster, sb *v1alpha1.StorageBackend, storage *hadoop.Storage) *v1alpha1.BenchmarkSetup {
	s := &v1alpha1.BenchmarkSetup{
		Cluster:      hc.Name,
		Storage:      v1alpha1.StorageSetup{Backend: hc.Spec.StorageBackendRef.Name},
		NodeManagers: v1alpha1.NodeManagersSetup{Replicas: hc.Status.ReadyNodeManagers},
		Repetitions:  repetitions(spec),
	}
	if storage != nil {
		s.Network = networkSetup(hadoop.Input{Cluster: hc, Storage: *storage})
	}
	if sb != nil {
		s.Storage.Mode = string(sb.Status.Mode)
		s.Storage.RawOverhead = sb.Status.RawOverhead
		s.Storage.Pool = hadoopPool(sb.Status.DataPools)
	}
	s.NodeManagers.Resources = podResources(hc.Spec.NodeManagers.Resources)
	// A Ready cluster's NodeManagers have resources YARN can use; zero says unknown.
	if nr, err := hadoop.NodeManagerResources(hc.Spec.NodeManagers); err == nil {
		s.NodeManagers.MemoryMiB = nr.MemoryMiB
		s.NodeManagers.VCores = int32(nr.VCores)
	}
	if w := spec.TeraSort; w != nil {
		storageReplication := ""
		if sb != nil && sb.Status.HDFS != nil && sb.Status.HDFS.Replication > 0 {
			storageReplication = strconv.Itoa(int(sb.Status.HDFS.Replication))
		}
		s.TeraSort = &v1alpha1.TeraSortSetup{
			Maps:              specOrConfig(w.Maps, hc.Spec.Config.MapredSite["mapreduce.job.maps"], hadoopDefaultMaps),
			Reduces:           specOrConfig(w.Reduces, hc.Spec.Config.MapredSite["mapreduce.job.reduces"], hadoopDefaultReduces),
			OutputReplication: hadoopInt(outputReplication(w, hc, storageReplication)),
		}
	}
	return s
}

// hadoopPool is the data pool Hadoop's root is laid out on, of those a StorageBackend
// reports; nil when it reports none (HDFS, or a backend not yet resolved).
func hadoopPool(pools []v1alpha1.DataPoolStatus) *v1alpha1.PoolSetup {
	for _, p := range pools {
		if p.HadoopData {
			return &v1alpha1.PoolSetup{Name: p.Name, Kind: p.Kind, Size: p.Size, DataChunks: p.DataChunks, CodingChunks: p.CodingChunks}
		}
	}
	return nil
}

// podResources are the CPU and memory of a container's resources. Never nil: a
// container without either is recorded as such, unlike a run that recorded nothing.
func podResources(r corev1.ResourceRequirements) *v1alpha1.PodResourcesSetup {
	out := &v1alpha1.PodResourcesSetup{}
	for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if q, ok := r.Requests[name]; ok {
			if out.Requests == nil {
				out.Requests = corev1.ResourceList{}
			}
			out.Requests[name] = q.DeepCopy()
		}
		if q, ok := r.Limits[name]; ok {
			if out.Limits == nil {
				out.Limits = corev1.ResourceList{}
			}
			out.Limits[name] = q.DeepCopy()
		}
	}
	return out
}

// networkSetup is the network the stages and NodeManagers of in moved data over. The
// rate is the one the HadoopCluster controller read off the data attachment's
// NetworkAttachmentDefinition (status.network.linkRates), the one reader of them.
func networkSetup(in hadoop.Input) *v1alpha1.NetworkSetup {
	net := in.Cluster.Spec.Network
	out := &v1alpha1.NetworkSetup{HostNetwork: net.HostNetwork, DataInterface: net.DataInterface}
	if !net.HostNetwork && out.DataInterface == "" {
		// The address the NodeManager's host name resolves to: its pod's own.
		out.DataInterface = podInterface
	}
	if data, ok := hadoop.DataNetwork(in); ok {
		out.Attachment = &v1alpha1.NetworkAttachmentReference{Namespace: data.Namespace, Name: data.Name}
		for _, r := range in.Cluster.Status.Network.LinkRates {
			if r.Namespace == data.Namespace && r.Name == data.Name {
				out.Rate = r.Rate
			}
		}
	}
	// Host-network pods join no Multus network, Rook's neither.
	if pub := in.Storage.PublicNetwork; pub != nil && !net.HostNetwork {
		out.CephPublicNetwork = &v1alpha1.NetworkAttachmentReference{Namespace: pub.Namespace, Name: pub.Name}
	}
	return out
}

// podInterface is the interface Kubernetes gives every pod on the pod network.
const podInterface = "eth0"

// specOrConfig is a run's value, else the cluster's configured one, else Hadoop's
// default.
func specOrConfig(value *int32, configured string, hadoopDefault int32) int32 {
	switch {
	case value != nil:
		return *value
	case configured != "":
		return hadoopInt(configured)
	}
	return hadoopDefault
}

// hadoopInt reads an integer property as Hadoop's Configuration.getInt does, decimal
// or 0x hexadecimal around blanks; 0 for a value Hadoop would refuse.
func hadoopInt(v string) int32 {
	v = strings.TrimSpace(v)
	base := 10
	if h, ok := strings.CutPrefix(strings.ToLower(v), "0x"); ok {
		v, base = h, 16
	}
	n, err := strconv.ParseInt(v, base, 32)
	if err != nil || n < 0 {
		return 0
	}
	return int32(n)
}
