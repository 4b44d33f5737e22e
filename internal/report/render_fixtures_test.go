package report

import (
	"testing"
	"time"

	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// renderCases are the comparisons the renderers' golden files show: the two TeraSorts,
// and three runs where one skipped TeraValidate, so that a stage is not measured by
// every run and the notes say so.
func renderCases(t *testing.T) map[string]*Comparison {
	t.Helper()
	ec := cephSetup()
	ec.Cluster = "analytics-ec"
	ec.Storage = v1alpha1.StorageSetup{Backend: "cephfs-ec", Mode: "Rook", RawOverhead: "1.5",
		Pool: &v1alpha1.PoolSetup{Name: "analytics-ec", Kind: v1alpha1.PoolKindErasureCoded, DataChunks: 2, CodingChunks: 1}}
	ecRun := teraSortRun("terasort-ceph-ec", "analytics-ec", ec, map[v1alpha1.BenchmarkStage][]int64{
		v1alpha1.StageTeraGen:      {47_903, 46_215, 49_377},
		v1alpha1.StageTeraSort:     {108_560, 111_042, 106_881},
		v1alpha1.StageTeraValidate: {26_014, 25_473, 27_209},
	}, started.Add(4*time.Hour))
	noValidate := teraSortRun("terasort-hdfs", "analytics-hdfs", hdfsSetup(), hdfsDurations, started.Add(2*time.Hour),
		func(s *v1alpha1.BenchmarkRunSpec) { s.TeraSort.Validate = ptr.To(false) })

	return map[string]*Comparison{
		"terasort":        mustBuild(t, cephRun(), hdfsRun()),
		"terasort-3-runs": mustBuild(t, cephRun(), noValidate, ecRun),
	}
}
