package benchmarkrun

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/indexes"
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

// runPhase is every run's phase, for alerts on failed runs and a dashboard of what
// runs where. A run has one series per phase, 1 for the phase it is in and 0 for the
// others, as kube-state-metrics publishes a pod's: sum by (phase) counts runs, and a
// run that moves on changes values rather than series.
var runPhase = prometheus.NewGaugeVec(prometheus.GaugeOpts{
	Name: "hadoopceph_benchmarkrun_phase",
	Help: "Phase of the BenchmarkRun: 1 for the phase it is in, 0 for the others.",
}, []string{"namespace", "name", "cluster", "workload", "phase"})

var phases = []v1alpha1.BenchmarkPhase{
	v1alpha1.BenchmarkPhasePending, v1alpha1.BenchmarkPhaseQueued, v1alpha1.BenchmarkPhaseRunning,
	v1alpha1.BenchmarkPhaseSucceeded, v1alpha1.BenchmarkPhaseFailed,
}

func init() {
	metrics.Registry.MustRegister(benchmarkDuration, benchmarkThroughput, runPhase)
}

// recordPhase publishes run's phase. A run that no pass has given a phase yet has no
// series.
func recordPhase(run *v1alpha1.BenchmarkRun) {
	if run.Status.Phase == "" {
		return
	}
	workload := string(benchmark.Workload(&run.Spec))
	for _, phase := range phases {
		current := 0.0
		if phase == run.Status.Phase {
			current = 1
		}
		runPhase.WithLabelValues(run.Namespace, run.Name, run.Spec.ClusterRef.Name, workload, string(phase)).Set(current)
	}
}

// figures are the series of one namespace, cluster and workload: those of the run that
// published them last.
type figures struct{ namespace, cluster, workload string }

func figuresOf(run *v1alpha1.BenchmarkRun) figures {
	return figures{run.Namespace, run.Spec.ClusterRef.Name, string(benchmark.Workload(&run.Spec))}
}

func (f figures) labels() prometheus.Labels {
	return prometheus.Labels{"namespace": f.namespace, "cluster": f.cluster, "workload": f.workload}
}

// publication is the run whose figures are published, and when it completed.
type publication struct {
	run       string
	completed time.Time
}

// published remembers which run's figures each cluster and workload shows, so that an
// older run reconciled again does not replace a newer one's, and the figures of a
// deleted run go with it.
var published = struct {
	sync.Mutex
	by map[figures]publication
}{by: map[figures]publication{}}

// recordMetrics publishes a succeeded run's summary unless a run on the same cluster
// and workload completed after it.
func recordMetrics(run *v1alpha1.BenchmarkRun) {
	if run.Status.Summary == nil || run.Status.CompletionTime == nil {
		return
	}
	f := figuresOf(run)
	completed := run.Status.CompletionTime.Time
	published.Lock()
	defer published.Unlock()
	last, ok := published.by[f]
	if ok && completed.Before(last.completed) {
		return
	}
	published.by[f] = publication{run: run.Name, completed: completed}
	if ok && last.run != run.Name {
		// The other run may have measured stages this one did not (TeraValidate).
		benchmarkDuration.DeletePartialMatch(f.labels())
		benchmarkThroughput.DeletePartialMatch(f.labels())
	}
	for _, s := range run.Status.Summary.Stages {
		labels := f.labels()
		labels["stage"] = string(s.Stage)
		if s.Duration != nil {
			benchmarkDuration.With(labels).Set(s.Duration.Seconds())
		}
		benchmarkThroughput.With(labels).Set(float64(s.BytesPerSecond))
	}
}

// forgetRun removes the series of a deleted run. When it had published its cluster's
// figures, those go too, and the latest other run that succeeded on the cluster with
// the same workload publishes its own instead, as it would after the operator restarts.
func (r *Reconciler) forgetRun(ctx context.Context, key client.ObjectKey) error {
	runPhase.DeletePartialMatch(prometheus.Labels{"namespace": key.Namespace, "name": key.Name})
	for _, f := range publishedBy(key) {
		// Listed before anything is removed, so that a failed list is retried with the
		// publication still there to find.
		runs := &v1alpha1.BenchmarkRunList{}
		if err := r.List(ctx, runs, client.InNamespace(f.namespace), client.MatchingFields{indexes.BenchmarkClusterRef: f.cluster}); err != nil {
			return fmt.Errorf("listing the BenchmarkRuns on HadoopCluster %s: %w", f.cluster, err)
		}
		unpublish(f, key.Name)
		for i := range runs.Items {
			run := &runs.Items[i]
			if run.Name != key.Name && run.DeletionTimestamp.IsZero() &&
				run.Status.Phase == v1alpha1.BenchmarkPhaseSucceeded && figuresOf(run) == f {
				recordMetrics(run)
			}
		}
	}
	return nil
}

// publishedBy returns the figures the run at key published.
func publishedBy(key client.ObjectKey) []figures {
	published.Lock()
	defer published.Unlock()
	var out []figures
	for f, p := range published.by {
		if f.namespace == key.Namespace && p.run == key.Name {
			out = append(out, f)
		}
	}
	return out
}

// unpublish removes figures f if run published them.
func unpublish(f figures, run string) {
	published.Lock()
	defer published.Unlock()
	if published.by[f].run != run {
		return
	}
	delete(published.by, f)
	benchmarkDuration.DeletePartialMatch(f.labels())
	benchmarkThroughput.DeletePartialMatch(f.labels())
}
