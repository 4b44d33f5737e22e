package main

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

func duration(d time.Duration) *metav1.Duration { return &metav1.Duration{Duration: d} }

func succeededIngest(bytes, bytesPerSecond int64, d time.Duration) v1alpha1.StageResult {
	return v1alpha1.StageResult{
		Stage: v1alpha1.StageIngest, Repetition: 1, Phase: v1alpha1.StagePhaseSucceeded,
		Duration: duration(d), Bytes: bytes, BytesPerSecond: bytesPerSecond,
		Ingest: &v1alpha1.IngestResult{Clients: 3, Puts: 6, Median: duration(5200 * time.Millisecond)},
	}
}

func TestMeasure(t *testing.T) {
	cleanup := v1alpha1.StageResult{Stage: v1alpha1.StageCleanup, Repetition: 1, Phase: v1alpha1.StagePhaseSucceeded, Duration: duration(time.Second)}
	st := v1alpha1.BenchmarkRunStatus{
		Phase:  v1alpha1.BenchmarkPhaseSucceeded,
		Stages: []v1alpha1.StageResult{succeededIngest(6<<28, 200<<20, 7680*time.Millisecond), cleanup},
	}
	got, err := measure(st)
	if err != nil {
		t.Fatal(err)
	}
	want := measurement{bytes: 6 << 28, duration: 7680 * time.Millisecond, bytesPerSecond: 200 << 20, puts: 6, medianPut: 5200 * time.Millisecond}
	if got != want {
		t.Errorf("measure = %+v, want %+v", got, want)
	}
}

func TestMeasureRefuses(t *testing.T) {
	failedStage := v1alpha1.StageResult{Stage: v1alpha1.StageIngest, Repetition: 1, Phase: v1alpha1.StagePhaseFailed, Message: "1 of 6 puts failed"}
	for _, tc := range []struct {
		name string
		st   v1alpha1.BenchmarkRunStatus
		want string
	}{
		{
			name: "failed run",
			st: v1alpha1.BenchmarkRunStatus{
				Phase:      v1alpha1.BenchmarkPhaseFailed,
				Stages:     []v1alpha1.StageResult{failedStage},
				Conditions: []metav1.Condition{{Type: v1alpha1.ConditionReady, Status: metav1.ConditionFalse, Reason: v1alpha1.ReasonStageFailed, Message: "stage ingest of repetition 1 failed: 1 of 6 puts failed"}},
			},
			want: "Failed, not Succeeded (StageFailed: stage ingest of repetition 1 failed: 1 of 6 puts failed)",
		},
		{name: "no phase", st: v1alpha1.BenchmarkRunStatus{}, want: "without a phase"},
		{name: "no ingest stage", st: v1alpha1.BenchmarkRunStatus{Phase: v1alpha1.BenchmarkPhaseSucceeded}, want: "0 ingest stages"},
		{
			name: "two repetitions",
			st: v1alpha1.BenchmarkRunStatus{Phase: v1alpha1.BenchmarkPhaseSucceeded, Stages: []v1alpha1.StageResult{
				succeededIngest(1<<30, 100<<20, 10*time.Second), succeededIngest(1<<30, 100<<20, 10*time.Second),
			}},
			want: "2 ingest stages",
		},
		{
			name: "nothing measured",
			st:   v1alpha1.BenchmarkRunStatus{Phase: v1alpha1.BenchmarkPhaseSucceeded, Stages: []v1alpha1.StageResult{succeededIngest(0, 0, 0)}},
			want: "nothing measured",
		},
	} {
		_, err := measure(tc.st)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: measure: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

func TestNewRun(t *testing.T) {
	o := options{clients: 3, parallelPuts: 2, fileSize: resource.MustParse("256Mi"), runTimeout: 15 * time.Minute}
	run := newRun(o, slot{rate: "10gbit", repetition: 2})
	if run.Name != "ingest-10gbit-r2" || run.Namespace != namespace || run.Spec.ClusterRef.Name != clusterName {
		t.Errorf("run %s/%s on %s", run.Namespace, run.Name, run.Spec.ClusterRef.Name)
	}
	w := run.Spec.Ingest
	if w == nil || w.Clients != 3 || w.ParallelPuts != 2 || w.FileSize.Cmp(resource.MustParse("256Mi")) != 0 {
		t.Errorf("ingest workload %+v", w)
	}
	if run.Spec.Repetitions != 1 || run.Spec.Deadline.Duration != 15*time.Minute {
		t.Errorf("repetitions %d, deadline %s", run.Spec.Repetitions, run.Spec.Deadline.Duration)
	}
}
