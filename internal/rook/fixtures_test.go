package rook

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
)

// rookBackend is a Rook-mode StorageBackend with the defaults the API server applies.
func rookBackend(mutate ...func(*v1alpha1.RookCephFS)) *v1alpha1.StorageBackend {
	sb := &v1alpha1.StorageBackend{
		ObjectMeta: metav1.ObjectMeta{Namespace: "analytics", Name: "lake"},
		Spec: v1alpha1.StorageBackendSpec{CephFS: v1alpha1.CephFSSpec{Rook: &v1alpha1.RookCephFS{
			FilesystemName:   "hadoopfs",
			MetadataPool:     v1alpha1.ReplicatedPool{Size: 3},
			DataPool:         v1alpha1.DataPool{Replicated: &v1alpha1.ReplicatedPool{Size: 3}},
			FailureDomain:    "host",
			MetadataServer:   v1alpha1.MetadataServer{ActiveCount: 1, ActiveStandby: ptr.To(true)},
			RootPath:         "/volumes/hadoop",
			PreserveOnDelete: ptr.To(true),
		}}},
	}
	for _, m := range mutate {
		m(sb.Spec.CephFS.Rook)
	}
	return sb
}

var ownLabels = map[string]string{
	naming.LabelStorageBackendNamespace: "analytics",
	naming.LabelStorageBackendName:      "lake",
	naming.LabelManagedBy:               naming.ManagedBy,
}
