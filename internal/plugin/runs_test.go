package plugin

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

func TestRunsListsStagesDurationsAndRatios(t *testing.T) {
	ns := namespace(t, "runs")
	teraSortRun(t, ns, "on-hdfs", "hdfs", hdfsBaseline, [][3]float64{{20, 60, 18}, {22, 64, 20}, {21, 62, 19}})
	// Creation times have a resolution of one second; the list is sorted by them.
	time.Sleep(1100 * time.Millisecond)
	ceph := teraSortRun(t, ns, "on-ceph", "ceph", cephReplicated, [][3]float64{{19, 58, 17}, {20, 59, 18}, {21, 61, 19}},
		func(r *v1alpha1.BenchmarkRun) { r.Spec.BaselineRef = &v1alpha1.LocalObjectReference{Name: "on-hdfs"} })
	ceph.Status.Baseline = &v1alpha1.BaselineComparison{Name: "on-hdfs", Ratio: "1.05x"}
	if err := k8s.Status().Update(context.Background(), ceph); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond)
	running := &v1alpha1.BenchmarkRun{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "in-flight"},
		Spec: v1alpha1.BenchmarkRunSpec{
			ClusterRef: v1alpha1.LocalObjectReference{Name: "ceph"},
			TeraSort:   &v1alpha1.TeraSortWorkload{Rows: ptr.To[int64](1_000_000)},
		},
	}
	if err := k8s.Create(context.Background(), running); err != nil {
		t.Fatal(err)
	}
	running.Status.Phase = v1alpha1.BenchmarkPhaseRunning
	running.Status.Progress = &v1alpha1.BenchmarkProgress{Step: 2, Steps: 4, Stage: v1alpha1.StageTeraSort, Repetition: 1, Percent: ptr.To[int32](40)}
	if err := k8s.Status().Update(context.Background(), running); err != nil {
		t.Fatal(err)
	}

	out, _, err := kubectl(t, "-n", ns, "runs")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("want a header and three runs, got:\n%s", out)
	}
	if !strings.HasPrefix(lines[0], "NAME ") || strings.Contains(lines[0], "NAMESPACE") {
		t.Errorf("header %q: want NAME first and no NAMESPACE without -A", lines[0])
	}
	// Oldest first, as a benchmark history reads.
	for i, name := range []string{"on-hdfs", "on-ceph", "in-flight"} {
		if !strings.HasPrefix(lines[i+1], name+" ") {
			t.Errorf("line %d = %q, want run %s", i+1, lines[i+1], name)
		}
	}
	// The medians of each stage: teragen 20/22/21 -> 21, terasort 58/59/61 -> 59.
	for _, want := range []string{"teragen=21.0s,terasort=62.0s,teravalidate=19.0s", "<none>"} {
		if !strings.Contains(lines[1], want) {
			t.Errorf("the HDFS run's line %q lacks %q", lines[1], want)
		}
	}
	for _, want := range []string{"teragen=20.0s,terasort=59.0s,teravalidate=18.0s", "on-hdfs", "1.05x", "Succeeded", " 3 "} {
		if !strings.Contains(lines[2], want) {
			t.Errorf("the Ceph run's line %q lacks %q", lines[2], want)
		}
	}
	if !strings.Contains(lines[3], "2/4 terasort r1 40%") || !strings.Contains(lines[3], "Running") {
		t.Errorf("the running run's line %q lacks its progress", lines[3])
	}

	out, _, err = kubectl(t, "-n", ns, "runs", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []RunRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("-o json is not a JSON list of runs: %v\n%s", err, out)
	}
	if len(rows) != 3 || rows[1].Name != "on-ceph" || rows[1].Duration == nil || *rows[1].Duration != 97 || rows[1].Ratio != "1.05x" {
		t.Errorf("-o json rows = %+v; want on-ceph second with a 97 s median total (20+59+18) and ratio 1.05x", rows)
	}

	out, _, err = kubectl(t, "-n", ns, "runs", "--cluster", "hdfs", "-o", "yaml")
	if err != nil {
		t.Fatal(err)
	}
	rows = nil
	if err := yaml.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Name != "on-hdfs" || len(rows[0].Stages) != 3 {
		t.Errorf("--cluster hdfs -o yaml = %+v, want only on-hdfs with three stages", rows)
	}
}

func TestRunsAcrossNamespaces(t *testing.T) {
	a := namespace(t, "team-a")
	b := namespace(t, "team-b")
	teraSortRun(t, a, "nightly", "analytics", cephReplicated, [][3]float64{{20, 60, 18}})
	teraSortRun(t, b, "nightly", "analytics", cephReplicated, [][3]float64{{20, 60, 18}})
	out, _, err := kubectl(t, "runs", "-A")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "NAMESPACE ") {
		t.Errorf("-A output starts %q, want a NAMESPACE column", strings.SplitN(out, "\n", 2)[0])
	}
	for _, ns := range []string{a, b} {
		if !strings.Contains(out, ns+" ") {
			t.Errorf("-A lacks the run in %s:\n%s", ns, out)
		}
	}
}

func TestRunsRefusesAnUnknownOutput(t *testing.T) {
	_, _, err := kubectl(t, "runs", "-o", "wide")
	if err == nil || !strings.Contains(err.Error(), `--output "wide": must be one of table, yaml, json`) {
		t.Fatalf("err = %v, want the allowed formats named", err)
	}
}

func TestRunsSaysWhenThereAreNone(t *testing.T) {
	ns := namespace(t, "empty")
	out, errOut, err := kubectl(t, "-n", ns, "runs")
	if err != nil || out != "" || !strings.Contains(errOut, "No BenchmarkRuns found.") {
		t.Fatalf("out %q, err out %q, err %v; want kubectl's message on standard error", out, errOut, err)
	}
}
