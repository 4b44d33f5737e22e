package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
)

// notes say what the figures do not show by themselves: fewer repetitions than a run
// asked for, stages the total leaves out, parameters that could not be compared, which
// the operator accepts for a baseline too, and those that differ only in what changes
// the figures on a busy node (flagged).
func notes(runs []v1alpha1.BenchmarkRun, labels []string, order, common []v1alpha1.BenchmarkStage, comparabilities []benchmark.Comparability) []string {
	var out []string
	for i := range runs {
		run := &runs[i]
		planned := max(run.Spec.Repetitions, 1)
		if got := run.Status.Summary.Repetitions; got < planned {
			out = append(out, fmt.Sprintf("%s: %d of %d repetitions measured every stage; its medians and spreads are of those.", labels[i], got, planned))
		}
	}
	for _, stage := range order {
		if slices.Contains(common, stage) {
			continue
		}
		var missing []string
		for i := range runs {
			if summaryOf(&runs[i], stage) == nil {
				missing = append(missing, labels[i])
			}
		}
		out = append(out, fmt.Sprintf("%s was not measured by %s; the total leaves it out.", stage, strings.Join(missing, ", ")))
	}
	for i, c := range comparabilities {
		if len(c.Unknown) > 0 {
			out = append(out, fmt.Sprintf("%s was compared with %s without %s: %s.",
				labels[i], labels[0], strings.Join(c.Unknown, ", "), c.UnknownBecause(func(run string) string { return run })))
		}
		for _, f := range c.Flagged {
			out = append(out, fmt.Sprintf("%s differs from %s in %s (%s against %s), which changes the figures only on a busy node.",
				labels[i], labels[0], f.Parameter, f.Value, f.BaselineValue))
		}
	}
	return out
}
