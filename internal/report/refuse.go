package report

import (
	"fmt"
	"strings"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
)

// NotComparableError refuses runs whose ratios would mean nothing, naming each run
// and why.
type NotComparableError struct {
	// Reference is the first run, which the others are compared with.
	Reference string
	Problems  []Problem
}

// Problem is why one run cannot be compared.
type Problem struct {
	Run    string
	Reason string
	// Differences are the parameters in which the run did other work than the
	// reference, this run's value first, as in status.baseline.differences.
	Differences []v1alpha1.BaselineDifference
}

func (e *NotComparableError) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = "BenchmarkRun " + p.Run + " " + p.Reason
	}
	return "cannot compare the BenchmarkRuns: " + strings.Join(parts, "; ")
}

// check refuses runs that have not succeeded, that run another workload than the
// first, or whose parameters differ from the first's by benchmark.CheckComparable, the
// rules of a run's baseline. It returns each run's comparability with the first, whose
// unknown parameters the notes name.
func check(runs []v1alpha1.BenchmarkRun, labels []string) ([]benchmark.Comparability, error) {
	ref := &runs[0]
	workload := benchmark.Workload(&ref.Spec)
	comparabilities := make([]benchmark.Comparability, len(runs))
	e := &NotComparableError{Reference: labels[0]}
	seen := map[string]bool{}
	for i := range runs {
		run := &runs[i]
		key := run.Namespace + "/" + run.Name
		if seen[key] {
			e.Problems = append(e.Problems, Problem{Run: labels[i], Reason: "is named twice: compare a run once"})
			continue
		}
		seen[key] = true
		switch {
		case run.Status.Phase != v1alpha1.BenchmarkPhaseSucceeded:
			e.Problems = append(e.Problems, Problem{Run: labels[i], Reason: notSucceeded(run.Status.Phase)})
		case run.Status.Summary == nil || len(run.Status.Summary.Stages) == 0:
			e.Problems = append(e.Problems, Problem{Run: labels[i], Reason: "has no status.summary: no repetition measured every stage"})
		}
		if i == 0 {
			continue
		}
		// Parameters of different workloads cannot be set side by side.
		if w := benchmark.Workload(&run.Spec); w != workload {
			e.Problems = append(e.Problems, Problem{Run: labels[i], Reason: fmt.Sprintf("runs workload %s, not %s as %s does", orNone(string(w)), orNone(string(workload)), labels[0])})
			continue
		}
		c := benchmark.CheckComparable(run, ref)
		comparabilities[i] = c
		if !c.Comparable() {
			e.Problems = append(e.Problems, Problem{Run: labels[i], Reason: differ(labels[0], c.Differences), Differences: c.Differences})
		}
	}
	if len(e.Problems) > 0 {
		return nil, e
	}
	return comparabilities, nil
}

func notSucceeded(phase v1alpha1.BenchmarkPhase) string {
	if phase == "" {
		return "has not succeeded: it has no status.phase yet"
	}
	return "has not succeeded: status.phase is " + string(phase)
}

// differ says what a run did other than the reference, in the words of the
// BaselineCompared condition.
func differ(reference string, differences []v1alpha1.BaselineDifference) string {
	parts := make([]string, len(differences))
	for i, d := range differences {
		parts[i] = d.Parameter + " " + d.Value + " vs " + d.BaselineValue
	}
	return fmt.Sprintf("did other work than %s (this run's value first): %s", reference, strings.Join(parts, ", "))
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
