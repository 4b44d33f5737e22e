package benchmarkrun

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/indexes"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/yarn"
)

// A pass of a run whose MapReduce stage runs reads the percent and comes back for it;
// a pass of a finished run asks nothing and does not come back.
func TestOnlyRunningStagesArePolled(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := batchv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	cluster := &v1alpha1.HadoopCluster{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "hc"},
		Status: v1alpha1.HadoopClusterStatus{Conditions: []metav1.Condition{{
			Type: v1alpha1.ConditionReady, Status: metav1.ConditionTrue, Reason: v1alpha1.ReasonReconciled, LastTransitionTime: metav1.NewTime(now),
		}}},
	}
	run := &v1alpha1.BenchmarkRun{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "count", UID: "run-uid", CreationTimestamp: metav1.NewTime(now.Add(-time.Hour))},
		Spec: v1alpha1.BenchmarkRunSpec{
			ClusterRef: v1alpha1.LocalObjectReference{Name: "hc"},
			WordCount:  &v1alpha1.WordCountWorkload{InputPath: "/datasets/words"},
			Cleanup:    ptr.To(false),
		},
		Status: v1alpha1.BenchmarkRunStatus{Phase: v1alpha1.BenchmarkPhaseRunning, StartTime: &metav1.Time{Time: now.Add(-time.Minute)}},
	}
	job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{
		Namespace: "ns", Name: benchmark.JobName(run, benchmark.Step{Stage: v1alpha1.StageWordCount, Repetition: 1}),
		CreationTimestamp: metav1.NewTime(now.Add(-time.Minute)),
		OwnerReferences: []metav1.OwnerReference{{
			APIVersion: v1alpha1.GroupVersion.String(), Kind: "BenchmarkRun", Name: run.Name, UID: run.UID, Controller: ptr.To(true),
		}},
	}}
	c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(cluster, run, job).WithStatusSubresource(run).
		WithIndex(&v1alpha1.BenchmarkRun{}, indexes.BenchmarkClusterRef, func(obj client.Object) []string {
			return []string{obj.(*v1alpha1.BenchmarkRun).Spec.ClusterRef.Name}
		}).Build()
	source := &countingYARN{apps: []yarn.Application{{State: "RUNNING", Progress: 37.9, StartedTime: now.UnixMilli()}}}
	r := &Reconciler{Client: c, APIReader: c, Scheme: scheme, Events: lifecycle.Events{Recorder: events.NewFakeRecorder(10)}, YARN: source}
	req := ctrl.Request{NamespacedName: client.ObjectKeyFromObject(run)}
	read := func() *v1alpha1.BenchmarkRun {
		t.Helper()
		got := &v1alpha1.BenchmarkRun{}
		if err := c.Get(context.Background(), req.NamespacedName, got); err != nil {
			t.Fatal(err)
		}
		return got
	}

	result, err := r.Reconcile(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if result.RequeueAfter != ProgressInterval {
		t.Errorf("RequeueAfter = %s while the stage runs, want %s", result.RequeueAfter, ProgressInterval)
	}
	if p := read().Status.Progress; p == nil || p.Percent == nil || *p.Percent != 37 || !strings.HasSuffix(p.Message, ", 37%") {
		t.Errorf("progress = %+v, want 37%%", p)
	}

	source.err = errors.New("connection refused")
	if result, err = r.Reconcile(context.Background(), req); err != nil {
		t.Fatalf("a ResourceManager that does not answer failed the pass: %v", err)
	}
	if result.RequeueAfter != ProgressInterval {
		t.Errorf("RequeueAfter = %s, want %s: the ResourceManager is asked again", result.RequeueAfter, ProgressInterval)
	}
	if p := read().Status.Progress; p.Percent != nil || strings.Contains(p.Message, "%") {
		t.Errorf("progress = %+v, want no percent once the ResourceManager does not answer", p)
	}

	finished := read()
	finished.Status.Phase = v1alpha1.BenchmarkPhaseSucceeded
	finished.Status.CompletionTime = &metav1.Time{Time: now}
	if err := c.Status().Update(context.Background(), finished); err != nil {
		t.Fatal(err)
	}
	asked := source.asked
	if result, err = r.Reconcile(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if result.RequeueAfter != 0 || source.asked != asked {
		t.Errorf("a finished run: RequeueAfter = %s and %d question(s), want neither", result.RequeueAfter, source.asked-asked)
	}
}

// A ResourceManager that did not answer is not asked again for a while; one that
// answers is asked every time.
func TestResourceManagersLeaveOneThatDidNotAnswerAlone(t *testing.T) {
	var hits int
	var mu sync.Mutex
	failing := true
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		hits++
		if failing {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte(`{"apps":null}`))
	}))
	defer srv.Close()
	clk := clocktesting.NewFakePassiveClock(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC))
	m := &resourceManagers{client: yarn.NewClient("hadoop"), webURL: func(*v1alpha1.HadoopCluster) string { return srv.URL }, clock: clk}
	down := &v1alpha1.HadoopCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "down"}}
	up := &v1alpha1.HadoopCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "up"}}

	requests := func() int {
		mu.Lock()
		defer mu.Unlock()
		return hits
	}
	for range 2 {
		if _, err := m.ApplicationsByTag(context.Background(), down, "t"); err == nil {
			t.Fatal("want an error")
		}
	}
	if hits := requests(); hits != 1 {
		t.Errorf("%d requests to a ResourceManager that did not answer, want 1", hits)
	}

	mu.Lock()
	failing = false
	mu.Unlock()
	for range 2 {
		if _, err := m.ApplicationsByTag(context.Background(), up, "t"); err != nil {
			t.Fatal(err)
		}
	}
	if hits := requests(); hits != 3 {
		t.Errorf("%d requests in all, want 3: another cluster's ResourceManager is asked every time", hits)
	}

	// Once the silence is over, the one that did not answer is asked again.
	clk.SetTime(clk.Now().Add(silence + time.Second))
	if _, err := m.ApplicationsByTag(context.Background(), down, "t"); err != nil {
		t.Fatal(err)
	}
	if hits := requests(); hits != 4 {
		t.Errorf("%d requests in all, want 4: the silence is over", hits)
	}
}

// countingYARN answers with apps and counts the questions.
type countingYARN struct {
	apps  []yarn.Application
	err   error
	asked int
}

func (c *countingYARN) ApplicationsByTag(context.Context, *v1alpha1.HadoopCluster, string) ([]yarn.Application, error) {
	c.asked++
	return c.apps, c.err
}
