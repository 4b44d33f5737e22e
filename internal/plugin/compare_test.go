package plugin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/report"
)

func TestCompareAndReportAcrossNamespaces(t *testing.T) {
	a := namespace(t, "hdfs-team")
	b := namespace(t, "ceph-team")
	teraSortRun(t, a, "sort", "on-hdfs", hdfsBaseline, [][3]float64{{20, 60, 18}, {22, 64, 20}, {21, 62, 19}})
	teraSortRun(t, b, "sort", "on-ceph", cephReplicated, [][3]float64{{19, 58, 17}, {20, 59, 18}, {21, 61, 19}})

	out, _, err := kubectl(t, "-n", a, "compare", "sort", b+"/sort")
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + out)
	for _, want := range []string{a, b, "teragen", "terasort", "teravalidate", "62.0", "59.0", "0.95x"} {
		if !strings.Contains(out, want) {
			t.Errorf("compare lacks %q:\n%s", want, out)
		}
	}

	out, _, err = kubectl(t, "-n", a, "compare", "sort", b+"/sort", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var c report.Comparison
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Runs) != 2 || c.Runs[0].Namespace != a || c.Runs[1].Namespace != b {
		t.Fatalf("-o json runs = %+v, want %s/sort then %s/sort", c.Runs, a, b)
	}
	var sort *report.Stage
	for i := range c.Stages {
		if c.Stages[i].Stage == v1alpha1.StageTeraSort {
			sort = &c.Stages[i]
		}
	}
	if sort == nil || len(sort.Results) != 2 || sort.Results[1].MedianSeconds != 59 || sort.Results[1].MinSeconds != 58 || sort.Results[1].MaxSeconds != 61 {
		t.Fatalf("-o json terasort = %+v, want the Ceph run's median 59 s, spread 58-61 s", sort)
	}

	dir := filepath.Join(t.TempDir(), "report")
	out, _, err = kubectl(t, "-n", a, "report", "sort", b+"/sort", "--out", dir)
	if err != nil {
		t.Fatal(err)
	}
	listed := strings.Fields(out)
	if len(listed) != 6 {
		t.Fatalf("report listed %v, want six files", listed)
	}
	for _, f := range listed {
		info, err := os.Stat(f)
		if err != nil || info.Size() == 0 || filepath.Dir(f) != dir {
			t.Errorf("listed file %s: %v (size %v), want a non-empty file in %s", f, err, info, dir)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil || !strings.Contains(string(md), "stage-times.svg") {
		t.Errorf("report.md (%v) does not show the stage-times chart:\n%s", err, md)
	}
}

func TestCompareRefusesWhatIsNotComparable(t *testing.T) {
	ns := namespace(t, "refuse")
	teraSortRun(t, ns, "million", "analytics", cephReplicated, [][3]float64{{20, 60, 18}})
	teraSortRun(t, ns, "more-rows", "analytics", cephReplicated, [][3]float64{{40, 120, 36}}, func(r *v1alpha1.BenchmarkRun) {
		r.Spec.TeraSort.Rows = ptr.To[int64](2_000_000)
	})
	_, _, err := kubectl(t, "-n", ns, "compare", "million", "more-rows")
	if err == nil {
		t.Fatal("compare accepted runs of different rows")
	}
	t.Log(err)
	if !strings.Contains(err.Error(), "more-rows") || !strings.Contains(err.Error(), "rows") || !strings.Contains(err.Error(), "2000000") {
		t.Errorf("err = %v, want the run and the parameter that differs named", err)
	}

	_, _, err = kubectl(t, "-n", ns, "report", "million", "missing", "--out", t.TempDir())
	if err == nil || err.Error() != "BenchmarkRun "+ns+"/missing not found" {
		t.Errorf("err = %v, want the missing run named", err)
	}
	_, _, err = kubectl(t, "-n", ns, "report", "million")
	if err == nil || !strings.Contains(err.Error(), "--out") {
		t.Errorf("err = %v, want --out asked for", err)
	}
	_, _, err = kubectl(t, "-n", ns, "compare", "a/b/c")
	if err == nil || !strings.Contains(err.Error(), "NAME or NAMESPACE/NAME") {
		t.Errorf("err = %v, want the argument's shape named", err)
	}
}
