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
	return "cannot compare the BenchmarkRuns: " + strings.Join(problemTexts(e.Problems), "; ")
}

// problemTexts name each run and why it was refused.
func problemTexts(problems []Problem) []string {
	parts := make([]string, len(problems))
	for i, p := range problems {
		parts[i] = "BenchmarkRun " + p.Run + " " + p.Reason
	}
	return parts
}

// check refuses runs that have not succeeded, that run another workload than the
// first, or whose parameters differ from the first's by benchmark.CheckComparable, the
// rules of a run's baseline. It returns each run's comparability with the first, whose
// unknown parameters the notes name.
func check(runs []v1alpha1.BenchmarkRun, labels []string) ([]benchmark.Comparability, error) {
	comparabilities := make([]benchmark.Comparability, len(runs))
	problems := admit(runs, labels, func(i int) []Problem {
		c := benchmark.CheckComparable(&runs[i], &runs[0])
		comparabilities[i] = c
		if c.Comparable() {
			return nil
		}
		return []Problem{{Run: labels[i], Reason: differ(labels[0], c.Differences), Differences: c.Differences}}
	})
	if len(problems) > 0 {
		return nil, &NotComparableError{Reference: labels[0], Problems: problems}
	}
	return comparabilities, nil
}

// admit refuses what no line-up of runs takes: a run named twice, one that has not
// succeeded or has no summary, and one of another workload than the first. For each
// later run whose parameters can be set against the first's, it asks compare for the
// run's problems with them, so that the problems come in the order of the runs.
func admit(runs []v1alpha1.BenchmarkRun, labels []string, compare func(i int) []Problem) []Problem {
	workload := benchmark.Workload(&runs[0].Spec)
	var problems []Problem
	seen := map[string]bool{}
	for i := range runs {
		run := &runs[i]
		key := run.Namespace + "/" + run.Name
		if seen[key] {
			problems = append(problems, Problem{Run: labels[i], Reason: "is named twice: compare a run once"})
			continue
		}
		seen[key] = true
		switch {
		case run.Status.Phase != v1alpha1.BenchmarkPhaseSucceeded:
			problems = append(problems, Problem{Run: labels[i], Reason: notSucceeded(run.Status.Phase)})
		case run.Status.Summary == nil || len(run.Status.Summary.Stages) == 0:
			problems = append(problems, Problem{Run: labels[i], Reason: "has no status.summary: no repetition measured every stage"})
		}
		if i == 0 {
			continue
		}
		// Parameters of different workloads cannot be set side by side.
		if w := benchmark.Workload(&run.Spec); w != workload {
			problems = append(problems, Problem{Run: labels[i], Reason: fmt.Sprintf("runs workload %s, not %s as %s does", orNone(string(w)), orNone(string(workload)), labels[0])})
			continue
		}
		problems = append(problems, compare(i)...)
	}
	return problems
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
