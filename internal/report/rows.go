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
}

// rows are the stage table's lines: each stage's runs in the order of c.Runs, then
// the totals.
func rows(c *Comparison) []row {
	var out []row
	for _, s := range c.Stages {
		for i, r := range s.Results {
			out = append(out, row{Label: firstOnly(i, string(s.Stage)), Result: r})
		}
	}
	for i, r := range c.Total.Results {
		out = append(out, row{Label: firstOnly(i, "total"), Total: true, Result: r})
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
