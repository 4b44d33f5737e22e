package benchmarkrun

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
)

// The last succeeded run's medians, per cluster, workload and stage, so that a
// dashboard follows a cluster's performance from run to run.
var (
	benchmarkLabels = []string{"namespace", "cluster", "workload", "stage"}

	benchmarkDuration = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "hadoopceph_benchmark_duration_seconds",
		Help: "Median duration of a benchmark stage in the last BenchmarkRun that succeeded on the cluster.",
	}, benchmarkLabels)
	benchmarkThroughput = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "hadoopceph_benchmark_throughput_bytes_per_second",
		Help: "Median throughput of a benchmark stage in the last BenchmarkRun that succeeded on the cluster.",
	}, benchmarkLabels)
)

func init() {
	metrics.Registry.MustRegister(benchmarkDuration, benchmarkThroughput)
}

// published remembers when the run behind each cluster and workload's figures
// completed, so that an older run reconciled again does not replace a newer one's.
var published = struct {
	sync.Mutex
	completed map[[3]string]time.Time
}{completed: map[[3]string]time.Time{}}

// recordMetrics publishes a succeeded run's summary unless a run on the same cluster
// and workload completed after it.
func recordMetrics(run *v1alpha1.BenchmarkRun) {
	if run.Status.Summary == nil || run.Status.CompletionTime == nil {
		return
	}
	workload := string(benchmark.Workload(&run.Spec))
	key := [3]string{run.Namespace, run.Spec.ClusterRef.Name, workload}
	completed := run.Status.CompletionTime.Time
	published.Lock()
	defer published.Unlock()
	if last, ok := published.completed[key]; ok && completed.Before(last) {
		return
	}
	published.completed[key] = completed
	for _, s := range run.Status.Summary.Stages {
		labels := prometheus.Labels{
			"namespace": run.Namespace,
			"cluster":   run.Spec.ClusterRef.Name,
			"workload":  workload,
			"stage":     string(s.Stage),
		}
		if s.Duration != nil {
			benchmarkDuration.With(labels).Set(s.Duration.Seconds())
		}
		benchmarkThroughput.With(labels).Set(float64(s.BytesPerSecond))
	}
}
