package benchmarkrun

import (
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

func succeededRun(namespace, cluster string, completed time.Time, bytesPerSecond int64, d time.Duration) *v1alpha1.BenchmarkRun {
	return &v1alpha1.BenchmarkRun{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: "run"},
		Spec: v1alpha1.BenchmarkRunSpec{
			ClusterRef: v1alpha1.LocalObjectReference{Name: cluster},
			WordCount:  &v1alpha1.WordCountWorkload{InputPath: "/datasets/words"},
		},
		Status: v1alpha1.BenchmarkRunStatus{
			Phase:          v1alpha1.BenchmarkPhaseSucceeded,
			CompletionTime: &metav1.Time{Time: completed},
			Summary: &v1alpha1.BenchmarkSummary{Stages: []v1alpha1.StageSummary{{
				Stage: v1alpha1.StageWordCount, BytesPerSecond: bytesPerSecond, Duration: &metav1.Duration{Duration: d},
			}}},
		},
	}
}

func TestRecordMetricsKeepsTheLatestRun(t *testing.T) {
	const ns = "metrics-unit"
	now := time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)
	recordMetrics(succeededRun(ns, "c1", now, 2048, 1500*time.Millisecond))
	// An older run reconciled afterwards leaves the newer figures.
	recordMetrics(succeededRun(ns, "c1", now.Add(-time.Hour), 1, time.Hour))
	// Another cluster has its own.
	recordMetrics(succeededRun(ns, "c2", now, 4096, 3*time.Second))

	// The envtest specs in this package publish too: read this namespace's series.
	for _, c := range []struct {
		cluster             string
		seconds, throughput float64
	}{{"c1", 1.5, 2048}, {"c2", 3, 4096}} {
		labels := []string{ns, c.cluster, "WordCount", "wordcount"}
		if got := testutil.ToFloat64(benchmarkDuration.WithLabelValues(labels...)); got != c.seconds {
			t.Errorf("%s: hadoopceph_benchmark_duration_seconds = %v, want %v", c.cluster, got, c.seconds)
		}
		if got := testutil.ToFloat64(benchmarkThroughput.WithLabelValues(labels...)); got != c.throughput {
			t.Errorf("%s: hadoopceph_benchmark_throughput_bytes_per_second = %v, want %v", c.cluster, got, c.throughput)
		}
	}
}

func TestMetricsAreWellFormed(t *testing.T) {
	for _, c := range []prometheus.Collector{benchmarkDuration, benchmarkThroughput} {
		problems, err := testutil.CollectAndLint(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range problems {
			t.Errorf("%s: %s", p.Metric, p.Text)
		}
	}
}
