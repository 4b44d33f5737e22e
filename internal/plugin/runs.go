package plugin

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
)

// RunRow is one BenchmarkRun as `runs` shows it.
type RunRow struct {
	Namespace   string                     `json:"namespace"`
	Name        string                     `json:"name"`
	Cluster     string                     `json:"cluster"`
	Workload    v1alpha1.BenchmarkWorkload `json:"workload"`
	Phase       v1alpha1.BenchmarkPhase    `json:"phase,omitempty"`
	Repetitions int32                      `json:"repetitions,omitempty"`
	// Stages are the summary's medians once a repetition has completed.
	Stages []RunStage `json:"stages,omitempty"`
	// Progress is where a run that has not ended is.
	Progress string `json:"progress,omitempty"`
	// Duration is the median of the repetitions' measured totals.
	Duration   *float64 `json:"durationSeconds,omitempty"`
	Throughput string   `json:"throughput,omitempty"`
	Baseline   string   `json:"baseline,omitempty"`
	// Ratio is the headline stage's throughput against the baseline's, or why there
	// is none.
	Ratio   string    `json:"ratio,omitempty"`
	Created time.Time `json:"created"`
}

// RunStage is one measured stage's median.
type RunStage struct {
	Stage           v1alpha1.BenchmarkStage `json:"stage"`
	DurationSeconds float64                 `json:"durationSeconds"`
	Throughput      string                  `json:"throughput,omitempty"`
}

func newRunsCommand(o *Options) *cobra.Command {
	var allNamespaces bool
	var cluster string
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List BenchmarkRuns with their stages, durations, throughput and ratio to the baseline",
		Args:  cobra.NoArgs,
	}
	output := outputFlag(cmd)
	cmd.Flags().BoolVarP(&allNamespaces, "all-namespaces", "A", false, "List the runs of every namespace.")
	cmd.Flags().StringVar(&cluster, "cluster", "", "Only the runs on this HadoopCluster.")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if err := checkOutput(*output); err != nil {
			return err
		}
		c, err := o.client()
		if err != nil {
			return err
		}
		var opts []client.ListOption
		if !allNamespaces {
			ns, err := o.namespace()
			if err != nil {
				return err
			}
			opts = append(opts, client.InNamespace(ns))
		}
		var list v1alpha1.BenchmarkRunList
		if err := c.List(cmd.Context(), &list, opts...); err != nil {
			return fmt.Errorf("listing BenchmarkRuns: %w", err)
		}
		runs := slices.DeleteFunc(list.Items, func(r v1alpha1.BenchmarkRun) bool {
			return cluster != "" && r.Spec.ClusterRef.Name != cluster
		})
		rows := RunRows(runs)
		if *output != outputTable {
			return printData(o.Streams.Out, *output, rows)
		}
		if len(rows) == 0 {
			_, err := fmt.Fprintln(o.Streams.ErrOut, "No BenchmarkRuns found.")
			return err
		}
		return WriteRuns(o.Streams.Out, rows, allNamespaces, time.Now())
	}
	return cmd
}

// RunRows describes runs, oldest first within each namespace, as kubectl get sorts by
// name but a benchmark history reads in time.
func RunRows(runs []v1alpha1.BenchmarkRun) []RunRow {
	rows := make([]RunRow, 0, len(runs))
	for i := range runs {
		rows = append(rows, runRow(&runs[i]))
	}
	slices.SortStableFunc(rows, func(a, b RunRow) int {
		return cmp.Or(strings.Compare(a.Namespace, b.Namespace), a.Created.Compare(b.Created), strings.Compare(a.Name, b.Name))
	})
	return rows
}

func runRow(run *v1alpha1.BenchmarkRun) RunRow {
	st := run.Status
	row := RunRow{
		Namespace: run.Namespace,
		Name:      run.Name,
		Cluster:   run.Spec.ClusterRef.Name,
		Workload:  cmp.Or(st.Workload, benchmark.Workload(&run.Spec)),
		Phase:     st.Phase,
		Created:   run.CreationTimestamp.UTC(),
	}
	if s := st.Summary; s != nil {
		row.Repetitions = s.Repetitions
		for _, stage := range s.Stages {
			rs := RunStage{Stage: stage.Stage, Throughput: stage.Throughput}
			if stage.Duration != nil {
				rs.DurationSeconds = roundTenth(stage.Duration.Seconds())
			}
			row.Stages = append(row.Stages, rs)
		}
		if s.Duration != nil {
			d := roundTenth(s.Duration.Seconds())
			row.Duration = &d
		}
		row.Throughput = s.Throughput
	}
	if p := st.Progress; p != nil && st.Phase != v1alpha1.BenchmarkPhaseSucceeded && st.Phase != v1alpha1.BenchmarkPhaseFailed {
		row.Progress = progressText(p)
	}
	if run.Spec.BaselineRef != nil {
		row.Baseline = run.Spec.BaselineRef.Name
	}
	if b := st.Baseline; b != nil {
		row.Ratio = b.Ratio
		if len(b.Differences) > 0 {
			row.Ratio = fmt.Sprintf("not comparable (%d differences)", len(b.Differences))
		}
	}
	return row
}

// progressText is a running run's place: step of steps, the stage and repetition, and
// the stage's percentage when YARN reports one.
func progressText(p *v1alpha1.BenchmarkProgress) string {
	text := fmt.Sprintf("%d/%d", p.Step, p.Steps)
	if p.Stage != "" {
		text += " " + string(p.Stage)
		if p.Repetition > 0 {
			text += fmt.Sprintf(" r%d", p.Repetition)
		}
	}
	if p.Percent != nil {
		text += fmt.Sprintf(" %d%%", *p.Percent)
	}
	return text
}

func roundTenth(v float64) float64 {
	return float64(int64(v*10+0.5)) / 10
}

// WriteRuns prints rows as a table. STAGES holds each measured stage's median, or the
// progress of a run that has not completed a repetition.
func WriteRuns(w io.Writer, rows []RunRow, withNamespace bool, now time.Time) error {
	tw := newTable(w)
	header := "NAME\tCLUSTER\tWORKLOAD\tPHASE\tREPS\tSTAGES\tDURATION\tTHROUGHPUT\tBASELINE\tRATIO\tAGE"
	if withNamespace {
		header = "NAMESPACE\t" + header
	}
	fmt.Fprintln(tw, header)
	for _, r := range rows {
		stages := make([]string, 0, len(r.Stages))
		for _, s := range r.Stages {
			stages = append(stages, fmt.Sprintf("%s=%.1fs", s.Stage, s.DurationSeconds))
		}
		stageCell := strings.Join(stages, ",")
		if r.Progress != "" {
			stageCell = r.Progress
		}
		duration := ""
		if r.Duration != nil {
			duration = fmt.Sprintf("%.1fs", *r.Duration)
		}
		reps := ""
		if r.Repetitions > 0 {
			reps = fmt.Sprint(r.Repetitions)
		}
		line := strings.Join([]string{
			r.Name, r.Cluster, string(r.Workload), orNone(string(r.Phase)), orNone(reps), orNone(stageCell),
			orNone(duration), orNone(r.Throughput), orNone(r.Baseline), orNone(r.Ratio), age(r.Created, now),
		}, "\t")
		if withNamespace {
			line = r.Namespace + "\t" + line
		}
		fmt.Fprintln(tw, line)
	}
	return tw.Flush()
}
