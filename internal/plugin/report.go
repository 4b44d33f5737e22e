package plugin

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/report"
)

func newReportCommand(o *Options) *cobra.Command {
	var out, selector string
	var series bool
	cmd := &cobra.Command{
		Use:   "report (RUN [RUN...] | -l SELECTOR) --out DIR [--series]",
		Short: "Write a comparison of BenchmarkRuns, or a series of them, as Markdown, HTML and charts (SVG and PNG)",
		Long: `report writes what compare prints, for a page or a slide: report.md and report.html with
the table, and stage-times and throughput bar charts, one bar per run, as SVG and PNG.
The same runs are refused for the same reasons as by compare. Files in DIR with those
names are replaced; nothing else in DIR is touched.

With --series, report draws how the runs' times and throughputs grow with the one
workload parameter they differ in, such as TeraSort's rows, TestDFSIO's files or
fileSize, or ingest's clients, parallelPuts or fileSize: report.md and report.html
with a table of each stage's median and repetitions at each value, and the
series-stage-times and series-throughput line charts, the parameter along the
bottom, a line through each stage's medians and a ring for every repetition. The
runs must have succeeded on one storage and have done the same work by compare's
rules but for that parameter, one run per value; runs that differ in no parameter,
in more than one, or in one a series cannot vary (the NodeManagers, the network) are
refused with the parameters and their values named.

-l selects the runs by label in the namespace of -n, in place of naming them: for a
comparison, the oldest is the first, the reference.`,
		Example: `  # Three TeraSorts of 1, 10 and 100 million rows, labelled series=terasort-rows
  kubectl hadoopceph report -l series=terasort-rows --series --out report/`,
		Args: cobra.ArbitraryArgs,
	}
	cmd.Flags().StringVar(&out, "out", "", "Directory to write the report into (created if missing).")
	cmd.Flags().StringVarP(&selector, "selector", "l", "", "Take the BenchmarkRuns whose labels match this selector (key=value,...), in place of RUN arguments.")
	cmd.Flags().BoolVar(&series, "series", false, "Draw the runs as a series against the one workload parameter they differ in, rather than side by side.")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if out == "" {
			return errors.New("--out: name the directory to write the report into")
		}
		runs, err := o.reportRuns(cmd.Context(), args, selector, series)
		if err != nil {
			return err
		}
		write := writeComparison
		if series {
			write = writeSeries
		}
		files, err := write(out, runs)
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

func writeComparison(dir string, runs []v1alpha1.BenchmarkRun) ([]string, error) {
	c, err := report.Build(runs)
	if err != nil {
		return nil, err
	}
	return report.Write(dir, c)
}

func writeSeries(dir string, runs []v1alpha1.BenchmarkRun) ([]string, error) {
	s, err := report.BuildSeries(runs)
	if err != nil {
		return nil, err
	}
	return report.WriteSeries(dir, s)
}

// reportRuns are the runs that args name, or that selector selects, oldest first.
func (o *Options) reportRuns(ctx context.Context, args []string, selector string, series bool) ([]v1alpha1.BenchmarkRun, error) {
	switch {
	case len(args) > 0 && selector != "":
		return nil, errors.New("name the BenchmarkRuns or select them with -l, not both")
	case len(args) == 0 && selector == "":
		return nil, errors.New("name at least one BenchmarkRun, or select them with -l")
	}
	c, ns, err := o.connect()
	if err != nil {
		return nil, err
	}
	if selector == "" {
		return getRuns(ctx, c, ns, args)
	}
	runs, err := selectRuns(ctx, c, ns, selector)
	if err != nil {
		return nil, err
	}
	if series {
		if err := twoSucceeded(runs, ns, selector); err != nil {
			return nil, err
		}
	}
	return runs, nil
}

// selectRuns lists the runs in namespace whose labels match selector, oldest first, as
// `runs` shows them and as a study ran them.
func selectRuns(ctx context.Context, c client.Client, namespace, selector string) ([]v1alpha1.BenchmarkRun, error) {
	sel, err := labels.Parse(selector)
	if err != nil {
		return nil, fmt.Errorf("-l %s: %w", selector, err)
	}
	var list v1alpha1.BenchmarkRunList
	if err := c.List(ctx, &list, client.InNamespace(namespace), client.MatchingLabelsSelector{Selector: sel}); err != nil {
		return nil, fmt.Errorf("listing BenchmarkRuns: %w", err)
	}
	if len(list.Items) == 0 {
		return nil, fmt.Errorf("no BenchmarkRun in namespace %s matches -l %s", namespace, selector)
	}
	slices.SortStableFunc(list.Items, func(a, b v1alpha1.BenchmarkRun) int {
		return cmp.Or(a.CreationTimestamp.Compare(b.CreationTimestamp.Time), strings.Compare(a.Name, b.Name))
	})
	return list.Items, nil
}

// twoSucceeded refuses a selection with fewer than the two succeeded runs a series
// needs, naming what it selected, so that a run still going or failed is seen at once.
func twoSucceeded(runs []v1alpha1.BenchmarkRun, namespace, selector string) error {
	succeeded := 0
	found := make([]string, len(runs))
	for i, r := range runs {
		if r.Status.Phase == v1alpha1.BenchmarkPhaseSucceeded {
			succeeded++
		}
		found[i] = r.Name + " " + cmp.Or(string(r.Status.Phase), "with no phase yet")
	}
	if succeeded >= 2 {
		return nil
	}
	noun := "BenchmarkRuns"
	if len(runs) == 1 {
		noun = "BenchmarkRun"
	}
	return fmt.Errorf("-l %s selects %d %s in namespace %s (%s), of which %d succeeded: a series needs at least two that succeeded",
		selector, len(runs), noun, namespace, strings.Join(found, ", "), succeeded)
}
