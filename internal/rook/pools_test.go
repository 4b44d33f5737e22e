package rook

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

func TestFilesystemDataPools(t *testing.T) {
	ecBackend := rookBackend(func(r *v1alpha1.RookCephFS) {
		r.DataPool = v1alpha1.DataPool{ErasureCoded: &v1alpha1.ErasureCodedPool{DataChunks: 3, CodingChunks: 2}}
	})
	ec := func(k, m uint) cephv1.PoolSpec {
		return cephv1.PoolSpec{ErasureCoded: cephv1.ErasureCodedSpec{DataChunks: k, CodingChunks: m}}
	}
	adopted := func(preserveNames bool, pools ...cephv1.NamedPoolSpec) *cephv1.CephFilesystem {
		return &cephv1.CephFilesystem{
			ObjectMeta: metav1.ObjectMeta{Name: "shared"},
			Spec:       cephv1.FilesystemSpec{DataPools: pools, PreservePoolNames: preserveNames},
		}
	}

	tests := []struct {
		name         string
		fs           *cephv1.CephFilesystem
		want         []v1alpha1.DataPoolStatus
		wantLayout   string
		wantHadoop   string
		wantOverhead string
	}{
		{
			name: "operator's replicated file system",
			fs:   Filesystem(rookBackend(), "rook-ceph"),
			want: []v1alpha1.DataPoolStatus{
				{Name: "hadoopfs-data", Kind: v1alpha1.PoolKindReplicated, Size: 3, RawOverhead: "3", HadoopData: true},
			},
			wantHadoop:   "hadoopfs-data",
			wantOverhead: "3",
		},
		{
			name: "operator's erasure-coded file system",
			fs:   Filesystem(ecBackend, "rook-ceph"),
			want: []v1alpha1.DataPoolStatus{
				{Name: "hadoopfs-default", Kind: v1alpha1.PoolKindReplicated, Size: 3, RawOverhead: "3"},
				{Name: "hadoopfs-ec", Kind: v1alpha1.PoolKindErasureCoded, DataChunks: 3, CodingChunks: 2, RawOverhead: "1.67", HadoopData: true},
			},
			wantLayout:   "hadoopfs-ec",
			wantHadoop:   "hadoopfs-ec",
			wantOverhead: "1.67",
		},
		{
			name: "adopted: unnamed pools, the first erasure-coded one holds Hadoop's data",
			fs: adopted(false,
				cephv1.NamedPoolSpec{PoolSpec: replicatedPool(2, true, "", "")},
				cephv1.NamedPoolSpec{PoolSpec: ec(4, 2)},
				cephv1.NamedPoolSpec{Name: "archive", PoolSpec: ec(8, 3)},
			),
			want: []v1alpha1.DataPoolStatus{
				{Name: "shared-data0", Kind: v1alpha1.PoolKindReplicated, Size: 2, RawOverhead: "2"},
				{Name: "shared-data1", Kind: v1alpha1.PoolKindErasureCoded, DataChunks: 4, CodingChunks: 2, RawOverhead: "1.5", HadoopData: true},
				{Name: "shared-archive", Kind: v1alpha1.PoolKindErasureCoded, DataChunks: 8, CodingChunks: 3, RawOverhead: "1.38"},
			},
			wantLayout:   "shared-data1",
			wantHadoop:   "shared-data1",
			wantOverhead: "1.5",
		},
		{
			name: "adopted: preserved pool names, only replicated pools",
			fs: adopted(true,
				cephv1.NamedPoolSpec{Name: "cephfs_data", PoolSpec: replicatedPool(3, true, "", "")},
				cephv1.NamedPoolSpec{Name: "cephfs_ssd", PoolSpec: replicatedPool(2, true, "", "ssd")},
			),
			want: []v1alpha1.DataPoolStatus{
				{Name: "cephfs_data", Kind: v1alpha1.PoolKindReplicated, Size: 3, RawOverhead: "3", HadoopData: true},
				{Name: "cephfs_ssd", Kind: v1alpha1.PoolKindReplicated, Size: 2, RawOverhead: "2"},
			},
			wantHadoop:   "cephfs_data",
			wantOverhead: "3",
		},
		{
			name: "adopted: a pool without size or chunks",
			fs:   adopted(false, cephv1.NamedPoolSpec{Name: "odd"}),
			want: []v1alpha1.DataPoolStatus{
				{Name: "shared-odd", Kind: v1alpha1.PoolKindUnknown, HadoopData: true},
			},
			wantHadoop: "shared-odd",
		},
		{
			name: "adopted: no data pool listed",
			fs:   adopted(false),
			want: []v1alpha1.DataPoolStatus{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FilesystemDataPools(tt.fs)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("FilesystemDataPools() mismatch (-want +got):\n%s", diff)
			}
			if layout := SubVolumeGroupDataPool(tt.fs); layout != tt.wantLayout {
				t.Errorf("SubVolumeGroupDataPool() = %q, want %q", layout, tt.wantLayout)
			}
			if name := HadoopDataPoolName(tt.fs); name != tt.wantHadoop {
				t.Errorf("HadoopDataPoolName() = %q, want %q", name, tt.wantHadoop)
			}
			if overhead := HadoopRawOverhead(got); overhead != tt.wantOverhead {
				t.Errorf("HadoopRawOverhead() = %q, want %q", overhead, tt.wantOverhead)
			}
		})
	}
}

func TestExternalDataPools(t *testing.T) {
	tests := []struct {
		name string
		pool *v1alpha1.ExternalDataPool
		want []v1alpha1.DataPoolStatus
	}{
		{name: "not declared", pool: nil, want: nil},
		{
			name: "kind not declared",
			pool: &v1alpha1.ExternalDataPool{Name: "cephfs.hadoop.data"},
			want: []v1alpha1.DataPoolStatus{{Name: "cephfs.hadoop.data", Kind: v1alpha1.PoolKindUnknown, HadoopData: true}},
		},
		{
			name: "replicated",
			pool: &v1alpha1.ExternalDataPool{Name: "data", Replicated: &v1alpha1.ReplicatedPool{Size: 2}},
			want: []v1alpha1.DataPoolStatus{{Name: "data", Kind: v1alpha1.PoolKindReplicated, Size: 2, RawOverhead: "2", HadoopData: true}},
		},
		{
			name: "erasure-coded",
			pool: &v1alpha1.ExternalDataPool{Name: "ec", ErasureCoded: &v1alpha1.ErasureCodedPool{DataChunks: 3, CodingChunks: 2}},
			want: []v1alpha1.DataPoolStatus{{Name: "ec", Kind: v1alpha1.PoolKindErasureCoded, DataChunks: 3, CodingChunks: 2, RawOverhead: "1.67", HadoopData: true}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ExternalDataPools(&v1alpha1.ExternalCephFS{DataPool: tt.pool})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ExternalDataPools() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFormatOverhead(t *testing.T) {
	tests := []struct {
		num, den int64
		want     string
	}{
		{3, 1, "3"},
		{1, 1, "1"},
		{6, 4, "1.5"},  // RS(4,2)
		{5, 3, "1.67"}, // RS(3,2)
		{14, 10, "1.4"},
		{11, 8, "1.38"}, // 1.375 rounds half up
		{9, 8, "1.13"},  // 1.125
		{48, 32, "1.5"},
		{33, 32, "1.03"},
		{2, 3, "0.67"},
		{0, 1, "0"},
		{1, 0, ""},
		{-1, 1, ""},
	}
	for _, tt := range tests {
		if got := FormatOverhead(tt.num, tt.den); got != tt.want {
			t.Errorf("FormatOverhead(%d, %d) = %q, want %q", tt.num, tt.den, got, tt.want)
		}
	}
}
