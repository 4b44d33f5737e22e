package report

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

func mustSeries(t *testing.T, runs []v1alpha1.BenchmarkRun) *Series {
	t.Helper()
	s, err := BuildSeries(runs)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// assertPoints checks a series' dimension, and its points' values, texts and runs
// in its order.
func assertPoints(t *testing.T, s *Series, dim Dimension, values []float64, texts, runs []string) {
	t.Helper()
	if s.Dimension != dim {
		t.Errorf("dimension %+v, want %+v", s.Dimension, dim)
	}
	var gotValues []float64
	var gotTexts, gotRuns []string
	for _, p := range s.Points {
		gotValues = append(gotValues, p.Value)
		gotTexts = append(gotTexts, p.Text)
		gotRuns = append(gotRuns, p.Run.Label)
	}
	if !slices.Equal(gotValues, values) {
		t.Errorf("values %v, want %v", gotValues, values)
	}
	if !slices.Equal(gotTexts, texts) {
		t.Errorf("texts %q, want %q", gotTexts, texts)
	}
	if !slices.Equal(gotRuns, runs) {
		t.Errorf("runs %q, want %q", gotRuns, runs)
	}
}

func TestBuildSeriesOfTeraSortRows(t *testing.T) {
	s := mustSeries(t, teraSortRowsSeries())
	if s.Workload != v1alpha1.WorkloadTeraSort {
		t.Errorf("workload %s", s.Workload)
	}
	runs := []string{"terasort-1m", "terasort-10m", "terasort-100m"}
	assertPoints(t, s, Dimension{Parameter: "rows", Unit: "rows"}, []float64{1e6, 1e7, 1e8}, []string{"1000000", "10000000", "100000000"}, runs)

	var stages []v1alpha1.BenchmarkStage
	for _, st := range s.Stages {
		stages = append(stages, st.Stage)
	}
	if want := []v1alpha1.BenchmarkStage{v1alpha1.StageTeraGen, v1alpha1.StageTeraSort, v1alpha1.StageTeraValidate}; !slices.Equal(stages, want) {
		t.Fatalf("stages %v, want %v", stages, want)
	}
	// The results follow the points: the medians of the 1M, 10M and 100M runs.
	sort := s.Stages[1]
	var medians []float64
	for i, r := range sort.Results {
		if r.Run != runs[i] {
			t.Errorf("result %d is %s's, want %s's", i, r.Run, runs[i])
		}
		medians = append(medians, r.MedianSeconds)
		if len(r.Repetitions) != 3 {
			t.Errorf("%s has %d repetitions, want 3", r.Run, len(r.Repetitions))
		}
		if r.DurationRatio != "" || r.ThroughputRatio != "" {
			t.Errorf("%s has ratios %q and %q: the runs of a series did different work", r.Run, r.DurationRatio, r.ThroughputRatio)
		}
	}
	if want := []float64{18.904, 96.412, 842.915}; !slices.Equal(medians, want) {
		t.Errorf("terasort medians %v, want %v", medians, want)
	}
	// 100 MB in 18.904 s, 1 GB in 96.412 s, 10 GB in 842.915 s, in the operator's
	// rounding (5.0448 MiB/s is 5.045, then 5.05).
	if got := []string{sort.Results[0].Throughput, sort.Results[1].Throughput, sort.Results[2].Throughput}; !slices.Equal(got, []string{"5.05 MiB/s", "9.89 MiB/s", "11.31 MiB/s"}) {
		t.Errorf("terasort throughputs %q", got)
	}
	if len(s.Total.Results) != 3 || s.Total.Results[2].MedianSeconds != 318.406+842.915+176.238 {
		t.Errorf("totals %+v, want the 100M run's 1337.559 s last", s.Total.Results)
	}
	if len(s.Notes) != 0 {
		t.Errorf("notes %q, want none", s.Notes)
	}
}

func TestBuildSeriesOfTestDFSIOFileSizes(t *testing.T) {
	s := mustSeries(t, dfsioFileSizeSeries())
	assertPoints(t, s, Dimension{Parameter: "fileSize", Unit: "MiB"}, []float64{256, 1024, 4096}, []string{"256Mi", "1Gi", "4Gi"}, []string{"dfsio-256m", "dfsio-1g", "dfsio-4g"})
	if got := s.Dimension.AxisLabel(); got != "fileSize (MiB)" {
		t.Errorf("axis label %q", got)
	}
	// 16 files of 1Gi written in 131.207 s.
	if got := s.Stages[0].Results[1].Throughput; got != "124.87 MiB/s" {
		t.Errorf("the 1Gi run's write throughput %q", got)
	}
}

// A stage that some runs did not measure is left out of the total, and the notes say
// so, as a comparison's do.
func TestBuildSeriesNotesAStageNotMeasured(t *testing.T) {
	runs := teraSortRowsSeries()
	runs[1] = rowsRun("terasort-100m", 100_000_000, started.Add(time.Hour), func(s *v1alpha1.BenchmarkRunSpec) { s.TeraSort.Validate = ptr.To(false) })
	s := mustSeries(t, runs)
	if want := []string{"teravalidate was not measured by terasort-100m; the total leaves it out."}; !slices.Equal(s.Notes, want) {
		t.Errorf("notes %q, want %q", s.Notes, want)
	}
	if r := s.Stages[2].Results[2]; r.Measured {
		t.Errorf("the 100M run's teravalidate is measured: %+v", r)
	}
}

func TestBuildSeriesRefusesFewerThanTwoRuns(t *testing.T) {
	for _, runs := range [][]v1alpha1.BenchmarkRun{nil, {cephRun()}} {
		s, err := BuildSeries(runs)
		if s != nil || err == nil {
			t.Fatalf("BuildSeries of %d runs = %+v, %v", len(runs), s, err)
		}
		if !strings.Contains(err.Error(), "at least two BenchmarkRuns") {
			t.Errorf("err = %v, want at least two runs asked for", err)
		}
	}
}

func TestBuildSeriesRefuses(t *testing.T) {
	again := cephRun()
	again.Name = "terasort-ceph-again"

	moreReduces := rowsRun("terasort-100m-8-reduces", 100_000_000, started.Add(time.Hour), func(s *v1alpha1.BenchmarkRunSpec) { s.TeraSort.Reduces = ptr.To[int32](8) })

	moreNodeManagers := cephRun()
	moreNodeManagers.Name = "terasort-6-nodemanagers"
	moreNodeManagers.Status.Setup.NodeManagers.Replicas = 6

	hdfsSmall := teraSortRun("terasort-hdfs-1m", "analytics-hdfs", hdfsSetup(), teraSortRowDurations[1_000_000], started,
		func(s *v1alpha1.BenchmarkRunSpec) { s.TeraSort.Rows = ptr.To[int64](1_000_000) })

	tenAgain := rowsRun("terasort-10m-again", 10_000_000, started.Add(3*time.Hour))

	running := rowsRun("terasort-100m", 100_000_000, started.Add(time.Hour))
	running.Status.Phase = v1alpha1.BenchmarkPhaseRunning

	dfsio := dfsioRun("dfsio-1g", "1Gi", started)

	// maps comes from status.setup when the spec leaves it unset: a run without a
	// setup has none to place.
	moreMaps := rowsRun("terasort-64-maps", 10_000_000, started, func(s *v1alpha1.BenchmarkRunSpec) { s.TeraSort.Maps = ptr.To[int32](64) })
	unrecorded := rowsRun("terasort-unrecorded", 10_000_000, started.Add(time.Hour))
	unrecorded.Status.Setup = nil

	cases := []struct {
		name     string
		runs     []v1alpha1.BenchmarkRun
		problems []Problem
		message  string
	}{{
		name:    "nothing varies",
		runs:    []v1alpha1.BenchmarkRun{cephRun(), again},
		message: "cannot draw a series of the BenchmarkRuns: nothing varies: every run did the work terasort-ceph did; a series varies one of rows, maps, reduces or outputReplication",
	}, {
		name: "two parameters vary",
		runs: []v1alpha1.BenchmarkRun{rowsRun("terasort-1m", 1_000_000, started), cephRun(), moreReduces},
		problems: []Problem{{
			Run:         "terasort-ceph",
			Reason:      "did other work than terasort-1m (this run's value first): rows 10000000 vs 1000000",
			Differences: []v1alpha1.BaselineDifference{{Parameter: "rows", Value: "10000000", BaselineValue: "1000000"}},
		}, {
			Run:    "terasort-100m-8-reduces",
			Reason: "did other work than terasort-1m (this run's value first): rows 100000000 vs 1000000, reduces 8 vs 16",
			Differences: []v1alpha1.BaselineDifference{
				{Parameter: "rows", Value: "100000000", BaselineValue: "1000000"},
				{Parameter: "reduces", Value: "8", BaselineValue: "16"},
			},
		}},
		message: "cannot draw a series of the BenchmarkRuns: the runs differ in rows and reduces, and a series varies one parameter; " +
			"BenchmarkRun terasort-ceph did other work than terasort-1m (this run's value first): rows 10000000 vs 1000000; " +
			"BenchmarkRun terasort-100m-8-reduces did other work than terasort-1m (this run's value first): rows 100000000 vs 1000000, reduces 8 vs 16",
	}, {
		name: "the cluster varies",
		runs: []v1alpha1.BenchmarkRun{cephRun(), moreNodeManagers},
		problems: []Problem{{
			Run:         "terasort-6-nodemanagers",
			Reason:      "did other work than terasort-ceph (this run's value first): NodeManagers 6 x 6Gi/4 vcores vs 3 x 6Gi/4 vcores",
			Differences: []v1alpha1.BaselineDifference{{Parameter: "NodeManagers", Value: "6 x 6Gi/4 vcores", BaselineValue: "3 x 6Gi/4 vcores"}},
		}},
		message: "cannot draw a series of the BenchmarkRuns: the runs differ in NodeManagers, which a series cannot vary: a series varies one of rows, maps, reduces or outputReplication; " +
			"BenchmarkRun terasort-6-nodemanagers did other work than terasort-ceph (this run's value first): NodeManagers 6 x 6Gi/4 vcores vs 3 x 6Gi/4 vcores",
	}, {
		name:     "the storage varies",
		runs:     []v1alpha1.BenchmarkRun{cephRun(), hdfsSmall},
		problems: []Problem{{Run: "terasort-hdfs-1m", Reason: "ran on hdfs (HDFS, replication 3), not on cephfs-replicated (CephFS, 3 replicas) as terasort-ceph did: a series is of one storage"}},
		message:  "cannot draw a series of the BenchmarkRuns: BenchmarkRun terasort-hdfs-1m ran on hdfs (HDFS, replication 3), not on cephfs-replicated (CephFS, 3 replicas) as terasort-ceph did: a series is of one storage",
	}, {
		name:     "two runs at one value",
		runs:     append(teraSortRowsSeries(), tenAgain),
		problems: []Problem{{Run: "terasort-10m-again", Reason: "ran rows 10000000, as terasort-10m did: a series takes one run per value"}},
		message:  "cannot draw a series of the BenchmarkRuns: BenchmarkRun terasort-10m-again ran rows 10000000, as terasort-10m did: a series takes one run per value",
	}, {
		name:     "a run still running",
		runs:     []v1alpha1.BenchmarkRun{rowsRun("terasort-1m", 1_000_000, started), running},
		problems: []Problem{{Run: "terasort-100m", Reason: "has not succeeded: status.phase is Running"}},
		message:  "cannot draw a series of the BenchmarkRuns: BenchmarkRun terasort-100m has not succeeded: status.phase is Running",
	}, {
		name:     "another workload",
		runs:     []v1alpha1.BenchmarkRun{cephRun(), dfsio},
		problems: []Problem{{Run: "dfsio-1g", Reason: "runs workload TestDFSIO, not TeraSort as terasort-ceph does"}},
	}, {
		name:     "a value that is not known",
		runs:     []v1alpha1.BenchmarkRun{cephRun(), moreMaps, unrecorded},
		problems: []Problem{{Run: "terasort-unrecorded", Reason: "has no maps that can be set against terasort-ceph's: terasort-unrecorded has no status.setup"}},
		message:  "cannot draw a series of the BenchmarkRuns: BenchmarkRun terasort-unrecorded has no maps that can be set against terasort-ceph's: terasort-unrecorded has no status.setup",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := BuildSeries(tc.runs)
			if s != nil {
				t.Errorf("BuildSeries returned a series with the error: %+v", s)
			}
			var ns *NotASeriesError
			if !errors.As(err, &ns) {
				t.Fatalf("error %v (%T), want a *NotASeriesError", err, err)
			}
			if d := cmp.Diff(tc.problems, ns.Problems); d != "" {
				t.Errorf("problems (-want +got):\n%s", d)
			}
			if tc.message != "" && err.Error() != tc.message {
				t.Errorf("message\n got %q\nwant %q", err.Error(), tc.message)
			}
		})
	}
}

// A workload without a numeric parameter has nothing a series could vary, and says so.
func TestBuildSeriesOfAWorkloadWithoutDimensions(t *testing.T) {
	wordCount := func(name, input string) v1alpha1.BenchmarkRun {
		run := cephRun()
		run.Name = name
		run.Spec.TeraSort = nil
		run.Spec.WordCount = &v1alpha1.WordCountWorkload{InputPath: input}
		return run
	}
	_, err := BuildSeries([]v1alpha1.BenchmarkRun{wordCount("words-a", "/data/a"), wordCount("words-b", "/data/b")})
	want := "cannot draw a series of the BenchmarkRuns: the runs differ in inputPath, which a series cannot vary: a series of WordCount runs has no parameter to vary; " +
		"BenchmarkRun words-b did other work than words-a (this run's value first): inputPath /data/b vs /data/a"
	if err == nil || err.Error() != want {
		t.Errorf("err\n got %v\nwant %s", err, want)
	}
}

func TestCompactNumber(t *testing.T) {
	for v, want := range map[float64]string{
		1:          "1",
		256:        "256",
		4096:       "4096",
		0.5:        "0.5",
		10_000:     "10k",
		12_345:     "12.35k",
		1e6:        "1M",
		2.5e7:      "25M",
		1e8:        "100M",
		3e9:        "3G",
		1.1259e13:  "11.26T",
		1234.56789: "1235",
	} {
		if got := compactNumber(v); got != want {
			t.Errorf("compactNumber(%v) = %q, want %q", v, got, want)
		}
	}
}
