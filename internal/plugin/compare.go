package plugin

import (
	"github.com/spf13/cobra"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/report"
)

func newCompareCommand(o *Options) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "compare RUN [RUN...]",
		Short: "Stage times and throughputs of BenchmarkRuns side by side, with ratios to the first",
		Long: `compare lines up succeeded BenchmarkRuns of one workload: each stage's median time and
throughput per run, the spread over its repetitions, and ratios to the first run. Runs
whose parameters differ (rows, maps, reduces, output replication, NodeManager count and
resources) are refused with the differences named, as the operator refuses them as a
baseline, since their ratio would measure the difference rather than the storage. Runs
that have not succeeded are refused too.`,
		Args: cobra.MinimumNArgs(1),
	}
	output := outputFlag(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := checkOutput(*output); err != nil {
			return err
		}
		cmp, err := o.comparison(cmd.Context(), args)
		if err != nil {
			return err
		}
		if *output != outputTable {
			return printData(o.Streams.Out, *output, cmp)
		}
		return report.WriteTable(o.Streams.Out, cmp)
	}
	return cmd
}
