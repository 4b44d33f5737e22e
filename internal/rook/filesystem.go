package rook

import (
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// Names of the data pools inside a CephFilesystem spec. Rook names the Ceph pools
// <filesystem>-<name>.
const (
	// DataPoolReplicated is the only data pool of a replicated file system.
	DataPoolReplicated = "data"
	// DataPoolDefault is the replicated first data pool of an erasure-coded file system.
	// CephFS keeps every file's backtrace in the first data pool and refuses an
	// erasure-coded one there, so it stays small and replicated.
	DataPoolDefault = "default"
	// DataPoolErasureCoded holds Hadoop's data in an erasure-coded file system; Rook
	// enables allow_ec_overwrites on it, which CephFS needs.
	DataPoolErasureCoded = "ec"
)

// Filesystem is the CephFilesystem the operator creates for sb in namespace.
func Filesystem(sb *v1alpha1.StorageBackend, namespace string) *cephv1.CephFilesystem {
	fs := &cephv1.CephFilesystem{ObjectMeta: metav1.ObjectMeta{
		Name:      sb.Spec.CephFS.Rook.FilesystemName,
		Namespace: namespace,
	}}
	MutateFilesystem(fs, sb)
	return fs
}

// MutateFilesystem sets the fields of fs that sb decides and leaves every other field
// as it is, so settings the API does not cover (MDS placement, pool parameters, ...)
// can be tuned on the CephFilesystem directly; the MDS daemons' spread over nodes is
// set only where the CephFilesystem says nothing about it (spreadMetadataServers).
// Data pools are matched by name so that the fields of a pool the operator does not
// set survive too.
func MutateFilesystem(fs *cephv1.CephFilesystem, sb *v1alpha1.StorageBackend) {
	r := sb.Spec.CephFS.Rook
	setLabels(fs, sb)

	setPool(&fs.Spec.MetadataPool.PoolSpec, r, r.MetadataPool.Size, nil)

	var pools []cephv1.NamedPoolSpec
	if ec := r.DataPool.ErasureCoded; ec != nil {
		pools = []cephv1.NamedPoolSpec{
			dataPool(fs.Spec.DataPools, DataPoolDefault, r, r.MetadataPool.Size, nil),
			dataPool(fs.Spec.DataPools, DataPoolErasureCoded, r, 0, ec),
		}
	} else {
		pools = []cephv1.NamedPoolSpec{
			dataPool(fs.Spec.DataPools, DataPoolReplicated, r, replicatedSize(r.DataPool.Replicated), nil),
		}
	}
	fs.Spec.DataPools = pools

	preserve := PreserveOnDelete(sb)
	fs.Spec.PreserveFilesystemOnDelete = preserve
	fs.Spec.PreservePoolsOnDelete = preserve

	mds := &fs.Spec.MetadataServer
	mds.ActiveCount = r.MetadataServer.ActiveCount
	// Unset means the API default, a hot standby.
	mds.ActiveStandby = r.MetadataServer.ActiveStandby == nil || *r.MetadataServer.ActiveStandby
	mds.Resources = *r.MetadataServer.Resources.DeepCopy()
	spreadMetadataServers(&mds.Placement, fs.Name)
}

func replicatedSize(p *v1alpha1.ReplicatedPool) int32 {
	if p == nil {
		return 0
	}
	return p.Size
}

// dataPool returns the pool called name from existing, or a new one, with the fields
// the operator decides set.
func dataPool(existing []cephv1.NamedPoolSpec, name string, r *v1alpha1.RookCephFS, size int32, ec *v1alpha1.ErasureCodedPool) cephv1.NamedPoolSpec {
	pool := cephv1.NamedPoolSpec{Name: name}
	for i := range existing {
		if existing[i].Name == name {
			pool = *existing[i].DeepCopy()
			break
		}
	}
	setPool(&pool.PoolSpec, r, size, ec)
	return pool
}

// setPool makes p replicated with size copies, or erasure-coded when ec is set.
func setPool(p *cephv1.PoolSpec, r *v1alpha1.RookCephFS, size int32, ec *v1alpha1.ErasureCodedPool) {
	p.FailureDomain = r.FailureDomain
	p.DeviceClass = r.DeviceClass
	if ec != nil {
		p.Replicated.Size = 0
		p.Replicated.RequireSafeReplicaSize = false
		p.ErasureCoded.DataChunks = uint(ec.DataChunks)
		p.ErasureCoded.CodingChunks = uint(ec.CodingChunks)
		return
	}
	p.Replicated.Size = uint(size)
	// Rook refuses a single copy while this guard is on; the API admits size 1 as a
	// deliberate choice, so the guard is on for every other size only.
	p.Replicated.RequireSafeReplicaSize = size > 1
	p.ErasureCoded.DataChunks = 0
	p.ErasureCoded.CodingChunks = 0
}
