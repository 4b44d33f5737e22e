package report

import (
	"testing"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

func TestStorageText(t *testing.T) {
	cases := []struct {
		storage *v1alpha1.StorageSetup
		want    string
	}{
		{&v1alpha1.StorageSetup{Backend: "cephfs", Mode: "Rook", RawOverhead: "3"}, "CephFS, 3x raw"},
		{&v1alpha1.StorageSetup{Backend: "cephfs-ec", Mode: "Rook", RawOverhead: "1.5"}, "CephFS, 1.5x raw"},
		{&v1alpha1.StorageSetup{Backend: "ceph", Mode: "External", RawOverhead: "2"}, "CephFS, 2x raw"},
		{&v1alpha1.StorageSetup{Backend: "cephfs-ec", Mode: "Rook", RawOverhead: "2", Pool: &v1alpha1.PoolSetup{Kind: v1alpha1.PoolKindErasureCoded, DataChunks: 2, CodingChunks: 2}},
			"CephFS, EC 2+2, 2x raw"},
		{&v1alpha1.StorageSetup{Backend: "cephfs", Mode: "Rook", RawOverhead: "2", Pool: &v1alpha1.PoolSetup{Kind: v1alpha1.PoolKindReplicated, Size: 2}},
			"CephFS, 2 replicas"},
		{&v1alpha1.StorageSetup{Backend: "ceph", Mode: "External", RawOverhead: "2.5", Pool: &v1alpha1.PoolSetup{Kind: v1alpha1.PoolKindUnknown}}, "CephFS, 2.5x raw"},
		{&v1alpha1.StorageSetup{Backend: "ceph-old", Pool: &v1alpha1.PoolSetup{Kind: v1alpha1.PoolKindReplicated, Size: 3}}, "StorageBackend ceph-old, 3 replicas"},
		{&v1alpha1.StorageSetup{Backend: "ceph", Mode: "External"}, "CephFS"},
		{&v1alpha1.StorageSetup{Backend: "hdfs", Mode: "HDFS", RawOverhead: "3"}, "HDFS, replication 3"},
		{&v1alpha1.StorageSetup{Backend: "hdfs", Mode: "HDFS"}, "HDFS"},
		{&v1alpha1.StorageSetup{Backend: "lake", Mode: "Lustre", RawOverhead: "1"}, "Lustre, 1x raw"},
		{&v1alpha1.StorageSetup{Backend: "ceph-old", RawOverhead: "3"}, "StorageBackend ceph-old, 3x raw"},
		{nil, "unknown (no status.setup)"},
	}
	for _, tc := range cases {
		var setup *v1alpha1.BenchmarkSetup
		if tc.storage != nil {
			setup = &v1alpha1.BenchmarkSetup{Storage: *tc.storage}
		}
		if got := storageText(setup); got != tc.want {
			t.Errorf("storageText(%+v) = %q, want %q", tc.storage, got, tc.want)
		}
	}
}
