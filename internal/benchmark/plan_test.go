package benchmark

import (
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

func TestPlan(t *testing.T) {
	step := func(stage v1alpha1.BenchmarkStage, rep int32) Step { return Step{Stage: stage, Repetition: rep} }
	for _, tc := range []struct {
		name string
		spec v1alpha1.BenchmarkRunSpec
		want []Step
	}{
		{
			name: "TeraSort, two repetitions, each cleaned up",
			spec: v1alpha1.BenchmarkRunSpec{TeraSort: &v1alpha1.TeraSortWorkload{Rows: ptr.To[int64](1)}, Repetitions: 2},
			want: []Step{
				step(v1alpha1.StageTeraGen, 1), step(v1alpha1.StageTeraSort, 1), step(v1alpha1.StageTeraValidate, 1), step(v1alpha1.StageCleanup, 1),
				step(v1alpha1.StageTeraGen, 2), step(v1alpha1.StageTeraSort, 2), step(v1alpha1.StageTeraValidate, 2), step(v1alpha1.StageCleanup, 2),
			},
		},
		{
			name: "TeraSort without TeraValidate or cleanup",
			spec: v1alpha1.BenchmarkRunSpec{TeraSort: &v1alpha1.TeraSortWorkload{Rows: ptr.To[int64](1), Validate: ptr.To(false)}, Cleanup: ptr.To(false)},
			want: []Step{step(v1alpha1.StageTeraGen, 1), step(v1alpha1.StageTeraSort, 1)},
		},
		{
			name: "TestDFSIO with the default modes",
			spec: v1alpha1.BenchmarkRunSpec{TestDFSIO: &v1alpha1.TestDFSIOWorkload{Files: 1, FileSize: resource.MustParse("1Gi")}},
			want: []Step{step(v1alpha1.StageDFSIOWrite, 1), step(v1alpha1.StageDFSIORead, 1), step(v1alpha1.StageCleanup, 1)},
		},
		{
			name: "TestDFSIO read listed first still writes first",
			spec: v1alpha1.BenchmarkRunSpec{TestDFSIO: &v1alpha1.TestDFSIOWorkload{Modes: []v1alpha1.DFSIOMode{v1alpha1.DFSIORead, v1alpha1.DFSIOWrite}}, Cleanup: ptr.To(false)},
			want: []Step{step(v1alpha1.StageDFSIOWrite, 1), step(v1alpha1.StageDFSIORead, 1)},
		},
		{
			name: "TestDFSIO write only",
			spec: v1alpha1.BenchmarkRunSpec{TestDFSIO: &v1alpha1.TestDFSIOWorkload{Modes: []v1alpha1.DFSIOMode{v1alpha1.DFSIOWrite}}, Cleanup: ptr.To(false)},
			want: []Step{step(v1alpha1.StageDFSIOWrite, 1)},
		},
		{
			name: "ingest",
			spec: v1alpha1.BenchmarkRunSpec{Ingest: &v1alpha1.IngestWorkload{Clients: 1}},
			want: []Step{step(v1alpha1.StageIngest, 1), step(v1alpha1.StageCleanup, 1)},
		},
		{
			name: "WordCount leaves nothing to clean up but its output",
			spec: v1alpha1.BenchmarkRunSpec{WordCount: &v1alpha1.WordCountWorkload{InputPath: "/in"}, Repetitions: 1},
			want: []Step{step(v1alpha1.StageWordCount, 1), step(v1alpha1.StageCleanup, 1)},
		},
		{
			name: "Grep",
			spec: v1alpha1.BenchmarkRunSpec{Grep: &v1alpha1.GrepWorkload{InputPath: "/in", Pattern: "x"}, Cleanup: ptr.To(false)},
			want: []Step{step(v1alpha1.StageGrep, 1)},
		},
		{name: "no workload"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Plan(&tc.spec); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %v\nwant %v", got, tc.want)
			}
		})
	}
}

func TestRows(t *testing.T) {
	for _, tc := range []struct {
		w    v1alpha1.TeraSortWorkload
		want int64
	}{
		{w: v1alpha1.TeraSortWorkload{Rows: ptr.To[int64](42)}, want: 42},
		{w: v1alpha1.TeraSortWorkload{Size: ptr.To(resource.MustParse("1Ti"))}, want: 10995116277},
		{w: v1alpha1.TeraSortWorkload{Size: ptr.To(resource.MustParse("199"))}, want: 1},
		{w: v1alpha1.TeraSortWorkload{Size: ptr.To(resource.MustParse("1T"))}, want: 10000000000},
	} {
		if got := Rows(&tc.w); got != tc.want {
			t.Errorf("Rows(%+v) = %d, want %d", tc.w, got, tc.want)
		}
	}
}
