package plugin

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
)

// ofRows makes a fixture run a TeraSort of rows rows, labelled as one study's.
func ofRows(rows int64, study string) func(*v1alpha1.BenchmarkRun) {
	return func(r *v1alpha1.BenchmarkRun) {
		r.Spec.TeraSort.Rows = ptr.To(rows)
		r.Labels = map[string]string{"series": study}
	}
}

// rowsRun is teraSortRun of a TeraSort of rows rows whose stages moved its rows times
// 100 bytes, as the operator records them, so that its throughputs follow its rows.
func rowsRun(t *testing.T, ns, name string, rows int64, study string, reps [][3]float64, mutate ...func(*v1alpha1.BenchmarkRun)) {
	t.Helper()
	run := teraSortRun(t, ns, name, "analytics", cephReplicated, reps, append([]func(*v1alpha1.BenchmarkRun){ofRows(rows, study)}, mutate...)...)
	for i := range run.Status.Stages {
		s := &run.Status.Stages[i]
		s.Bytes = rows * 100
		s.BytesPerSecond = int64(float64(s.Bytes) / s.Duration.Seconds())
		s.Throughput = benchmark.FormatThroughput(s.BytesPerSecond)
	}
	run.Status.Summary = benchmark.Summarize(&run.Spec, run.Status.Stages)
	if err := k8s.Status().Update(context.Background(), run); err != nil {
		t.Fatal(err)
	}
}

func TestReportSeriesBySelector(t *testing.T) {
	ns := namespace(t, "series")
	// Named out of the order of their rows; twice the rows take about twice as long.
	rowsRun(t, ns, "rows-4m", 4_000_000, "terasort-rows", [][3]float64{{61, 190, 49}, {64, 197, 52}})
	rowsRun(t, ns, "rows-1m", 1_000_000, "terasort-rows", [][3]float64{{20, 60, 18}, {22, 64, 20}})
	rowsRun(t, ns, "rows-2m", 2_000_000, "terasort-rows", [][3]float64{{33, 104, 28}, {35, 109, 30}})
	// Another study's run in the namespace is not selected.
	rowsRun(t, ns, "rows-8m", 8_000_000, "other", [][3]float64{{118, 371, 95}})

	dir := filepath.Join(t.TempDir(), "series")
	out, _, err := kubectl(t, "-n", ns, "report", "-l", "series=terasort-rows", "--series", "--out", dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range strings.Fields(out) {
		if info, err := os.Stat(f); err != nil || info.Size() == 0 || filepath.Dir(f) != dir {
			t.Errorf("listed file %s: %v, want a non-empty file in %s", f, err, dir)
		}
		names = append(names, filepath.Base(f))
	}
	if want := []string{"report.md", "report.html", "series-stage-times.svg", "series-stage-times.png", "series-throughput.svg", "series-throughput.png"}; !slices.Equal(names, want) {
		t.Fatalf("report listed %q, want %q", names, want)
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(md)
	t.Log("\n" + page)
	if !strings.HasPrefix(page, "# TeraSort against rows: rows-1m, rows-2m, rows-4m\n") {
		t.Errorf("report.md does not draw the three selected runs in the order of their rows:\n%s", page)
	}
	for _, want := range []string{"| 2000000 | rows-2m |", "| terasort | 1000000 | rows-1m | 62.0s | 60.0–64.0s | 60.0, 64.0 |", "series-stage-times.svg"} {
		if !strings.Contains(page, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	if strings.Contains(page, "rows-8m") {
		t.Error("report.md shows a run the selector does not select")
	}
	svg, err := os.ReadFile(filepath.Join(dir, "series-stage-times.svg"))
	if err != nil || !strings.Contains(string(svg), ">rows</text>") {
		t.Errorf("series-stage-times.svg (%v) has no axis label rows", err)
	}

	// Runs can be named too; and the same runs side by side are refused by compare's
	// rules, with the differing rows named.
	if _, _, err := kubectl(t, "-n", ns, "report", "rows-2m", "rows-1m", "--series", "--out", t.TempDir()); err != nil {
		t.Errorf("a series of named runs: %v", err)
	}
	_, _, err = kubectl(t, "-n", ns, "report", "-l", "series=terasort-rows", "--out", t.TempDir())
	if err == nil || !strings.HasPrefix(err.Error(), "cannot compare the BenchmarkRuns: ") || !strings.Contains(err.Error(), "(this run's value first): rows ") {
		t.Errorf("err = %v, want the selected runs compared and refused for their rows", err)
	}
}

func TestReportSeriesRefuses(t *testing.T) {
	ns := namespace(t, "series-refuse")
	rowsRun(t, ns, "rows-1m", 1_000_000, "pending", [][3]float64{{20, 60, 18}})
	waiting := &v1alpha1.BenchmarkRun{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "rows-2m", Labels: map[string]string{"series": "pending"}},
		Spec: v1alpha1.BenchmarkRunSpec{
			ClusterRef: v1alpha1.LocalObjectReference{Name: "analytics"},
			TeraSort:   &v1alpha1.TeraSortWorkload{Rows: ptr.To[int64](2_000_000)},
		},
	}
	if err := k8s.Create(context.Background(), waiting); err != nil {
		t.Fatal(err)
	}
	rowsRun(t, ns, "rows-1m-8-reduces", 1_000_000, "mixed", [][3]float64{{21, 55, 18}},
		func(r *v1alpha1.BenchmarkRun) { r.Spec.TeraSort.Reduces = ptr.To[int32](8) })
	rowsRun(t, ns, "rows-2m-2-reduces", 2_000_000, "mixed", [][3]float64{{33, 104, 28}})

	cases := []struct {
		name string
		args []string
		want string
	}{{
		name: "fewer than two succeeded",
		args: []string{"-l", "series=pending"},
		want: "-l series=pending selects 2 BenchmarkRuns in namespace " + ns + " (rows-1m Succeeded, rows-2m with no phase yet), of which 1 succeeded: a series needs at least two that succeeded",
	}, {
		name: "nothing selected",
		args: []string{"-l", "series=none"},
		want: "no BenchmarkRun in namespace " + ns + " matches -l series=none",
	}, {
		name: "runs named and selected",
		args: []string{"rows-1m", "-l", "series=pending"},
		want: "name the BenchmarkRuns or select them with -l, not both",
	}, {
		name: "neither",
		args: nil,
		want: "name at least one BenchmarkRun, or select them with -l",
	}, {
		name: "two parameters vary",
		args: []string{"-l", "series=mixed"},
		want: "cannot draw a series of the BenchmarkRuns: the runs differ in rows and reduces, and a series varies one parameter; " +
			"BenchmarkRun rows-2m-2-reduces did other work than rows-1m-8-reduces (this run's value first): rows 2000000 vs 1000000, reduces 2 vs 8",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"-n", ns, "report", "--series", "--out", t.TempDir()}, tc.args...)
			_, _, err := kubectl(t, args...)
			if err == nil || err.Error() != tc.want {
				t.Errorf("err\n got %v\nwant %s", err, tc.want)
			}
		})
	}
}
