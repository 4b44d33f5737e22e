package report

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
)

// Series is runs of one workload that did the same work on the same storage but for
// one parameter of the workload, the dimension, such as TeraSort's rows: how stage
// times and throughputs grow with it, as the published studies drew them. Its stages
// and total are a Comparison's, with results in the order of Points and no ratios:
// the runs did different work, so a ratio would only restate the dimension.
type Series struct {
	Workload  v1alpha1.BenchmarkWorkload `json:"workload"`
	Dimension Dimension                  `json:"dimension"`
	// Points are the runs, smallest value first.
	Points []Point `json:"points"`
	// Stages are the stages any run measured, in the order they run.
	Stages []Stage `json:"stages"`
	Total  Total   `json:"total"`
	// Notes are what a reader needs to know to trust the figures, as a Comparison's.
	Notes []string `json:"notes,omitempty"`
}

// Dimension is the parameter that the runs of a series differ in.
type Dimension struct {
	// Parameter is the workload's parameter as the comparability rules and
	// status.baseline name it, such as "rows" or "fileSize".
	Parameter string `json:"parameter"`
	// Unit is what a point's value counts, such as "rows" or "MiB".
	Unit string `json:"unit"`
}

// AxisLabel is how the charts' horizontal axis names the dimension: its parameter,
// and its unit when that is another word, such as "fileSize (MiB)".
func (d Dimension) AxisLabel() string {
	if d.Unit == d.Parameter {
		return d.Parameter
	}
	return d.Parameter + " (" + d.Unit + ")"
}

// Point is one run of a series and its value of the dimension.
type Point struct {
	Run Run `json:"run"`
	// Value is in the dimension's unit; Text is the value as the comparability rules
	// show it, such as "1Gi".
	Value float64 `json:"value"`
	Text  string  `json:"text"`
}

// dimension is a parameter a series can vary, and how its value reads as a number.
type dimension struct {
	Dimension
	parse func(text string) (float64, error)
}

// dimensions are the parameters of each workload that a series can vary: those whose
// value is an amount of work or of parallelism. The others name other work
// (wordCount's inputPath, grep's pattern) or are the cluster's (NodeManagers, their
// limits, the network), which a series holds fixed as a comparison does.
var dimensions = map[v1alpha1.BenchmarkWorkload][]dimension{
	v1alpha1.WorkloadTeraSort: {
		{Dimension{"rows", "rows"}, count},
		{Dimension{"maps", "maps"}, count},
		{Dimension{"reduces", "reduces"}, count},
		{Dimension{"outputReplication", "replicas"}, count},
	},
	v1alpha1.WorkloadTestDFSIO: {
		{Dimension{"files", "files"}, count},
		{Dimension{"fileSize", "MiB"}, mebibytesOf},
	},
	v1alpha1.WorkloadIngest: {
		{Dimension{"clients", "clients"}, count},
		{Dimension{"parallelPuts", "puts per client"}, count},
		{Dimension{"fileSize", "MiB"}, mebibytesOf},
	},
}

func count(text string) (float64, error) {
	n, err := strconv.ParseInt(text, 10, 64)
	return float64(n), err
}

// mebibytesOf reads a quantity, the TestDFSIO and ingest unit's of file sizes.
func mebibytesOf(text string) (float64, error) {
	q, err := resource.ParseQuantity(text)
	if err != nil {
		return 0, err
	}
	return float64(q.Value()) / (1 << 20), nil
}

// NotASeriesError refuses runs that do not make a series: runs that could not be lined
// up at all, that ran on other storage, or that differ in no parameter, in more than
// one, or in one that a series cannot vary.
type NotASeriesError struct {
	// Reason is what is wrong with the runs together; empty when only single runs
	// are refused.
	Reason   string
	Problems []Problem
}

func (e *NotASeriesError) Error() string {
	var parts []string
	if e.Reason != "" {
		parts = append(parts, e.Reason)
	}
	parts = append(parts, problemTexts(e.Problems)...)
	return "cannot draw a series of the BenchmarkRuns: " + strings.Join(parts, "; ")
}

// BuildSeries lines runs up against the one workload parameter they differ in. The
// runs must have succeeded, run one workload on one storage, and do what the first
// does by the comparison's rules but for that parameter, each at another value of it;
// otherwise BuildSeries refuses them with a *NotASeriesError that names the
// parameters and their values.
func BuildSeries(runs []v1alpha1.BenchmarkRun) (*Series, error) {
	if len(runs) < 2 {
		return nil, fmt.Errorf("a series needs at least two BenchmarkRuns, not %d", len(runs))
	}
	labels := runLabels(runs)
	comparabilities := make([]benchmark.Comparability, len(runs))
	problems := admit(runs, labels, func(i int) []Problem {
		comparabilities[i] = benchmark.CheckComparable(&runs[i], &runs[0])
		// A run without a setup does not say its storage; the notes say what it does
		// not, as a comparison's do.
		got, want := runs[i].Status.Setup, runs[0].Status.Setup
		if got != nil && want != nil && storageName(got) != storageName(want) {
			return []Problem{{Run: labels[i], Reason: fmt.Sprintf("ran on %s, not on %s as %s did: a series is of one storage", storageName(got), storageName(want), labels[0])}}
		}
		return nil
	})
	if len(problems) > 0 {
		return nil, &NotASeriesError{Problems: problems}
	}
	workload := benchmark.Workload(&runs[0].Spec)
	dim, err := varied(workload, labels, comparabilities)
	if err != nil {
		return nil, err
	}
	points, err := place(runs, labels, comparabilities, dim)
	if err != nil {
		return nil, err
	}

	order := make([]int, len(runs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(points[a].Value, points[b].Value) })
	sorted := make([]v1alpha1.BenchmarkRun, len(runs))
	s := &Series{Workload: workload, Dimension: dim.Dimension}
	for i, o := range order {
		sorted[i] = runs[o]
		s.Points = append(s.Points, points[o])
	}
	labels = runLabels(sorted)
	// The notes name what the runs could not be compared in, against the smallest.
	for i := range sorted {
		comparabilities[i] = benchmark.Comparability{}
		if i > 0 {
			comparabilities[i] = benchmark.CheckComparable(&sorted[i], &sorted[0])
		}
	}
	s.Stages, s.Total = lineUp(sorted, labels, nil)
	s.Notes = notes(sorted, labels, stageOrder(sorted), s.Total.Stages, comparabilities)
	return s, nil
}

// varied is the parameter the runs differ in from the first, which must be one and
// a dimension of workload.
func varied(workload v1alpha1.BenchmarkWorkload, labels []string, comparabilities []benchmark.Comparability) (dimension, error) {
	var names []string
	var problems []Problem
	for i, c := range comparabilities {
		for _, d := range c.Differences {
			if !slices.Contains(names, d.Parameter) {
				names = append(names, d.Parameter)
			}
		}
		if len(c.Differences) > 0 {
			problems = append(problems, Problem{Run: labels[i], Reason: differ(labels[0], c.Differences), Differences: c.Differences})
		}
	}
	candidates := dimensions[workload]
	var allowed []string
	for _, d := range candidates {
		allowed = append(allowed, d.Parameter)
	}
	choice := "a series varies one of " + orList(allowed)
	if len(allowed) == 0 {
		choice = "a series of " + string(workload) + " runs has no parameter to vary"
	}
	switch {
	case len(names) == 0:
		return dimension{}, &NotASeriesError{Reason: fmt.Sprintf("nothing varies: every run did the work %s did; %s", labels[0], choice)}
	case len(names) > 1:
		return dimension{}, &NotASeriesError{Reason: fmt.Sprintf("the runs differ in %s, and a series varies one parameter", andList(names)), Problems: problems}
	}
	i := slices.IndexFunc(candidates, func(d dimension) bool { return d.Parameter == names[0] })
	if i < 0 {
		return dimension{}, &NotASeriesError{Reason: fmt.Sprintf("the runs differ in %s, which a series cannot vary: %s", names[0], choice), Problems: problems}
	}
	return candidates[i], nil
}

// place is each run's value of dim, which every run must know and no two share.
func place(runs []v1alpha1.BenchmarkRun, labels []string, comparabilities []benchmark.Comparability, dim dimension) ([]Point, error) {
	texts := make([]string, len(runs))
	var problems []Problem
	for i, c := range comparabilities {
		if slices.Contains(c.Unknown, dim.Parameter) {
			problems = append(problems, Problem{Run: labels[i], Reason: fmt.Sprintf("has no %s that can be set against %s's: %s",
				dim.Parameter, labels[0], c.UnknownBecause(func(run string) string { return run }))})
		}
		for _, d := range c.Differences {
			texts[i], texts[0] = d.Value, d.BaselineValue
		}
	}
	if len(problems) > 0 {
		return nil, &NotASeriesError{Problems: problems}
	}

	points := make([]Point, len(runs))
	at := map[float64]string{}
	for i := range runs {
		text := cmp.Or(texts[i], texts[0])
		v, err := dim.parse(text)
		if err != nil {
			return nil, fmt.Errorf("BenchmarkRun %s: %s %q: %w", labels[i], dim.Parameter, text, err)
		}
		if other, ok := at[v]; ok {
			problems = append(problems, Problem{Run: labels[i], Reason: fmt.Sprintf("ran %s %s, as %s did: a series takes one run per value", dim.Parameter, text, other)})
			continue
		}
		at[v] = labels[i]
		points[i] = Point{Run: describe(&runs[i], labels[i]), Value: v, Text: text}
	}
	if len(problems) > 0 {
		return nil, &NotASeriesError{Problems: problems}
	}
	return points, nil
}

// storageName is the StorageBackend a run ran on and what it was, such as
// "cephfs-replicated (CephFS, 3 replicas)".
func storageName(setup *v1alpha1.BenchmarkSetup) string {
	return setup.Storage.Backend + " (" + storageText(setup) + ")"
}

// andList and orList join words as a sentence does: "rows, maps and reduces".
func andList(words []string) string { return joinLast(words, " and ") }

func orList(words []string) string { return joinLast(words, " or ") }

func joinLast(words []string, last string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + last + words[len(words)-1]
}
