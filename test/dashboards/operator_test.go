package dashboards

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	promclient "github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	// The operator's controllers, which register its metrics with controller-runtime's
	// registry, the one the manager serves.
	_ "github.com/hadoopceph/hadoop-ceph-operator/controllers"
)

// operatorMetrics are the metrics the operator's manager serves, by name, with their
// label names.
func operatorMetrics(t *testing.T) map[string][]string {
	t.Helper()
	registry, ok := metrics.Registry.(promclient.Collector)
	if !ok {
		t.Fatalf("controller-runtime's registry %T does not describe its metrics", metrics.Registry)
	}
	described, err := DescribedMetrics(registry)
	if err != nil {
		t.Fatal(err)
	}
	return described
}

// The registry holds what the manager serves even before any object has series: a
// test holding a dashboard against it must not pass for want of metrics.
func TestOperatorMetrics(t *testing.T) {
	described := operatorMetrics(t)
	for name, labels := range map[string][]string{
		"hadoopceph_benchmarkrun_phase":                    {"cluster", "name", "namespace", "phase", "workload"},
		"hadoopceph_benchmark_throughput_bytes_per_second": {"cluster", "namespace", "stage", "workload"},
		"hadoopceph_benchmark_duration_seconds":            {"cluster", "namespace", "stage", "workload"},
		"hadoopceph_storagebackend_ready":                  {"name", "namespace"},
		"hadoopceph_hadoopcluster_ready":                   {"name", "namespace"},
		"controller_runtime_reconcile_total":               {"controller", "result"},
		"controller_runtime_reconcile_time_seconds_bucket": {"controller", "le"},
		"workqueue_depth":                                  {"controller", "name", "priority"},
	} {
		got, ok := described[name]
		if !ok {
			t.Errorf("the operator does not register %s", name)
			continue
		}
		if diff := cmp.Diff(labels, got); diff != "" {
			t.Errorf("%s labels (-want +got):\n%s", name, diff)
		}
	}
}

func TestDescribedMetrics(t *testing.T) {
	reg := promclient.NewRegistry()
	reg.MustRegister(
		promclient.NewGaugeVec(promclient.GaugeOpts{Name: "empty_vec", Help: "A vector without series."}, []string{"b", "a"}),
		promclient.NewCounter(promclient.CounterOpts{Name: "with_const_total", Help: `Help with "quotes".`, ConstLabels: promclient.Labels{"c": "x"}}),
		promclient.NewHistogram(promclient.HistogramOpts{Name: "latency_seconds", Help: "A histogram."}),
	)
	got, err := DescribedMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"empty_vec": {"a", "b"}, "empty_vec_bucket": {"a", "b", "le"}, "empty_vec_sum": {"a", "b"}, "empty_vec_count": {"a", "b"},
		"with_const_total": {"c"}, "with_const_total_bucket": {"c", "le"}, "with_const_total_sum": {"c"}, "with_const_total_count": {"c"},
		"latency_seconds": nil, "latency_seconds_bucket": {"le"}, "latency_seconds_sum": nil, "latency_seconds_count": nil,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := DescribedMetrics(promclient.NewRegistry()); err == nil {
		t.Error("an empty registry described metrics")
	}
}
