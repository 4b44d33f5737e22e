package plugin

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/report"
)

func newReportCommand(o *Options) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "report RUN [RUN...] --out DIR",
		Short: "Write a comparison of BenchmarkRuns as Markdown, HTML and bar charts (SVG and PNG)",
		Long: `report writes what compare prints, for a page or a slide: report.md and report.html with
the table, and stage-times and throughput bar charts, one bar per run, as SVG and PNG.
The same runs are refused for the same reasons as by compare. Files in DIR with those
names are replaced; nothing else in DIR is touched.`,
		Args: cobra.MinimumNArgs(1),
	}
	cmd.Flags().StringVar(&out, "out", "", "Directory to write the report into (created if missing).")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if out == "" {
			return fmt.Errorf("--out: name the directory to write the report into")
		}
		cmp, err := o.comparison(cmd.Context(), args)
		if err != nil {
			return err
		}
		files, err := report.Write(out, cmp)
		if err != nil {
			return err
		}
		for _, f := range files {
			if _, err := fmt.Fprintln(o.Streams.Out, f); err != nil {
				return err
			}
		}
		return nil
	}
	return cmd
}
