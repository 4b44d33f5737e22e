package benchmark

import (
	"slices"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// Step is one stage of one repetition, run by one Job.
type Step struct {
	Stage      v1alpha1.BenchmarkStage
	Repetition int32
}

// Workload is the workload spec sets; the API admits exactly one.
func Workload(spec *v1alpha1.BenchmarkRunSpec) v1alpha1.BenchmarkWorkload {
	switch {
	case spec.TeraSort != nil:
		return v1alpha1.WorkloadTeraSort
	case spec.TestDFSIO != nil:
		return v1alpha1.WorkloadTestDFSIO
	case spec.Ingest != nil:
		return v1alpha1.WorkloadIngest
	case spec.WordCount != nil:
		return v1alpha1.WorkloadWordCount
	case spec.Grep != nil:
		return v1alpha1.WorkloadGrep
	}
	return ""
}

// MeasuredStages are the stages of one repetition that status summarises, in the
// order they run.
func MeasuredStages(spec *v1alpha1.BenchmarkRunSpec) []v1alpha1.BenchmarkStage {
	switch Workload(spec) {
	case v1alpha1.WorkloadTeraSort:
		stages := []v1alpha1.BenchmarkStage{v1alpha1.StageTeraGen, v1alpha1.StageTeraSort}
		if v := spec.TeraSort.Validate; v == nil || *v {
			stages = append(stages, v1alpha1.StageTeraValidate)
		}
		return stages
	case v1alpha1.WorkloadTestDFSIO:
		// Write always runs first: read reads what write created.
		stages := []v1alpha1.BenchmarkStage{v1alpha1.StageDFSIOWrite}
		modes := spec.TestDFSIO.Modes
		if len(modes) == 0 {
			modes = []v1alpha1.DFSIOMode{v1alpha1.DFSIOWrite, v1alpha1.DFSIORead}
		}
		if slices.Contains(modes, v1alpha1.DFSIORead) {
			stages = append(stages, v1alpha1.StageDFSIORead)
		}
		return stages
	case v1alpha1.WorkloadIngest:
		return []v1alpha1.BenchmarkStage{v1alpha1.StageIngest}
	case v1alpha1.WorkloadWordCount:
		return []v1alpha1.BenchmarkStage{v1alpha1.StageWordCount}
	case v1alpha1.WorkloadGrep:
		return []v1alpha1.BenchmarkStage{v1alpha1.StageGrep}
	}
	return nil
}

// Plan is every step of a run in the order they run: each repetition's measured
// stages, then its cleanup when spec.cleanup is on. Progress counts these steps.
func Plan(spec *v1alpha1.BenchmarkRunSpec) []Step {
	measured := MeasuredStages(spec)
	if len(measured) == 0 {
		return nil
	}
	var steps []Step
	for rep := int32(1); rep <= repetitions(spec); rep++ {
		for _, s := range measured {
			steps = append(steps, Step{Stage: s, Repetition: rep})
		}
		if cleanup(spec) {
			steps = append(steps, Step{Stage: v1alpha1.StageCleanup, Repetition: rep})
		}
	}
	return steps
}

// repetitions reads spec.repetitions, which the API defaults to 1.
func repetitions(spec *v1alpha1.BenchmarkRunSpec) int32 {
	return max(spec.Repetitions, 1)
}

// cleanup reads spec.cleanup, which the API defaults to true.
func cleanup(spec *v1alpha1.BenchmarkRunSpec) bool {
	return spec.Cleanup == nil || *spec.Cleanup
}
