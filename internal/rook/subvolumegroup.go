package rook

import (
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// SubVolumeGroupObject is the CephFilesystemSubVolumeGroup that creates Hadoop's root
// directory. dataPool is the Ceph pool to lay the directory out on, empty for the file
// system's default data pool; Rook hands it to Ceph as the group's pool layout, which
// every file below the root inherits.
func SubVolumeGroupObject(sb *v1alpha1.StorageBackend, namespace, dataPool string) *cephv1.CephFilesystemSubVolumeGroup {
	r := sb.Spec.CephFS.Rook
	svg := &cephv1.CephFilesystemSubVolumeGroup{ObjectMeta: metav1.ObjectMeta{
		Name:      SubVolumeGroupName(r.FilesystemName, SubVolumeGroup(r.RootPath)),
		Namespace: namespace,
	}}
	MutateSubVolumeGroup(svg, sb, dataPool)
	return svg
}

// MutateSubVolumeGroup sets the fields of svg that sb decides.
func MutateSubVolumeGroup(svg *cephv1.CephFilesystemSubVolumeGroup, sb *v1alpha1.StorageBackend, dataPool string) {
	r := sb.Spec.CephFS.Rook
	setLabels(svg, sb)
	svg.Spec.Name = SubVolumeGroup(r.RootPath)
	svg.Spec.FilesystemName = r.FilesystemName
	svg.Spec.DataPoolName = dataPool
}
