package rook

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

func TestSubVolumeGroupObject(t *testing.T) {
	tests := []struct {
		name     string
		sb       *v1alpha1.StorageBackend
		dataPool string
		want     *cephv1.CephFilesystemSubVolumeGroup
	}{
		{
			name: "default data pool",
			sb:   rookBackend(),
			want: &cephv1.CephFilesystemSubVolumeGroup{
				ObjectMeta: metav1.ObjectMeta{Name: "hadoopfs-hadoop", Namespace: "rook-ceph", Labels: ownLabels},
				Spec:       cephv1.CephFilesystemSubVolumeGroupSpec{Name: "hadoop", FilesystemName: "hadoopfs"},
			},
		},
		{
			name:     "laid out on the erasure-coded pool",
			sb:       rookBackend(func(r *v1alpha1.RookCephFS) { r.RootPath = "/volumes/teragen" }),
			dataPool: "hadoopfs-ec",
			want: &cephv1.CephFilesystemSubVolumeGroup{
				ObjectMeta: metav1.ObjectMeta{Name: "hadoopfs-teragen", Namespace: "rook-ceph", Labels: ownLabels},
				Spec:       cephv1.CephFilesystemSubVolumeGroupSpec{Name: "teragen", FilesystemName: "hadoopfs", DataPoolName: "hadoopfs-ec"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SubVolumeGroupObject(tt.sb, "rook-ceph", tt.dataPool)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("SubVolumeGroupObject() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
