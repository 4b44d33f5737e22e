package report

import (
	"maps"
	"slices"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// measurements are a run's stage results in the repetitions whose measured stages
// all succeeded. Those are the repetitions status.summary takes its medians over, so
// the spread shown around a median is that of the same repetitions.
type measurements struct {
	repetitions []int32
	results     map[int32]map[v1alpha1.BenchmarkStage]v1alpha1.StageResult
}

func measure(run *v1alpha1.BenchmarkRun) measurements {
	byRepetition := map[int32]map[v1alpha1.BenchmarkStage]v1alpha1.StageResult{}
	for _, r := range run.Status.Stages {
		if r.Phase != v1alpha1.StagePhaseSucceeded {
			continue
		}
		stages := byRepetition[r.Repetition]
		if stages == nil {
			stages = map[v1alpha1.BenchmarkStage]v1alpha1.StageResult{}
			byRepetition[r.Repetition] = stages
		}
		// The operator summarises the first success of a stage; so does the spread.
		if _, seen := stages[r.Stage]; !seen {
			stages[r.Stage] = r
		}
	}

	m := measurements{results: byRepetition}
	for _, rep := range slices.Sorted(maps.Keys(byRepetition)) {
		complete := true
		for _, s := range run.Status.Summary.Stages {
			if _, ok := byRepetition[rep][s.Stage]; !ok {
				complete = false
			}
		}
		if complete {
			m.repetitions = append(m.repetitions, rep)
		}
	}
	return m
}
