package report

import (
	"errors"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
)

// Comparison is runs of one workload side by side, stage by stage, with ratios over
// the first run, the reference. Durations are seconds and throughputs bytes per
// second, so that -o json and -o yaml can be read by tools.
type Comparison struct {
	Workload v1alpha1.BenchmarkWorkload `json:"workload"`
	// Reference is the name of the run the ratios are over: the first.
	Reference string `json:"reference"`
	Runs      []Run  `json:"runs"`
	// Stages are the stages any run measured, in the order they run.
	Stages []Stage `json:"stages"`
	Total  Total   `json:"total"`
	// Notes are what a reader needs to know to trust the figures: repetitions that
	// failed, stages not every run measured, parameters that could not be compared.
	Notes []string `json:"notes,omitempty"`
}

// Run is one of the compared BenchmarkRuns and what it ran on.
type Run struct {
	// Label is how the tables and charts name the run: its name, or namespace/name
	// when the compared runs are in more than one namespace.
	Label     string `json:"label"`
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
	// Cluster is the HadoopCluster, as status.setup recorded it.
	Cluster string `json:"cluster,omitempty"`
	// StorageBackend is the StorageBackend's name, and Storage what it is, such as
	// "CephFS, 3x raw" or "HDFS, replication 3".
	StorageBackend string `json:"storageBackend,omitempty"`
	Storage        string `json:"storage"`
	// Repetitions that succeeded, which the medians and spreads are of.
	Repetitions    int32        `json:"repetitions"`
	CompletionTime *metav1.Time `json:"completionTime,omitempty"`
}

// Stage is one stage, with one result per run in the order of Comparison.Runs.
type Stage struct {
	Stage   v1alpha1.BenchmarkStage `json:"stage"`
	Results []Result                `json:"results"`
}

// Total is the sum of the stage medians of each run, over the stages every run
// measured, so that the totals of all runs measure the same work.
type Total struct {
	Stages  []v1alpha1.BenchmarkStage `json:"stages"`
	Results []Result                  `json:"results"`
}

// Result is one run's figures for a stage, or for the total.
type Result struct {
	Run string `json:"run"`
	// Measured is false for a stage the run did not measure, such as teravalidate
	// in a run with validate: false; the result then has no figures.
	Measured bool `json:"measured"`
	// MedianSeconds is the operator's median from status.summary; MinSeconds and
	// MaxSeconds bound the repetitions it is the median of.
	MedianSeconds float64      `json:"medianSeconds,omitempty"`
	MinSeconds    float64      `json:"minSeconds,omitempty"`
	MaxSeconds    float64      `json:"maxSeconds,omitempty"`
	Repetitions   []Repetition `json:"repetitions,omitempty"`
	// BytesPerSecond is the median throughput, and Throughput the same as the
	// operator shows it, such as "212.40 MiB/s". The total has none: its stages
	// move different bytes.
	BytesPerSecond int64  `json:"bytesPerSecond,omitempty"`
	Throughput     string `json:"throughput,omitempty"`
	// DurationRatio is this run's median time over the reference's, such as
	// "0.93x" (below 1.00x is faster), and ThroughputRatio its median throughput
	// over the reference's (above 1.00x is faster). Empty when either is missing.
	DurationRatio   string `json:"durationRatio,omitempty"`
	ThroughputRatio string `json:"throughputRatio,omitempty"`
}

// Repetition is one repetition's figures for a stage, or its total.
type Repetition struct {
	Repetition     int32   `json:"repetition"`
	Seconds        float64 `json:"seconds"`
	BytesPerSecond int64   `json:"bytesPerSecond,omitempty"`
}

// Build lines runs up side by side; the first is the reference for ratios. Runs that
// have not succeeded, run another workload, or did other work than the first (by
// the operator's rules for baselines) are refused with a *NotComparableError.
func Build(runs []v1alpha1.BenchmarkRun) (*Comparison, error) {
	if len(runs) == 0 {
		return nil, errors.New("no BenchmarkRun to compare: name at least one")
	}
	labels := runLabels(runs)
	comparabilities, err := check(runs, labels)
	if err != nil {
		return nil, err
	}
	ref := &runs[0]
	c := &Comparison{Workload: benchmark.Workload(&ref.Spec), Reference: labels[0]}
	for i := range runs {
		c.Runs = append(c.Runs, describe(&runs[i], labels[i]))
	}
	c.Stages, c.Total = lineUp(runs, labels, ref)
	c.Notes = notes(runs, labels, stageOrder(runs), c.Total.Stages, comparabilities)
	return c, nil
}

// lineUp is each stage's results, one per run in the order of runs, and the totals
// over the stages every run measured, with ratios over ref; without ref, none.
func lineUp(runs []v1alpha1.BenchmarkRun, labels []string, ref *v1alpha1.BenchmarkRun) ([]Stage, Total) {
	measured := make([]measurements, len(runs))
	for i := range runs {
		measured[i] = measure(&runs[i])
	}
	var stages []Stage
	order := stageOrder(runs)
	for _, stage := range order {
		row := Stage{Stage: stage}
		for i := range runs {
			row.Results = append(row.Results, stageResult(&runs[i], labels[i], measured[i], ref, stage))
		}
		stages = append(stages, row)
	}
	t := Total{Stages: commonStages(runs, order)}
	for i := range runs {
		t.Results = append(t.Results, total(labels[i], measured[i], &runs[i], ref, t.Stages))
	}
	return stages, t
}

// describe is what a run is and what it ran on. The cluster and storage come from
// status.setup, which records them as they were: the HadoopCluster and its
// StorageBackend may have changed since.
func describe(run *v1alpha1.BenchmarkRun, label string) Run {
	r := Run{
		Label:          label,
		Name:           run.Name,
		Namespace:      run.Namespace,
		Cluster:        run.Spec.ClusterRef.Name,
		Storage:        storageText(run.Status.Setup),
		Repetitions:    run.Status.Summary.Repetitions,
		CompletionTime: run.Status.CompletionTime,
	}
	if s := run.Status.Setup; s != nil {
		r.Cluster, r.StorageBackend = s.Cluster, s.Storage.Backend
	}
	return r
}

// stageOrder is every stage any run measured, in the order they run. Runs of one
// workload only leave out trailing stages (teravalidate, dfsio-read), so the order
// in which the stages first appear is the order they run in.
func stageOrder(runs []v1alpha1.BenchmarkRun) []v1alpha1.BenchmarkStage {
	var order []v1alpha1.BenchmarkStage
	seen := map[v1alpha1.BenchmarkStage]bool{}
	for i := range runs {
		for _, s := range runs[i].Status.Summary.Stages {
			if !seen[s.Stage] {
				seen[s.Stage] = true
				order = append(order, s.Stage)
			}
		}
	}
	return order
}

// commonStages are the stages of order that every run measured.
func commonStages(runs []v1alpha1.BenchmarkRun, order []v1alpha1.BenchmarkStage) []v1alpha1.BenchmarkStage {
	var common []v1alpha1.BenchmarkStage
	for _, stage := range order {
		all := true
		for i := range runs {
			if summaryOf(&runs[i], stage) == nil {
				all = false
			}
		}
		if all {
			common = append(common, stage)
		}
	}
	return common
}

// stageResult is run's figures for stage, with ratios over ref; without ref, none.
func stageResult(run *v1alpha1.BenchmarkRun, label string, m measurements, ref *v1alpha1.BenchmarkRun, stage v1alpha1.BenchmarkStage) Result {
	res := Result{Run: label}
	s := summaryOf(run, stage)
	if s == nil {
		return res
	}
	res.Measured = true
	res.MedianSeconds = seconds(s.Duration)
	res.BytesPerSecond = s.BytesPerSecond
	res.Throughput = benchmark.FormatThroughput(s.BytesPerSecond)
	for _, rep := range m.repetitions {
		r := m.results[rep][stage]
		res.Repetitions = append(res.Repetitions, Repetition{Repetition: rep, Seconds: seconds(r.Duration), BytesPerSecond: r.BytesPerSecond})
	}
	res.MinSeconds, res.MaxSeconds = spread(res.Repetitions)

	if ref == nil {
		return res
	}
	if b := summaryOf(ref, stage); b != nil {
		res.DurationRatio = ratio(milliseconds(s.Duration), milliseconds(b.Duration))
		res.ThroughputRatio = ratio(s.BytesPerSecond, b.BytesPerSecond)
	}
	return res
}

// total sums a run's stage medians over stages, and each repetition's durations of
// them for the spread; with ref, the ratio is of the sums.
func total(label string, m measurements, run, ref *v1alpha1.BenchmarkRun, stages []v1alpha1.BenchmarkStage) Result {
	res := Result{Run: label, Measured: len(stages) > 0}
	if !res.Measured {
		return res
	}
	sum := medianSum(run, stages)
	res.MedianSeconds = sum.Seconds()
	for _, rep := range m.repetitions {
		var d time.Duration
		for _, stage := range stages {
			d += durationOf(m.results[rep][stage].Duration)
		}
		res.Repetitions = append(res.Repetitions, Repetition{Repetition: rep, Seconds: d.Seconds()})
	}
	res.MinSeconds, res.MaxSeconds = spread(res.Repetitions)
	if ref != nil {
		res.DurationRatio = ratio(sum.Milliseconds(), medianSum(ref, stages).Milliseconds())
	}
	return res
}

// medianSum is the sum of run's medians of stages, which it all measured.
func medianSum(run *v1alpha1.BenchmarkRun, stages []v1alpha1.BenchmarkStage) time.Duration {
	var sum time.Duration
	for _, stage := range stages {
		sum += summaryOf(run, stage).Duration.Duration
	}
	return sum
}

// summaryOf is run's median of stage, nil when it has none; Build checked that every
// run has a summary.
func summaryOf(run *v1alpha1.BenchmarkRun, stage v1alpha1.BenchmarkStage) *v1alpha1.StageSummary {
	for i, s := range run.Status.Summary.Stages {
		if s.Stage == stage && s.Duration != nil {
			return &run.Status.Summary.Stages[i]
		}
	}
	return nil
}

func spread(reps []Repetition) (lo, hi float64) {
	for i, r := range reps {
		if i == 0 || r.Seconds < lo {
			lo = r.Seconds
		}
		if i == 0 || r.Seconds > hi {
			hi = r.Seconds
		}
	}
	return lo, hi
}

func durationOf(d *metav1.Duration) time.Duration {
	if d == nil {
		return 0
	}
	return d.Duration
}

func seconds(d *metav1.Duration) float64 { return durationOf(d).Seconds() }

func milliseconds(d *metav1.Duration) int64 { return durationOf(d).Milliseconds() }
