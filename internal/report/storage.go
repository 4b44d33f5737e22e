package report

import (
	"fmt"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// storageText is what a run's storage was, for legends and tables, short enough for
// both: "CephFS, EC 2+1, 1.5x raw", "CephFS, 3 replicas" (whose raw overhead is the
// count) or "HDFS, replication 3". Runs recorded before status.setup had the pool show
// the raw overhead alone, and claim no kind: an overhead does not say it (a 2+2
// erasure-coded pool stores 2x, as does a pool of size 2).
func storageText(setup *v1alpha1.BenchmarkSetup) string {
	if setup == nil {
		return "unknown (no status.setup)"
	}
	s := setup.Storage
	switch v1alpha1.StorageBackendMode(s.Mode) {
	case v1alpha1.StorageBackendModeHDFS:
		// An HDFS backend's raw overhead is the replication its clients write with.
		if s.RawOverhead == "" {
			return "HDFS"
		}
		return "HDFS, replication " + s.RawOverhead
	case v1alpha1.StorageBackendModeRook, v1alpha1.StorageBackendModeExternal:
		return withPool("CephFS", s.Pool, s.RawOverhead)
	case "":
		return withPool("StorageBackend "+s.Backend, s.Pool, s.RawOverhead)
	}
	return withPool(s.Mode, s.Pool, s.RawOverhead)
}

func withPool(kind string, pool *v1alpha1.PoolSetup, overhead string) string {
	switch {
	case pool == nil:
	case pool.Kind == v1alpha1.PoolKindReplicated && pool.Size > 0:
		return fmt.Sprintf("%s, %d replicas", kind, pool.Size)
	case pool.Kind == v1alpha1.PoolKindErasureCoded:
		kind = fmt.Sprintf("%s, EC %d+%d", kind, pool.DataChunks, pool.CodingChunks)
	}
	return withOverhead(kind, overhead)
}

func withOverhead(kind, overhead string) string {
	if overhead == "" {
		return kind
	}
	return kind + ", " + overhead + "x raw"
}
