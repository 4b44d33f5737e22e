package benchmark

import (
	"strconv"
	"strings"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// Hadoop's defaults of the TeraSort parameters a run and its cluster may leave unset
// (mapred-default.xml).
const (
	hadoopDefaultMaps    = 2
	hadoopDefaultReduces = 1
)

// Setup is what a run with spec measures on the Ready cluster hc, whose StorageBackend
// is sb (nil when it cannot be read), for status.setup when the first stage starts.
// NodeManagers are those ready: a Ready cluster has all it wants.
func Setup(spec *v1alpha1.BenchmarkRunSpec, hc *v1alpha1.HadoopCluster, sb *v1alpha1.StorageBackend) *v1alpha1.BenchmarkSetup {
	s := &v1alpha1.BenchmarkSetup{
		Cluster:      hc.Name,
		Storage:      v1alpha1.StorageSetup{Backend: hc.Spec.StorageBackendRef.Name},
		NodeManagers: v1alpha1.NodeManagersSetup{Replicas: hc.Status.ReadyNodeManagers},
		Repetitions:  repetitions(spec),
	}
	if sb != nil {
		s.Storage.Mode = string(sb.Status.Mode)
		s.Storage.RawOverhead = sb.Status.RawOverhead
	}
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
