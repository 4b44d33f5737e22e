package report

import (
	"time"
)

// row is one line of a stage table: one run's result for a stage or the total.
type row struct {
	// Label names the stage on the first run's row of each stage and is empty on the
	// others, so that a stage's runs read as one group.
	Label  string
	Total  bool
	Result Result
	// Run is the run's place among the runs, the index of its Run or Point.
	Run int
}

// rows are a stage table's lines: each stage's runs in the order of the results, then
// the totals.
func rows(stages []Stage, total Total) []row {
	var out []row
	for _, s := range stages {
		for i, r := range s.Results {
			out = append(out, row{Label: firstOnly(i, string(s.Stage)), Result: r, Run: i})
		}
	}
	for i, r := range total.Results {
		out = append(out, row{Label: firstOnly(i, "total"), Total: true, Result: r, Run: i})
	}
	return out
}

func firstOnly(i int, label string) string {
	if i == 0 {
		return label
	}
	return ""
}

// completedText is when a run completed, in UTC so that reports made in different
// places agree.
func completedText(r Run) string {
	if r.CompletionTime == nil {
		return ""
	}
	return r.CompletionTime.UTC().Format(time.RFC3339)
}

// legendText names a run with what it ran on, for legends: "terasort-ceph (CephFS,
// 3x raw)".
func legendText(r Run) string {
	return r.Label + " (" + r.Storage + ")"
}
