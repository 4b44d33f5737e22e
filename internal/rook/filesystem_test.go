package rook

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
)

func replicatedPool(size uint, safe bool, failureDomain, deviceClass string) cephv1.PoolSpec {
	return cephv1.PoolSpec{
		FailureDomain: failureDomain,
		DeviceClass:   deviceClass,
		Replicated:    cephv1.ReplicatedSpec{Size: size, RequireSafeReplicaSize: safe},
	}
}

func TestFilesystem(t *testing.T) {
	mdsResources := corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("4Gi")},
		Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("4Gi")},
	}
	meta := metav1.ObjectMeta{Name: "hadoopfs", Namespace: "rook-ceph", Labels: ownLabels}

	tests := []struct {
		name string
		sb   *v1alpha1.StorageBackend
		want *cephv1.CephFilesystem
	}{
		{
			name: "replicated data pool",
			sb: rookBackend(func(r *v1alpha1.RookCephFS) {
				r.DataPool = v1alpha1.DataPool{Replicated: &v1alpha1.ReplicatedPool{Size: 2}}
				r.DeviceClass = "ssd"
				r.MetadataServer = v1alpha1.MetadataServer{ActiveCount: 2, ActiveStandby: ptr.To(false), Resources: mdsResources}
			}),
			want: &cephv1.CephFilesystem{
				ObjectMeta: meta,
				Spec: cephv1.FilesystemSpec{
					MetadataPool: cephv1.NamedPoolSpec{PoolSpec: replicatedPool(3, true, "host", "ssd")},
					DataPools: []cephv1.NamedPoolSpec{
						{Name: "data", PoolSpec: replicatedPool(2, true, "host", "ssd")},
					},
					PreservePoolsOnDelete:      true,
					PreserveFilesystemOnDelete: true,
					MetadataServer:             cephv1.MetadataServerSpec{ActiveCount: 2, ActiveStandby: false, Resources: mdsResources, Placement: hadoopfsSpread()},
				},
			},
		},
		{
			name: "erasure-coded data pool behind a replicated default pool",
			sb: rookBackend(func(r *v1alpha1.RookCephFS) {
				r.MetadataPool.Size = 2
				r.DataPool = v1alpha1.DataPool{ErasureCoded: &v1alpha1.ErasureCodedPool{DataChunks: 4, CodingChunks: 2}}
				r.FailureDomain = "osd"
			}),
			want: &cephv1.CephFilesystem{
				ObjectMeta: meta,
				Spec: cephv1.FilesystemSpec{
					MetadataPool: cephv1.NamedPoolSpec{PoolSpec: replicatedPool(2, true, "osd", "")},
					DataPools: []cephv1.NamedPoolSpec{
						{Name: "default", PoolSpec: replicatedPool(2, true, "osd", "")},
						{Name: "ec", PoolSpec: cephv1.PoolSpec{
							FailureDomain: "osd",
							ErasureCoded:  cephv1.ErasureCodedSpec{DataChunks: 4, CodingChunks: 2},
						}},
					},
					PreservePoolsOnDelete:      true,
					PreserveFilesystemOnDelete: true,
					MetadataServer:             cephv1.MetadataServerSpec{ActiveCount: 1, ActiveStandby: true, Placement: hadoopfsSpread()},
				},
			},
		},
		{
			name: "single copies, deletion allowed, standby left to the default",
			sb: rookBackend(func(r *v1alpha1.RookCephFS) {
				r.MetadataPool.Size = 1
				r.DataPool.Replicated.Size = 1
				r.PreserveOnDelete = ptr.To(false)
				r.MetadataServer.ActiveStandby = nil
			}),
			want: &cephv1.CephFilesystem{
				ObjectMeta: meta,
				Spec: cephv1.FilesystemSpec{
					MetadataPool: cephv1.NamedPoolSpec{PoolSpec: replicatedPool(1, false, "host", "")},
					DataPools: []cephv1.NamedPoolSpec{
						{Name: "data", PoolSpec: replicatedPool(1, false, "host", "")},
					},
					MetadataServer: cephv1.MetadataServerSpec{ActiveCount: 1, ActiveStandby: true, Placement: hadoopfsSpread()},
				},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Filesystem(tt.sb, "rook-ceph")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Filesystem() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// Fields the API does not cover stay as a user or Rook set them, and fields it does
// cover return to the spec.
func TestMutateFilesystemKeepsFieldsItDoesNotDecide(t *testing.T) {
	zoneSpread := cephv1.Placement{TopologySpreadConstraints: []corev1.TopologySpreadConstraint{{
		MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone, WhenUnsatisfiable: corev1.DoNotSchedule,
	}}}
	existing := &cephv1.CephFilesystem{
		ObjectMeta: metav1.ObjectMeta{Name: "hadoopfs", Namespace: "rook-ceph", Labels: map[string]string{"team": "data"}},
		Spec: cephv1.FilesystemSpec{
			MetadataPool: cephv1.NamedPoolSpec{PoolSpec: cephv1.PoolSpec{
				Replicated: cephv1.ReplicatedSpec{Size: 5, TargetSizeRatio: 0.1},
			}},
			DataPools: []cephv1.NamedPoolSpec{
				{Name: "extra", PoolSpec: replicatedPool(2, true, "host", "")},
				{Name: "data", PoolSpec: cephv1.PoolSpec{
					Replicated: cephv1.ReplicatedSpec{Size: 1},
					Parameters: map[string]string{"compression_mode": "aggressive"},
				}},
			},
			MetadataServer: cephv1.MetadataServerSpec{ActiveCount: 4, PriorityClassName: "high", Placement: zoneSpread},
		},
	}
	MutateFilesystem(existing, rookBackend())

	want := &cephv1.CephFilesystem{
		ObjectMeta: metav1.ObjectMeta{Name: "hadoopfs", Namespace: "rook-ceph", Labels: map[string]string{
			"team":                              "data",
			naming.LabelStorageBackendNamespace: "analytics",
			naming.LabelStorageBackendName:      "lake",
			naming.LabelManagedBy:               naming.ManagedBy,
		}},
		Spec: cephv1.FilesystemSpec{
			MetadataPool: cephv1.NamedPoolSpec{PoolSpec: cephv1.PoolSpec{
				FailureDomain: "host",
				Replicated:    cephv1.ReplicatedSpec{Size: 3, RequireSafeReplicaSize: true, TargetSizeRatio: 0.1},
			}},
			DataPools: []cephv1.NamedPoolSpec{
				{Name: "data", PoolSpec: cephv1.PoolSpec{
					FailureDomain: "host",
					Replicated:    cephv1.ReplicatedSpec{Size: 3, RequireSafeReplicaSize: true},
					Parameters:    map[string]string{"compression_mode": "aggressive"},
				}},
			},
			PreservePoolsOnDelete:      true,
			PreserveFilesystemOnDelete: true,
			MetadataServer:             cephv1.MetadataServerSpec{ActiveCount: 1, ActiveStandby: true, PriorityClassName: "high", Placement: zoneSpread},
		},
	}
	if diff := cmp.Diff(want, existing); diff != "" {
		t.Errorf("MutateFilesystem() mismatch (-want +got):\n%s", diff)
	}
}
