package promtext

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNames(t *testing.T) {
	const exposition = "# HELP jvm_metrics_mem_heap_used_m Heap memory used in MB\n" +
		"# TYPE jvm_metrics_mem_heap_used_m gauge\n" +
		`jvm_metrics_mem_heap_used_m{context="jvm",processname="ResourceManager",sessionid="null",hostname="rm-0"} 44.5` + "\n" +
		"\n" +
		`queue_metrics_apps_running{queue="root.default",context="yarn",hostname="rm-0"} 1` + "\n" +
		`queue_metrics_apps_running{queue="root",context="yarn",hostname="rm-0"} 1` + "\n" +
		`odd_labels{value="a } b { c",other="x\"y"} NaN 1700000000000` + "\n" +
		"  up 1\n" +
		"# TYPE reconcile_seconds histogram\n" +
		"reconcile_seconds_bucket{le=\"+Inf\"} 3\n" +
		"reconcile_seconds_sum 0.5\n" +
		"reconcile_seconds_count 3\n" +
		"# TYPE gc_seconds summary\n" +
		"gc_seconds{quantile=\"0.5\"} 0.1\n" +
		"gc_seconds_sum 0.2\n" +
		"gc_seconds_count 2\n" +
		"# HELP announced_only Announced, never sampled.\n" +
		"ns:recorded:rate5m 0.5\n"
	e, err := Parse(strings.NewReader(exposition))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"gc_seconds", "gc_seconds_count", "gc_seconds_sum",
		"jvm_metrics_mem_heap_used_m", "ns:recorded:rate5m", "odd_labels", "queue_metrics_apps_running",
		"reconcile_seconds_bucket", "reconcile_seconds_count", "reconcile_seconds_sum", "up",
	}
	if diff := cmp.Diff(want, e.Names()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestValue(t *testing.T) {
	const exposition = "# TYPE queue_metrics_allocated_mb gauge\n" +
		`queue_metrics_allocated_mb{queue="root.default",context="yarn"} 512` + "\n" +
		`queue_metrics_allocated_mb{queue="root",context="yarn"} 1024` + "\n" +
		"# TYPE hadoopceph_benchmarkrun_phase gauge\n" +
		`hadoopceph_benchmarkrun_phase{name="dfsio",namespace="e2e",phase="Failed"} 0` + "\n" +
		`hadoopceph_benchmarkrun_phase{name="dfsio",namespace="e2e",phase="Succeeded"} 1` + "\n" +
		`hadoopceph_benchmarkrun_phase{name="dfsio-2",namespace="e2e",phase="Succeeded"} 0` + "\n" +
		"# TYPE requests_total counter\n" +
		`requests_total{path="/a\"b"} 7` + "\n" +
		"untyped_thing 3\n"
	e, err := Parse(strings.NewReader(exposition))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		metric string
		labels map[string]string
		want   float64
		found  bool
	}{
		{"queue_metrics_allocated_mb", nil, 512, true},
		{"queue_metrics_allocated_mb", map[string]string{"queue": "root"}, 1024, true},
		{"queue_metrics_allocated_mb", map[string]string{"queue": "root.default"}, 512, true},
		{"queue_metrics_allocated_mb", map[string]string{"queue": "roo"}, 0, false},
		// A prefix of a label value is not the value: "dfsio" is not "dfsio-2".
		{"hadoopceph_benchmarkrun_phase", map[string]string{"name": "dfsio", "phase": "Succeeded"}, 1, true},
		{"hadoopceph_benchmarkrun_phase", map[string]string{"name": "dfsio-2", "phase": "Failed"}, 0, false},
		{"hadoopceph_benchmarkrun_phase", map[string]string{"name": "dfsio", "missing": "x"}, 0, false},
		{"requests_total", map[string]string{"path": `/a"b`}, 7, true},
		{"untyped_thing", nil, 3, true},
		{"absent", nil, 0, false},
	} {
		got, found := e.Value(tc.metric, tc.labels)
		if got != tc.want || found != tc.found {
			t.Errorf("Value(%s, %v) = %v, %v; want %v, %v", tc.metric, tc.labels, got, found, tc.want, tc.found)
		}
	}
}

// Sum adds every series of a metric whose labels include the given ones.
func TestSum(t *testing.T) {
	const exposition = "# TYPE controller_runtime_reconcile_total counter\n" +
		`controller_runtime_reconcile_total{controller="hadoopcluster",result="success"} 398` + "\n" +
		`controller_runtime_reconcile_total{controller="hadoopcluster",result="requeue"} 3` + "\n" +
		`controller_runtime_reconcile_total{controller="storagebackend",result="success"} 10` + "\n" +
		"# TYPE workqueue_depth gauge\n" +
		`workqueue_depth{name="hadoopcluster"} 2` + "\n" +
		`workqueue_depth{name="storagebackend"} 1` + "\n"
	e, err := Parse(strings.NewReader(exposition))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		metric string
		labels map[string]string
		want   float64
	}{
		{"controller_runtime_reconcile_total", map[string]string{"controller": "hadoopcluster"}, 401},
		{"controller_runtime_reconcile_total", nil, 411},
		{"workqueue_depth", nil, 3},
		{"workqueue_depth", map[string]string{"name": "other"}, 0},
		{"absent", nil, 0},
	} {
		if got := e.Sum(tc.metric, tc.labels); got != tc.want {
			t.Errorf("Sum(%s, %v) = %v, want %v", tc.metric, tc.labels, got, tc.want)
		}
	}
}

// A scrape of the wrong path, a proxy's error page or a malformed exposition is
// reported, not read as an endpoint that exposes nothing.
func TestParseRefusesOtherContent(t *testing.T) {
	for name, body := range map[string]string{
		"HTML":               "<html><body>HTTP ERROR 404</body></html>\n",
		"JSON":               `{"beans": []}` + "\n",
		"name without value": "up\n",
		"bad name":           "1up 1\n",
		"second TYPE":        "# TYPE up gauge\nup 1\n# TYPE up gauge\n",
	} {
		t.Run(name, func(t *testing.T) {
			if e, err := Parse(strings.NewReader(body)); err == nil {
				t.Errorf("got %v, no error", e.Names())
			}
		})
	}
}

// The scrapes of Hadoop's daemons that the dashboards' tests read parse whole: Hadoop's
// /prom is what Prometheus's strict parser accepts.
func TestParseHadoopScrapes(t *testing.T) {
	files, err := filepath.Glob("../dashboards/testdata/*.prom")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scrapes in ../dashboards/testdata: %v", err)
	}
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		e, err := Parse(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if len(e.Names()) < 50 {
			t.Errorf("%s: %d metric names, want the daemon's many", file, len(e.Names()))
		}
	}
}
