package rook

import (
	"fmt"
	"strconv"
	"strings"

	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// DataPoolCephName is the Ceph name Rook gives data pool i of the file system fs:
// <fs>-<name>, the bare name when the spec preserves pool names, and <fs>-data<i> for an
// unnamed pool.
func DataPoolCephName(fs *cephv1.CephFilesystem, i int) string {
	pool := fs.Spec.DataPools[i]
	switch {
	case pool.Name == "":
		return fmt.Sprintf("%s-data%d", fs.Name, i)
	case fs.Spec.PreservePoolNames:
		return pool.Name
	default:
		return fs.Name + "-" + pool.Name
	}
}

// HadoopDataPool is the index of the data pool that holds Hadoop's files: the first
// erasure-coded data pool if the file system has one, else the default (first) data
// pool; -1 when the spec lists no data pool. The same rule serves file systems the
// operator creates and adopted ones: the erasure-coded pool is where bulk data belongs,
// and without one the default pool is the only choice that needs no layout.
func HadoopDataPool(fs *cephv1.CephFilesystem) int {
	for i := range fs.Spec.DataPools {
		if fs.Spec.DataPools[i].IsErasureCoded() {
			return i
		}
	}
	if len(fs.Spec.DataPools) > 0 {
		return 0
	}
	return -1
}

// HadoopDataPoolName is the Ceph name of the Hadoop data pool, empty when fs lists no
// data pool.
func HadoopDataPoolName(fs *cephv1.CephFilesystem) string {
	if i := HadoopDataPool(fs); i >= 0 {
		return DataPoolCephName(fs, i)
	}
	return ""
}

// SubVolumeGroupDataPool is the pool layout of Hadoop's root directory: the Ceph name of
// the Hadoop data pool, or empty when that is the default pool, which new directories
// use anyway.
func SubVolumeGroupDataPool(fs *cephv1.CephFilesystem) string {
	if i := HadoopDataPool(fs); i > 0 {
		return DataPoolCephName(fs, i)
	}
	return ""
}

// FilesystemDataPools reports every data pool of fs, marking the Hadoop data pool.
func FilesystemDataPools(fs *cephv1.CephFilesystem) []v1alpha1.DataPoolStatus {
	hadoop := HadoopDataPool(fs)
	pools := make([]v1alpha1.DataPoolStatus, 0, len(fs.Spec.DataPools))
	for i := range fs.Spec.DataPools {
		p := &fs.Spec.DataPools[i].PoolSpec
		var st v1alpha1.DataPoolStatus
		switch {
		case p.IsErasureCoded():
			st = erasureCodedStatus(int32(p.ErasureCoded.DataChunks), int32(p.ErasureCoded.CodingChunks))
		case p.IsReplicated():
			st = replicatedStatus(int32(p.Replicated.Size))
		default:
			st = v1alpha1.DataPoolStatus{Kind: v1alpha1.PoolKindUnknown}
		}
		st.Name = DataPoolCephName(fs, i)
		st.HadoopData = i == hadoop
		pools = append(pools, st)
	}
	return pools
}

// ExternalDataPools reports the data pool an external backend declares; its kind is
// Unknown, without overhead, when the spec names the pool but not how it stores data.
func ExternalDataPools(ext *v1alpha1.ExternalCephFS) []v1alpha1.DataPoolStatus {
	p := ext.DataPool
	if p == nil {
		return nil
	}
	var st v1alpha1.DataPoolStatus
	switch {
	case p.ErasureCoded != nil:
		st = erasureCodedStatus(p.ErasureCoded.DataChunks, p.ErasureCoded.CodingChunks)
	case p.Replicated != nil:
		st = replicatedStatus(p.Replicated.Size)
	default:
		st = v1alpha1.DataPoolStatus{Kind: v1alpha1.PoolKindUnknown}
	}
	st.Name = p.Name
	st.HadoopData = true
	return []v1alpha1.DataPoolStatus{st}
}

// HadoopRawOverhead is the raw overhead of the pool marked as Hadoop's.
func HadoopRawOverhead(pools []v1alpha1.DataPoolStatus) string {
	for _, p := range pools {
		if p.HadoopData {
			return p.RawOverhead
		}
	}
	return ""
}

func replicatedStatus(size int32) v1alpha1.DataPoolStatus {
	return v1alpha1.DataPoolStatus{
		Kind:        v1alpha1.PoolKindReplicated,
		Size:        size,
		RawOverhead: FormatOverhead(int64(size), 1),
	}
}

func erasureCodedStatus(k, m int32) v1alpha1.DataPoolStatus {
	return v1alpha1.DataPoolStatus{
		Kind:         v1alpha1.PoolKindErasureCoded,
		DataChunks:   k,
		CodingChunks: m,
		RawOverhead:  FormatOverhead(int64(k+m), int64(k)),
	}
}

// FormatOverhead writes num/den as a decimal rounded to two places, without trailing
// zeros: 3/1 is "3", 6/4 is "1.5", 5/3 is "1.67". Integer arithmetic keeps the result
// exact for every k and m. A zero denominator has no overhead to report.
func FormatOverhead(num, den int64) string {
	if den <= 0 || num < 0 {
		return ""
	}
	hundredths := (200*num + den) / (2 * den)
	s := strconv.FormatInt(hundredths/100, 10)
	if frac := hundredths % 100; frac != 0 {
		s += strings.TrimRight(fmt.Sprintf(".%02d", frac), "0")
	}
	return s
}
