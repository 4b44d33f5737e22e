package benchmark

import (
	"reflect"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

func stage(s v1alpha1.BenchmarkStage, rep int32, phase v1alpha1.StagePhase, seconds, bytes int64) v1alpha1.StageResult {
	d := time.Duration(seconds) * time.Second
	return v1alpha1.StageResult{
		Stage: s, Repetition: rep, Phase: phase, Duration: &metav1.Duration{Duration: d},
		Bytes: bytes, BytesPerSecond: bytesPerSecond(bytes, d),
	}
}

func dur(s int64) *metav1.Duration { return &metav1.Duration{Duration: time.Duration(s) * time.Second} }

func TestSummarizeTeraSort(t *testing.T) {
	spec := &v1alpha1.BenchmarkRunSpec{TeraSort: &v1alpha1.TeraSortWorkload{Rows: ptr.To[int64](1 << 20)}, Repetitions: 4}
	const gib = 1 << 30
	ok, failed := v1alpha1.StagePhaseSucceeded, v1alpha1.StagePhaseFailed
	stages := []v1alpha1.StageResult{
		stage(v1alpha1.StageTeraGen, 1, ok, 10, gib), stage(v1alpha1.StageTeraSort, 1, ok, 40, gib), stage(v1alpha1.StageTeraValidate, 1, ok, 8, gib),
		stage(v1alpha1.StageCleanup, 1, ok, 2, 0),
		stage(v1alpha1.StageTeraGen, 2, ok, 12, gib), stage(v1alpha1.StageTeraSort, 2, ok, 50, gib), stage(v1alpha1.StageTeraValidate, 2, ok, 10, gib),
		// A repetition whose TeraValidate failed does not count.
		stage(v1alpha1.StageTeraGen, 3, ok, 1, gib), stage(v1alpha1.StageTeraSort, 3, ok, 1, gib), stage(v1alpha1.StageTeraValidate, 3, failed, 1, gib),
		stage(v1alpha1.StageTeraGen, 4, ok, 11, gib), stage(v1alpha1.StageTeraSort, 4, ok, 45, gib), stage(v1alpha1.StageTeraValidate, 4, ok, 9, gib),
	}
	got := Summarize(spec, stages)
	want := &v1alpha1.BenchmarkSummary{
		Repetitions: 3,
		Stages: []v1alpha1.StageSummary{
			{Stage: v1alpha1.StageTeraGen, Duration: dur(11), Bytes: gib, BytesPerSecond: 97612893, Throughput: "93.09 MiB/s"},
			{Stage: v1alpha1.StageTeraSort, Duration: dur(45), Bytes: gib, BytesPerSecond: 23860929, Throughput: "22.76 MiB/s"},
			{Stage: v1alpha1.StageTeraValidate, Duration: dur(9), Bytes: gib, BytesPerSecond: 119304647, Throughput: "113.78 MiB/s"},
		},
		// Totals 58, 72 and 65 s.
		Duration:   dur(65),
		Throughput: "22.76 MiB/s",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
	if Summarize(spec, stages[7:10]) != nil {
		t.Error("a summary without a complete repetition")
	}
}

func TestSummarizeTestDFSIOShowsBothRates(t *testing.T) {
	spec := &v1alpha1.BenchmarkRunSpec{TestDFSIO: &v1alpha1.TestDFSIOWorkload{Files: 2, FileSize: resource.MustParse("1Gi")}, Repetitions: 2}
	ok := v1alpha1.StagePhaseSucceeded
	got := Summarize(spec, []v1alpha1.StageResult{
		stage(v1alpha1.StageDFSIOWrite, 1, ok, 10, 2<<30), stage(v1alpha1.StageDFSIORead, 1, ok, 4, 2<<30),
		stage(v1alpha1.StageDFSIOWrite, 2, ok, 8, 2<<30), stage(v1alpha1.StageDFSIORead, 2, ok, 5, 2<<30),
	})
	// Medians of two: the mean of both.
	if got.Throughput != "write 230.40 MiB/s, read 460.80 MiB/s" || got.Duration.Duration != 13500*time.Millisecond {
		t.Errorf("throughput %q, duration %v", got.Throughput, got.Duration)
	}
}

func TestCompare(t *testing.T) {
	this := &v1alpha1.BenchmarkSummary{Stages: []v1alpha1.StageSummary{
		{Stage: v1alpha1.StageTeraGen, Duration: dur(10), BytesPerSecond: 1000},
		{Stage: v1alpha1.StageTeraSort, Duration: dur(4474), BytesPerSecond: 1193},
		{Stage: v1alpha1.StageTeraValidate, Duration: dur(9), BytesPerSecond: 900},
	}}
	baseline := &v1alpha1.BenchmarkSummary{Stages: []v1alpha1.StageSummary{
		{Stage: v1alpha1.StageTeraGen, Duration: dur(10), BytesPerSecond: 0},
		{Stage: v1alpha1.StageTeraSort, Duration: dur(5338), BytesPerSecond: 1000},
	}}
	got := Compare("hdfs-1tb", v1alpha1.WorkloadTeraSort, this, baseline)
	want := &v1alpha1.BaselineComparison{
		Name: "hdfs-1tb",
		Stages: []v1alpha1.StageRatio{
			{Stage: v1alpha1.StageTeraGen, DurationRatio: "1.00"},
			{Stage: v1alpha1.StageTeraSort, ThroughputRatio: "1.19", DurationRatio: "0.84"},
		},
		Ratio: "1.19x",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
	if got := Compare("none", v1alpha1.WorkloadTeraSort, this, nil); got.Name != "none" || got.Stages != nil {
		t.Errorf("without a baseline summary: %+v", got)
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []int64
		want int64
	}{{nil, 0}, {[]int64{5}, 5}, {[]int64{3, 1, 2}, 2}, {[]int64{4, 1}, 3}, {[]int64{1, 2}, 2}, {[]int64{9, 1, 5, 7}, 6}} {
		if got := median(tc.in); got != tc.want {
			t.Errorf("median(%v) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
