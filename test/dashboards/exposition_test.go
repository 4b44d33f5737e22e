package dashboards

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExposedMetrics(t *testing.T) {
	const exposition = "# HELP jvm_metrics_mem_heap_used_m Heap memory used in MB\r\n" +
		"# TYPE jvm_metrics_mem_heap_used_m gauge\r\n" +
		`jvm_metrics_mem_heap_used_m{context="jvm",processname="ResourceManager",sessionid="null",hostname="rm-0"} 44.5` + "\r\n" +
		"\n" +
		`queue_metrics_apps_running{queue="root.default",context="yarn",hostname="rm-0"} 1` + "\n" +
		`queue_metrics_apps_running{queue="root",context="yarn",hostname="rm-0"} 1` + "\n" +
		`odd_labels{value="a } b { c",other="x\"y"} NaN 1700000000000` + "\n" +
		"  up 1\n" +
		"requests_bucket{le=\"+Inf\"} 3\n" +
		"requests_count\t3\n" +
		"ns:recorded:rate5m 0.5\n"
	got, err := ExposedMetrics(strings.NewReader(exposition))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"jvm_metrics_mem_heap_used_m", "ns:recorded:rate5m", "odd_labels", "queue_metrics_apps_running",
		"requests_bucket", "requests_count", "up",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// A scrape of the wrong path or a proxy's error page is reported, not read as an
// endpoint that exposes nothing.
func TestExposedMetricsRefusesOtherContent(t *testing.T) {
	for name, body := range map[string]string{
		"HTML":               "<html><body>HTTP ERROR 404</body></html>\n",
		"JSON":               `{"beans": []}` + "\n",
		"name without value": "up\n",
		"bad name":           "1up 1\n",
	} {
		t.Run(name, func(t *testing.T) {
			if got, err := ExposedMetrics(strings.NewReader(body)); err == nil || !strings.Contains(err.Error(), "line 1") {
				t.Errorf("got %q, error %v; want an error naming line 1", got, err)
			}
		})
	}
}
