package report

import (
	"fmt"
	"strings"
)

// Markdown is c as a page for a repository or a wiki: the runs, the stage table and
// the charts, which it expects next to it as Write writes them.
func Markdown(c *Comparison) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: %s\n\n", md(string(c.Workload)), md(strings.Join(runNames(c), " vs ")))
	fmt.Fprintf(&b, "%s\n\n", md(explanation(c)))

	b.WriteString("## Runs\n\n")
	fmt.Fprintf(&b, "| %s |\n| %s |\n", runHeader, runAlignment)
	for _, r := range c.Runs {
		fmt.Fprintf(&b, "| %s |\n", runCells(r))
	}

	b.WriteString("\n## Stages\n\n")
	b.WriteString("| Stage | Run | Median | Min–max | Repetitions (s) | Throughput | Time ratio | Throughput ratio |\n")
	b.WriteString("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, row := range rows(c.Stages, c.Total) {
		r := row.Result
		if !r.Measured {
			fmt.Fprintf(&b, "| %s | %s | %s | | |\n", stageLabel(row), md(r.Run), figureCells(r))
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", stageLabel(row), md(r.Run), figureCells(r), r.DurationRatio, r.ThroughputRatio)
	}
	writeEnd(&b, c.Total, c.Notes, comparisonCharts)
	return []byte(b.String())
}

// The columns of a run in the pages' tables of runs.
const (
	runHeader    = "Run | Namespace | Cluster | Storage backend | Storage | Repetitions | Completed"
	runAlignment = "--- | --- | --- | --- | --- | ---: | ---"
)

func runCells(r Run) string {
	return fmt.Sprintf("%s | %s | %s | %s | %s | %d | %s", md(r.Name), md(r.Namespace), md(r.Cluster), md(r.StorageBackend), md(r.Storage), r.Repetitions, completedText(r))
}

// figureCells are a result's median, spread, repetitions and throughput, or "not
// measured" and empty cells.
func figureCells(r Result) string {
	if !r.Measured {
		return "not measured | | |"
	}
	return fmt.Sprintf("%s | %s | %s | %s", secondsText(r.MedianSeconds), spreadText(r), repetitionsText(r), r.Throughput)
}

// stageLabel is a row's stage, the total's in bold.
func stageLabel(r row) string {
	label := md(r.Label)
	if r.Total && label != "" {
		label = "**" + label + "**"
	}
	return label
}

// writeEnd writes what follows a page's stage table: what the total sums, the notes,
// and the charts.
func writeEnd(b *strings.Builder, total Total, notes []string, charts []pageChart) {
	if len(total.Stages) > 0 {
		fmt.Fprintf(b, "\nThe total is the sum of the medians of %s.\n", md(stageList(total.Stages)))
	}
	if len(notes) > 0 {
		b.WriteString("\n## Notes\n\n")
		for _, n := range notes {
			fmt.Fprintf(b, "- %s\n", md(n))
		}
	}
	b.WriteString("\n## Charts\n")
	for _, c := range charts {
		fmt.Fprintf(b, "\n![%s](%s)\n", md(c.Caption), c.SVG)
	}
}

// md escapes the characters that Markdown would read as markup or as a table's cell
// boundary: names come from the cluster and notes from the operator's words.
func md(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>|#", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
