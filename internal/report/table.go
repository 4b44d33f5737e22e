package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteTable prints c as kubectl prints tables: the runs, then one line per stage and
// run, so that any number of runs fits 120 columns and a stage's runs stand one under
// the other. Spread is the minimum to maximum over the repetitions.
func WriteTable(w io.Writer, c *Comparison) error {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 8, 3, ' ', 0)
	fmt.Fprintf(tw, "%s, ratios over %s: time below 1.00x and throughput above 1.00x are faster.\n\n", c.Workload, c.Reference)

	fmt.Fprintln(tw, "RUN\tCLUSTER\tSTORAGE BACKEND\tSTORAGE\tREPETITIONS\tCOMPLETED")
	for _, r := range c.Runs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", r.Label, r.Cluster, r.StorageBackend, r.Storage, r.Repetitions, completedText(r))
	}
	fmt.Fprintln(tw)

	fmt.Fprintln(tw, "STAGE\tRUN\tMEDIAN\tMIN–MAX\tTHROUGHPUT\tTIME RATIO\tTHROUGHPUT RATIO")
	for _, row := range rows(c.Stages, c.Total) {
		r := row.Result
		if !r.Measured {
			// Every cell, empty ones too, or tabwriter would end the columns here.
			fmt.Fprintf(tw, "%s\t%s\tnot measured\t\t\t\t\n", row.Label, r.Run)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", row.Label, r.Run, secondsText(r.MedianSeconds), spreadText(r), r.Throughput, r.DurationRatio, r.ThroughputRatio)
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	var out strings.Builder
	// tabwriter pads empty trailing cells, such as the total's throughput.
	for line := range strings.Lines(buf.String()) {
		out.WriteString(strings.TrimRight(line, " \n") + "\n")
	}
	for i, n := range c.Notes {
		if i == 0 {
			out.WriteString("\n")
		}
		out.WriteString("Note: " + n + "\n")
	}
	_, err := io.WriteString(w, out.String())
	return err
}
