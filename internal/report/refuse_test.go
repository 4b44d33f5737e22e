package report

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

func TestBuildRefusesNoRun(t *testing.T) {
	c, err := Build(nil)
	if err == nil || c != nil {
		t.Fatalf("Build(nil) = %+v, %v; want an error", c, err)
	}
	var nc *NotComparableError
	if errors.As(err, &nc) {
		t.Errorf("no run is not a comparability problem: %v", err)
	}
}

func TestBuildRefuses(t *testing.T) {
	running := hdfsRun()
	running.Status.Phase, running.Status.Summary, running.Status.CompletionTime = v1alpha1.BenchmarkPhaseRunning, nil, nil

	failed := hdfsRun()
	failed.Status.Phase = v1alpha1.BenchmarkPhaseFailed

	pending := hdfsRun()
	pending.Status = v1alpha1.BenchmarkRunStatus{}

	noSummary := hdfsRun()
	noSummary.Status.Summary = nil

	dfsio := hdfsRun()
	dfsio.Name = "dfsio-hdfs"
	dfsio.Spec.TeraSort = nil
	dfsio.Spec.TestDFSIO = &v1alpha1.TestDFSIOWorkload{Files: 16, FileSize: resource.MustParse("1Gi")}

	smaller := hdfsRun()
	smaller.Name = "terasort-hdfs-small"
	*smaller.Spec.TeraSort.Rows = 1_000_000
	smaller.Status.Setup.NodeManagers.Replicas = 1

	slower := hdfsRun()
	slower.Name = "terasort-hdfs-1g"
	slower.Status.Setup.Network.Rate = "1Gbit"

	podNetwork := hdfsRun()
	podNetwork.Name = "terasort-hdfs-pod"
	podNetwork.Status.Setup.Network = &v1alpha1.NetworkSetup{DataInterface: "eth0"}

	cases := []struct {
		name     string
		runs     []v1alpha1.BenchmarkRun
		problems []Problem
		message  string
	}{{
		name:     "a run still running",
		runs:     []v1alpha1.BenchmarkRun{cephRun(), running},
		problems: []Problem{{Run: "terasort-hdfs", Reason: "has not succeeded: status.phase is Running"}},
		message:  "cannot compare the BenchmarkRuns: BenchmarkRun terasort-hdfs has not succeeded: status.phase is Running",
	}, {
		name:     "a failed reference",
		runs:     []v1alpha1.BenchmarkRun{failed, cephRun()},
		problems: []Problem{{Run: "terasort-hdfs", Reason: "has not succeeded: status.phase is Failed"}},
		message:  "cannot compare the BenchmarkRuns: BenchmarkRun terasort-hdfs has not succeeded: status.phase is Failed",
	}, {
		name:     "a run the operator has not seen yet",
		runs:     []v1alpha1.BenchmarkRun{cephRun(), pending},
		problems: []Problem{{Run: "terasort-hdfs", Reason: "has not succeeded: it has no status.phase yet"}},
	}, {
		name:     "a succeeded run without a summary",
		runs:     []v1alpha1.BenchmarkRun{cephRun(), noSummary},
		problems: []Problem{{Run: "terasort-hdfs", Reason: "has no status.summary: no repetition measured every stage"}},
	}, {
		name:     "another workload",
		runs:     []v1alpha1.BenchmarkRun{cephRun(), dfsio},
		problems: []Problem{{Run: "dfsio-hdfs", Reason: "runs workload TestDFSIO, not TeraSort as terasort-ceph does"}},
		message:  "cannot compare the BenchmarkRuns: BenchmarkRun dfsio-hdfs runs workload TestDFSIO, not TeraSort as terasort-ceph does",
	}, {
		name: "other rows on fewer NodeManagers",
		runs: []v1alpha1.BenchmarkRun{cephRun(), smaller},
		problems: []Problem{{
			Run:    "terasort-hdfs-small",
			Reason: "did other work than terasort-ceph (this run's value first): rows 1000000 vs 10000000, NodeManagers 1 x 6Gi/4 vcores vs 3 x 6Gi/4 vcores",
			Differences: []v1alpha1.BaselineDifference{
				{Parameter: "rows", Value: "1000000", BaselineValue: "10000000"},
				{Parameter: "NodeManagers", Value: "1 x 6Gi/4 vcores", BaselineValue: "3 x 6Gi/4 vcores"},
			},
		}},
		message: "cannot compare the BenchmarkRuns: BenchmarkRun terasort-hdfs-small did other work than terasort-ceph (this run's value first): rows 1000000 vs 10000000, NodeManagers 1 x 6Gi/4 vcores vs 3 x 6Gi/4 vcores",
	}, {
		name: "the same network at another rate",
		runs: []v1alpha1.BenchmarkRun{cephRun(), slower},
		problems: []Problem{{
			Run:         "terasort-hdfs-1g",
			Reason:      "did other work than terasort-ceph (this run's value first): network analytics/data (net1) at 1Gbit vs analytics/data (net1) at 10Gbit",
			Differences: []v1alpha1.BaselineDifference{{Parameter: "network", Value: "analytics/data (net1) at 1Gbit", BaselineValue: "analytics/data (net1) at 10Gbit"}},
		}},
		message: "cannot compare the BenchmarkRuns: BenchmarkRun terasort-hdfs-1g did other work than terasort-ceph (this run's value first): network analytics/data (net1) at 1Gbit vs analytics/data (net1) at 10Gbit",
	}, {
		name: "the pod network against an attachment",
		runs: []v1alpha1.BenchmarkRun{cephRun(), podNetwork},
		problems: []Problem{{
			Run:         "terasort-hdfs-pod",
			Reason:      "did other work than terasort-ceph (this run's value first): network pod network vs analytics/data (net1) at 10Gbit",
			Differences: []v1alpha1.BaselineDifference{{Parameter: "network", Value: "pod network", BaselineValue: "analytics/data (net1) at 10Gbit"}},
		}},
	}, {
		name:     "a run named twice",
		runs:     []v1alpha1.BenchmarkRun{cephRun(), hdfsRun(), cephRun()},
		problems: []Problem{{Run: "terasort-ceph", Reason: "is named twice: compare a run once"}},
	}, {
		name: "every offending run is named",
		runs: []v1alpha1.BenchmarkRun{cephRun(), running, dfsio, smaller, hdfsRun()},
		problems: []Problem{
			{Run: "terasort-hdfs", Reason: "has not succeeded: status.phase is Running"},
			{Run: "dfsio-hdfs", Reason: "runs workload TestDFSIO, not TeraSort as terasort-ceph does"},
			{Run: "terasort-hdfs-small", Reason: "did other work than terasort-ceph (this run's value first): rows 1000000 vs 10000000, NodeManagers 1 x 6Gi/4 vcores vs 3 x 6Gi/4 vcores", Differences: []v1alpha1.BaselineDifference{
				{Parameter: "rows", Value: "1000000", BaselineValue: "10000000"},
				{Parameter: "NodeManagers", Value: "1 x 6Gi/4 vcores", BaselineValue: "3 x 6Gi/4 vcores"},
			}},
			// The last run is the running one's name again, now succeeded.
			{Run: "terasort-hdfs", Reason: "is named twice: compare a run once"},
		},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Build(tc.runs)
			if c != nil {
				t.Errorf("Build returned a comparison with the error: %+v", c)
			}
			var nc *NotComparableError
			if !errors.As(err, &nc) {
				t.Fatalf("error %v (%T), want a *NotComparableError", err, err)
			}
			if nc.Reference != tc.runs[0].Name {
				t.Errorf("reference %q, want %q", nc.Reference, tc.runs[0].Name)
			}
			if d := cmp.Diff(tc.problems, nc.Problems); d != "" {
				t.Errorf("problems (-want +got):\n%s", d)
			}
			if tc.message != "" && err.Error() != tc.message {
				t.Errorf("message\n got %q\nwant %q", err.Error(), tc.message)
			}
			for _, p := range tc.problems {
				if !strings.Contains(err.Error(), "BenchmarkRun "+p.Run+" "+p.Reason) {
					t.Errorf("message %q does not name %s and why", err.Error(), p.Run)
				}
			}
		})
	}
}

// Storage, repetitions and validate do not change the work of the stages both runs
// measured, so they do not refuse a comparison, as they do not refuse a baseline.
func TestBuildAcceptsWhatBaselinesAccept(t *testing.T) {
	once := hdfsSetup()
	once.Repetitions = 1
	fewer := teraSortRun("terasort-hdfs", "analytics-hdfs", once, hdfsDurations, started,
		func(s *v1alpha1.BenchmarkRunSpec) { s.TeraSort.Validate = ptr.To(false) })
	c, err := Build([]v1alpha1.BenchmarkRun{cephRun(), fewer})
	if err != nil {
		t.Fatalf("other storage, repetitions and validate: %v", err)
	}
	if c.Runs[1].Repetitions != 1 {
		t.Errorf("repetitions %d, want 1", c.Runs[1].Repetitions)
	}
}
