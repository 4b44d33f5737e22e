package report

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
)

// approx compares seconds, which come from integer milliseconds through floating point.
var approx = cmpopts.EquateApprox(0, 1e-9)

func mustBuild(t *testing.T, runs ...v1alpha1.BenchmarkRun) *Comparison {
	t.Helper()
	c, err := Build(runs)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return c
}

func TestBuildRunsAndStages(t *testing.T) {
	ceph, hdfs := cephRun(), hdfsRun()
	c := mustBuild(t, ceph, hdfs)

	wantRuns := []Run{
		{Label: "terasort-ceph", Name: "terasort-ceph", Namespace: "bench", Cluster: "analytics", StorageBackend: "cephfs-replicated", Storage: "CephFS, 3 replicas", Repetitions: 3, CompletionTime: ceph.Status.CompletionTime},
		{Label: "terasort-hdfs", Name: "terasort-hdfs", Namespace: "bench", Cluster: "analytics-hdfs", StorageBackend: "hdfs", Storage: "HDFS, replication 3", Repetitions: 3, CompletionTime: hdfs.Status.CompletionTime},
	}
	if d := cmp.Diff(wantRuns, c.Runs); d != "" {
		t.Errorf("runs (-want +got):\n%s", d)
	}
	if c.Workload != v1alpha1.WorkloadTeraSort || c.Reference != "terasort-ceph" {
		t.Errorf("workload %q, reference %q", c.Workload, c.Reference)
	}
	var stages []v1alpha1.BenchmarkStage
	for _, s := range c.Stages {
		stages = append(stages, s.Stage)
	}
	if d := cmp.Diff([]v1alpha1.BenchmarkStage{"teragen", "terasort", "teravalidate"}, stages); d != "" {
		t.Errorf("stages (-want +got):\n%s", d)
	}
	if len(c.Notes) != 0 {
		t.Errorf("notes for two complete, comparable runs: %q", c.Notes)
	}
}

// The sort in full: the medians are the middle repetitions (96.412 s of 94.786,
// 96.412 and 101.093; 102.901 s of 99.638, 102.901 and 104.227), the throughputs
// 10^9 bytes over them.
func TestBuildTeraSortStage(t *testing.T) {
	c := mustBuild(t, cephRun(), hdfsRun())
	want := Stage{Stage: v1alpha1.StageTeraSort, Results: []Result{{
		Run: "terasort-ceph", Measured: true,
		MedianSeconds: 96.412, MinSeconds: 94.786, MaxSeconds: 101.093,
		Repetitions: []Repetition{
			{Repetition: 1, Seconds: 96.412, BytesPerSecond: 10_372_153},
			{Repetition: 2, Seconds: 101.093, BytesPerSecond: 9_891_882},
			{Repetition: 3, Seconds: 94.786, BytesPerSecond: 10_550_081},
		},
		BytesPerSecond: 10_372_153, Throughput: "9.89 MiB/s",
		DurationRatio: "1.00x", ThroughputRatio: "1.00x",
	}, {
		Run: "terasort-hdfs", Measured: true,
		MedianSeconds: 102.901, MinSeconds: 99.638, MaxSeconds: 104.227,
		Repetitions: []Repetition{
			{Repetition: 1, Seconds: 104.227, BytesPerSecond: 9_594_443},
			{Repetition: 2, Seconds: 99.638, BytesPerSecond: 10_036_332},
			{Repetition: 3, Seconds: 102.901, BytesPerSecond: 9_718_079},
		},
		BytesPerSecond: 9_718_079, Throughput: "9.27 MiB/s",
		DurationRatio: "1.07x", ThroughputRatio: "0.94x",
	}}}
	if d := cmp.Diff(want, c.Stages[1], approx); d != "" {
		t.Errorf("terasort (-want +got):\n%s", d)
	}
}

func TestBuildMediansSpreadsAndRatios(t *testing.T) {
	c := mustBuild(t, cephRun(), hdfsRun())
	type figures struct {
		median, lo, hi float64
		throughput     string
		time, rate     string
	}
	want := map[v1alpha1.BenchmarkStage][2]figures{
		v1alpha1.StageTeraGen: {
			{41.218, 39.874, 43.607, "23.14 MiB/s", "1.00x", "1.00x"},
			{37.471, 36.902, 38.113, "25.45 MiB/s", "0.91x", "1.10x"},
		},
		v1alpha1.StageTeraValidate: {
			{24.331, 23.942, 25.118, "39.20 MiB/s", "1.00x", "1.00x"},
			{21.950, 21.764, 22.409, "43.45 MiB/s", "0.90x", "1.11x"},
		},
	}
	for _, s := range c.Stages {
		w, ok := want[s.Stage]
		if !ok {
			continue
		}
		for i, r := range s.Results {
			got := figures{r.MedianSeconds, r.MinSeconds, r.MaxSeconds, r.Throughput, r.DurationRatio, r.ThroughputRatio}
			if d := cmp.Diff(w[i], got, approx, cmp.AllowUnexported(figures{})); d != "" {
				t.Errorf("%s of %s (-want +got):\n%s", s.Stage, r.Run, d)
			}
		}
	}
}

// The ratios must be those the operator writes into status.baseline for the same
// pair, or kubectl get and the report would disagree.
func TestBuildRatiosAreTheOperatorsBaselineRatios(t *testing.T) {
	ceph, hdfs := cephRun(), hdfsRun()
	c := mustBuild(t, ceph, hdfs)
	baseline := benchmark.Compare(ceph.Name, v1alpha1.WorkloadTeraSort, hdfs.Status.Summary, ceph.Status.Summary)
	if len(baseline.Stages) != len(c.Stages) {
		t.Fatalf("operator compared %d stages, the report %d", len(baseline.Stages), len(c.Stages))
	}
	for i, op := range baseline.Stages {
		got := c.Stages[i].Results[1]
		if got.DurationRatio != op.DurationRatio+"x" || got.ThroughputRatio != op.ThroughputRatio+"x" {
			t.Errorf("%s: report %s/%s, operator %s/%s", op.Stage, got.DurationRatio, got.ThroughputRatio, op.DurationRatio, op.ThroughputRatio)
		}
	}
}

// The total sums the stage medians (41.218 + 96.412 + 24.331 s on CephFS); its spread
// is over each repetition's sum of the same stages.
func TestBuildTotal(t *testing.T) {
	c := mustBuild(t, cephRun(), hdfsRun())
	want := Total{
		Stages: []v1alpha1.BenchmarkStage{"teragen", "terasort", "teravalidate"},
		Results: []Result{{
			Run: "terasort-ceph", Measured: true, MedianSeconds: 161.961, MinSeconds: 161.961, MaxSeconds: 166.085,
			Repetitions:   []Repetition{{Repetition: 1, Seconds: 161.961}, {Repetition: 2, Seconds: 166.085}, {Repetition: 3, Seconds: 162.335}},
			DurationRatio: "1.00x",
		}, {
			Run: "terasort-hdfs", Measured: true, MedianSeconds: 162.322, MinSeconds: 160.160, MaxSeconds: 162.893,
			Repetitions:   []Repetition{{Repetition: 1, Seconds: 162.893}, {Repetition: 2, Seconds: 160.160}, {Repetition: 3, Seconds: 162.322}},
			DurationRatio: "1.00x",
		}},
	}
	if d := cmp.Diff(want, c.Total, approx); d != "" {
		t.Errorf("total (-want +got):\n%s", d)
	}
}

func TestBuildOneRun(t *testing.T) {
	c := mustBuild(t, hdfsRun())
	if len(c.Runs) != 1 || c.Reference != "terasort-hdfs" {
		t.Fatalf("runs %+v, reference %q", c.Runs, c.Reference)
	}
	if r := c.Stages[0].Results[0]; r.DurationRatio != "1.00x" || r.MedianSeconds != 37.471 {
		t.Errorf("teragen of a single run: %+v", r)
	}
}

// A repetition without a succeeded result for every stage is not among those the
// summary's medians are of, so it is left out of the spread too.
func TestBuildLeavesOutIncompleteRepetitions(t *testing.T) {
	hdfs := hdfsRun()
	var stages []v1alpha1.StageResult
	for _, s := range hdfs.Status.Stages {
		// The slowest teragen (38.113 s) is in repetition 2, whose sort failed.
		if s.Repetition == 2 && s.Stage == v1alpha1.StageTeraSort {
			s.Phase, s.Duration, s.BytesPerSecond = v1alpha1.StagePhaseFailed, nil, 0
		}
		stages = append(stages, s)
	}
	hdfs.Status.Stages = stages
	hdfs.Status.Summary = benchmark.Summarize(&hdfs.Spec, stages)

	c := mustBuild(t, cephRun(), hdfs)
	teragen := c.Stages[0].Results[1]
	if teragen.MaxSeconds != 37.471 || len(teragen.Repetitions) != 2 {
		t.Errorf("teragen spread %v–%v over %+v, want 36.902–37.471 over repetitions 1 and 3", teragen.MinSeconds, teragen.MaxSeconds, teragen.Repetitions)
	}
	if c.Runs[1].Repetitions != 2 {
		t.Errorf("repetitions %d, want 2", c.Runs[1].Repetitions)
	}
	if want := "terasort-hdfs: 2 of 3 repetitions measured every stage"; len(c.Notes) != 1 || !strings.HasPrefix(c.Notes[0], want) {
		t.Errorf("notes %q, want one starting %q", c.Notes, want)
	}
}

// A run without TeraValidate still compares on the stages both measured; the total
// covers only those, so that it measures the same work for both runs.
func TestBuildStageNotEveryRunMeasured(t *testing.T) {
	hdfs := teraSortRun("terasort-hdfs", "analytics-hdfs", hdfsSetup(), hdfsDurations, started,
		func(s *v1alpha1.BenchmarkRunSpec) { s.TeraSort.Validate = ptr.To(false) })

	c := mustBuild(t, cephRun(), hdfs)
	validate := c.Stages[2].Results[1]
	if c.Stages[2].Stage != v1alpha1.StageTeraValidate || validate.Measured || validate.DurationRatio != "" {
		t.Errorf("teravalidate of the run without it: %+v", validate)
	}
	if d := cmp.Diff([]v1alpha1.BenchmarkStage{"teragen", "terasort"}, c.Total.Stages); d != "" {
		t.Errorf("total's stages (-want +got):\n%s", d)
	}
	if got := c.Total.Results[0].MedianSeconds; got < 137.629 || got > 137.631 {
		t.Errorf("CephFS total %v, want 137.630 (41.218 + 96.412, without teravalidate)", got)
	}
	want := "teravalidate was not measured by terasort-hdfs; the total leaves it out."
	if len(c.Notes) != 1 || c.Notes[0] != want {
		t.Errorf("notes %q, want [%q]", c.Notes, want)
	}
}

// A run from before status.setup is compared as far as its spec goes, as a baseline
// would be, and the notes say what was not compared.
func TestBuildRunWithoutSetup(t *testing.T) {
	old := hdfsRun()
	old.Status.Setup = nil
	c := mustBuild(t, cephRun(), old)
	if c.Runs[1].Storage != "unknown (no status.setup)" || c.Runs[1].Cluster != "analytics-hdfs" {
		t.Errorf("run without setup: %+v", c.Runs[1])
	}
	want := "terasort-hdfs was compared with terasort-ceph without maps, reduces, outputReplication, NodeManagers, nodeManagerLimits, nodeManagerRequests, network: terasort-hdfs has no status.setup."
	if len(c.Notes) != 1 || c.Notes[0] != want {
		t.Errorf("notes %q, want [%q]", c.Notes, want)
	}
}

// Runs recorded before networks were, and runs on one network whose rate only one of
// them knows, are compared, and the notes say what was not.
func TestBuildRunsWithoutNetworkOrRate(t *testing.T) {
	beforeNetworks := hdfsRun()
	beforeNetworks.Status.Setup.Network = nil
	unannotated := hdfsRun()
	unannotated.Name = "terasort-hdfs-unannotated"
	unannotated.Status.Setup.Network.Rate = ""
	c := mustBuild(t, cephRun(), beforeNetworks, unannotated)
	want := []string{
		"terasort-hdfs was compared with terasort-ceph without network: terasort-hdfs has no status.setup.network.",
		"terasort-hdfs-unannotated was compared with terasort-ceph without network.rate: terasort-hdfs-unannotated has no status.setup.network.rate.",
	}
	if d := cmp.Diff(want, c.Notes); d != "" {
		t.Errorf("notes (-want +got):\n%s", d)
	}
}

// NodeManager pods of other requests are compared, and the notes name both requests.
func TestBuildRunsOfOtherRequests(t *testing.T) {
	idle := hdfsRun()
	idle.Status.Setup.NodeManagers.Resources.Requests[corev1.ResourceCPU] = resource.MustParse("500m")
	c := mustBuild(t, cephRun(), idle)
	want := []string{"terasort-hdfs differs from terasort-ceph in nodeManagerRequests (cpu 500m, memory 8Gi against cpu 4, memory 8Gi), which changes the figures only on a busy node."}
	if d := cmp.Diff(want, c.Notes); d != "" {
		t.Errorf("notes (-want +got):\n%s", d)
	}
}

func TestRunsOfOneNameInTwoNamespacesAreToldApart(t *testing.T) {
	ceph, hdfs := cephRun(), hdfsRun()
	ceph.Name, ceph.Namespace = "nightly", "team-ceph"
	hdfs.Name, hdfs.Namespace = "nightly", "team-hdfs"
	c := mustBuild(t, ceph, hdfs)
	if c.Reference != "team-ceph/nightly" || c.Runs[1].Label != "team-hdfs/nightly" {
		t.Errorf("reference %q, second run's label %q; want namespace/name for runs in different namespaces", c.Reference, c.Runs[1].Label)
	}
	for _, s := range c.Stages {
		if s.Results[0].Run != "team-ceph/nightly" || s.Results[1].Run != "team-hdfs/nightly" {
			t.Errorf("stage %s results name %q and %q", s.Stage, s.Results[0].Run, s.Results[1].Run)
		}
	}
	var table strings.Builder
	if err := WriteTable(&table, c); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "team-hdfs/nightly") {
		t.Errorf("the table does not tell the runs apart:\n%s", table.String())
	}
}
