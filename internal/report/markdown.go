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
	b.WriteString("| Run | Namespace | Cluster | Storage backend | Storage | Repetitions | Completed |\n")
	b.WriteString("| --- | --- | --- | --- | --- | ---: | --- |\n")
	for _, r := range c.Runs {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d | %s |\n", md(r.Name), md(r.Namespace), md(r.Cluster), md(r.StorageBackend), md(r.Storage), r.Repetitions, completedText(r))
	}

	b.WriteString("\n## Stages\n\n")
	b.WriteString("| Stage | Run | Median | Min–max | Repetitions (s) | Throughput | Time ratio | Throughput ratio |\n")
	b.WriteString("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, row := range rows(c) {
		label := md(row.Label)
		if row.Total && label != "" {
			label = "**" + label + "**"
		}
		r := row.Result
		if !r.Measured {
			fmt.Fprintf(&b, "| %s | %s | not measured | | | | | |\n", label, md(r.Run))
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", label, md(r.Run), secondsText(r.MedianSeconds), spreadText(r), repetitionsText(r), r.Throughput, r.DurationRatio, r.ThroughputRatio)
	}
	if len(c.Total.Stages) > 0 {
		fmt.Fprintf(&b, "\nThe total is the sum of the medians of %s.\n", md(stageList(c.Total.Stages)))
	}

	if len(c.Notes) > 0 {
		b.WriteString("\n## Notes\n\n")
		for _, n := range c.Notes {
			fmt.Fprintf(&b, "- %s\n", md(n))
		}
	}

	b.WriteString("\n## Charts\n\n")
	fmt.Fprintf(&b, "![%s](%s.svg)\n\n", md(stageTimesCaption), stageTimesFile)
	fmt.Fprintf(&b, "![%s](%s.svg)\n", md(throughputCaption), throughputFile)
	return []byte(b.String())
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
