package report

import (
	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// storageText is what a run's storage was, for legends and tables: "CephFS, 3x raw",
// "CephFS, 1.5x raw" or "HDFS, replication 3". status.setup records the raw overhead
// but not whether the pool was replicated or erasure-coded, and an overhead alone does
// not say (a 2+2 erasure-coded pool stores 2x, as does a pool of size 2), so neither
// is claimed; the StorageBackend's name is shown next to it.
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
		return withOverhead("CephFS", s.RawOverhead)
	case "":
		return withOverhead("StorageBackend "+s.Backend, s.RawOverhead)
	}
	return withOverhead(s.Mode, s.RawOverhead)
}

func withOverhead(kind, overhead string) string {
	if overhead == "" {
		return kind
	}
	return kind + ", " + overhead + "x raw"
}
