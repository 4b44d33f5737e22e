package benchmarkrun

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/indexes"
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

// series returns the values of c's series whose labels include match, by the value of
// their label key. It reads without creating series, as WithLabelValues would.
func series(t *testing.T, c prometheus.Collector, match prometheus.Labels, key string) map[string]float64 {
	t.Helper()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(c)
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, f := range families {
	metric:
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			for k, v := range match {
				if labels[k] != v {
					continue metric
				}
			}
			out[labels[key]] = m.GetGauge().GetValue()
		}
	}
	return out
}

func TestRecordMetricsKeepsTheLatestRun(t *testing.T) {
	const ns = "metrics-unit"
	now := time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)
	recordMetrics(succeededRun(ns, "c1", now, 2048, 1500*time.Millisecond))
	// An older run reconciled afterwards leaves the newer figures.
	recordMetrics(succeededRun(ns, "c1", now.Add(-time.Hour), 1, time.Hour))
	// Another cluster has its own.
	recordMetrics(succeededRun(ns, "c2", now, 4096, 3*time.Second))

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

// A newer run that measured fewer stages leaves none of the older run's.
func TestRecordMetricsReplacesAnotherRunsStages(t *testing.T) {
	const ns = "metrics-stages"
	now := time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)
	validated := succeededRun(ns, "c1", now, 0, 0)
	validated.Name, validated.Spec.WordCount = "validated", nil
	validated.Spec.TeraSort = &v1alpha1.TeraSortWorkload{}
	validated.Status.Summary.Stages = []v1alpha1.StageSummary{
		{Stage: v1alpha1.StageTeraSort, BytesPerSecond: 10}, {Stage: v1alpha1.StageTeraValidate, BytesPerSecond: 20},
	}
	recordMetrics(validated)
	unvalidated := validated.DeepCopy()
	unvalidated.Name = "unvalidated"
	unvalidated.Status.CompletionTime = &metav1.Time{Time: now.Add(time.Hour)}
	unvalidated.Status.Summary.Stages = []v1alpha1.StageSummary{{Stage: v1alpha1.StageTeraSort, BytesPerSecond: 30}}
	recordMetrics(unvalidated)

	got := series(t, benchmarkThroughput, prometheus.Labels{"namespace": ns}, "stage")
	if diff := cmp.Diff(map[string]float64{"terasort": 30}, got); diff != "" {
		t.Errorf("throughput by stage (-want +got):\n%s", diff)
	}
}

func TestRecordPhase(t *testing.T) {
	const ns = "phase-unit"
	run := succeededRun(ns, "c1", time.Now(), 1, time.Second)
	run.Status = v1alpha1.BenchmarkRunStatus{}
	recordPhase(run)
	if got := series(t, runPhase, prometheus.Labels{"namespace": ns}, "phase"); len(got) != 0 {
		t.Errorf("a run without a phase has series %v", got)
	}

	run.Status.Phase = v1alpha1.BenchmarkPhaseRunning
	recordPhase(run)
	run.Status.Phase = v1alpha1.BenchmarkPhaseFailed
	recordPhase(run)
	want := map[string]float64{"Pending": 0, "Queued": 0, "Running": 0, "Succeeded": 0, "Failed": 1}
	match := prometheus.Labels{"namespace": ns, "name": "run", "cluster": "c1", "workload": "WordCount"}
	if diff := cmp.Diff(want, series(t, runPhase, match, "phase")); diff != "" {
		t.Errorf("series by phase (-want +got):\n%s", diff)
	}
}

func TestForgetRun(t *testing.T) {
	const ns = "forget-unit"
	now := time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)
	named := func(name string, run *v1alpha1.BenchmarkRun) *v1alpha1.BenchmarkRun {
		run.Name = name
		return run
	}
	older := named("older", succeededRun(ns, "c1", now.Add(-time.Hour), 1024, time.Second))
	newer := named("newer", succeededRun(ns, "c1", now, 2048, time.Second))
	// Neither a failed run nor one of another workload publishes the cluster's
	// WordCount figures.
	failed := named("failed", succeededRun(ns, "c1", now.Add(-time.Minute), 4096, time.Second))
	failed.Status.Phase = v1alpha1.BenchmarkPhaseFailed
	grep := named("grep", succeededRun(ns, "c1", now.Add(-time.Minute), 8192, time.Second))
	grep.Spec.WordCount, grep.Spec.Grep = nil, &v1alpha1.GrepWorkload{InputPath: "/datasets/words", Pattern: "x"}
	grep.Status.Summary.Stages[0].Stage = v1alpha1.StageGrep
	for _, run := range []*v1alpha1.BenchmarkRun{older, newer, failed, grep} {
		recordMetrics(run)
		recordPhase(run)
	}

	scheme := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	// What the cache holds once newer is deleted.
	c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(older, failed, grep).
		WithIndex(&v1alpha1.BenchmarkRun{}, indexes.BenchmarkClusterRef, func(obj client.Object) []string {
			return []string{obj.(*v1alpha1.BenchmarkRun).Spec.ClusterRef.Name}
		}).Build()
	r := &Reconciler{Client: c}
	wordCount := prometheus.Labels{"namespace": ns, "workload": "WordCount"}

	if err := r.forgetRun(context.Background(), client.ObjectKeyFromObject(newer)); err != nil {
		t.Fatal(err)
	}
	if got := series(t, runPhase, prometheus.Labels{"namespace": ns, "name": "newer"}, "phase"); len(got) != 0 {
		t.Errorf("the deleted run's phase series are left: %v", got)
	}
	if got := series(t, runPhase, prometheus.Labels{"namespace": ns, "name": "older"}, "phase"); got["Succeeded"] != 1 {
		t.Errorf("another run's phase series went too: %v", got)
	}
	if diff := cmp.Diff(map[string]float64{"wordcount": 1024}, series(t, benchmarkThroughput, wordCount, "stage")); diff != "" {
		t.Errorf("after deleting the run that published them, the figures are not the latest remaining run's (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]float64{"grep": 8192}, series(t, benchmarkThroughput, prometheus.Labels{"namespace": ns, "workload": "Grep"}, "stage")); diff != "" {
		t.Errorf("another workload's figures changed (-want +got):\n%s", diff)
	}

	// A run that published nothing takes no figures with it.
	if err := r.forgetRun(context.Background(), client.ObjectKeyFromObject(failed)); err != nil {
		t.Fatal(err)
	}
	if got := series(t, benchmarkThroughput, wordCount, "stage"); got["wordcount"] != 1024 {
		t.Errorf("deleting a failed run changed the figures: %v", got)
	}

	// The last run on the cluster takes them with it.
	if err := c.Delete(context.Background(), older); err != nil {
		t.Fatal(err)
	}
	if err := r.forgetRun(context.Background(), client.ObjectKeyFromObject(older)); err != nil {
		t.Fatal(err)
	}
	if got := series(t, benchmarkDuration, wordCount, "stage"); len(got) != 0 {
		t.Errorf("figures of a cluster without a succeeded run: %v", got)
	}
	if got := publishedBy(client.ObjectKeyFromObject(older)); len(got) != 0 {
		t.Errorf("the deleted run is still remembered as publishing %v", got)
	}
}

func TestMetricsAreWellFormed(t *testing.T) {
	for _, c := range []prometheus.Collector{benchmarkDuration, benchmarkThroughput, runPhase} {
		problems, err := testutil.CollectAndLint(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range problems {
			t.Errorf("%s: %s", p.Metric, p.Text)
		}
	}
}
