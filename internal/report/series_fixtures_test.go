package report

import (
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// The series fixtures are the study's two series on the CephFS cluster of cephRun:
// TeraSorts of 1, 10 and 100 million rows (100 MB, 1 GB and 10 GB), and TestDFSIOs of
// 16 files of 256Mi, 1Gi and 4Gi. The 10-million-row run has cephRun's figures. Times
// grow less than the work at the small end, where the jobs' start-up weighs most, and
// nearly with it at the large end, where the three NodeManagers are busy throughout.

var teraSortRowDurations = map[int64]map[v1alpha1.BenchmarkStage][]int64{
	1_000_000: {
		v1alpha1.StageTeraGen:      {9_842, 10_317, 9_605},
		v1alpha1.StageTeraSort:     {18_904, 19_736, 18_215},
		v1alpha1.StageTeraValidate: {8_117, 8_452, 7_963},
	},
	teraSortRows: cephDurations,
	100_000_000: {
		v1alpha1.StageTeraGen:      {318_406, 331_072, 309_847},
		v1alpha1.StageTeraSort:     {842_915, 869_304, 828_551},
		v1alpha1.StageTeraValidate: {176_238, 181_905, 172_664},
	},
}

// rowsRun is the series' TeraSort of rows rows, named name.
func rowsRun(name string, rows int64, start time.Time, mutate ...func(*v1alpha1.BenchmarkRunSpec)) v1alpha1.BenchmarkRun {
	return teraSortRun(name, "analytics", cephSetup(), teraSortRowDurations[rows], start,
		append([]func(*v1alpha1.BenchmarkRunSpec){func(s *v1alpha1.BenchmarkRunSpec) { s.TeraSort.Rows = ptr.To(rows) }}, mutate...)...)
}

// teraSortRowsSeries are the three TeraSorts, not in the order of their rows, as
// someone may name them.
func teraSortRowsSeries() []v1alpha1.BenchmarkRun {
	return []v1alpha1.BenchmarkRun{
		rowsRun("terasort-10m", 10_000_000, started),
		rowsRun("terasort-100m", 100_000_000, started.Add(time.Hour)),
		rowsRun("terasort-1m", 1_000_000, started.Add(-time.Hour)),
	}
}

var dfsioFileSizeDurations = map[string]map[v1alpha1.BenchmarkStage][]int64{
	"256Mi": {
		v1alpha1.StageDFSIOWrite: {38_412, 36_905, 39_774},
		v1alpha1.StageDFSIORead:  {21_306, 20_418, 22_951},
	},
	"1Gi": {
		v1alpha1.StageDFSIOWrite: {131_207, 127_880, 134_562},
		v1alpha1.StageDFSIORead:  {67_445, 69_120, 66_013},
	},
	"4Gi": {
		v1alpha1.StageDFSIOWrite: {489_336, 502_817, 481_094},
		v1alpha1.StageDFSIORead:  {244_780, 251_392, 239_605},
	},
}

// dfsioRun is the series' TestDFSIO of 16 files of fileSize each.
func dfsioRun(name, fileSize string, start time.Time) v1alpha1.BenchmarkRun {
	setup := cephSetup()
	setup.TeraSort = nil
	run := v1alpha1.BenchmarkRun{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "bench"},
		Spec: v1alpha1.BenchmarkRunSpec{
			ClusterRef:  v1alpha1.LocalObjectReference{Name: "analytics"},
			TestDFSIO:   &v1alpha1.TestDFSIOWorkload{Files: 16, FileSize: resource.MustParse(fileSize)},
			Repetitions: setup.Repetitions,
		},
	}
	finish(&run, setup, dfsioFileSizeDurations[fileSize], start)
	return run
}

func dfsioFileSizeSeries() []v1alpha1.BenchmarkRun {
	return []v1alpha1.BenchmarkRun{
		dfsioRun("dfsio-4g", "4Gi", started.Add(2*time.Hour)),
		dfsioRun("dfsio-256m", "256Mi", started),
		dfsioRun("dfsio-1g", "1Gi", started.Add(time.Hour)),
	}
}
