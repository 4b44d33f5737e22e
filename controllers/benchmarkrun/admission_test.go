package benchmarkrun

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/indexes"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
)

// A run waiting for a cluster that never comes fails once spec.deadline has passed
// since its creation, measured with the reconciler's clock.
func TestPendingRunFailsAtItsDeadline(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	created := time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)
	run := &v1alpha1.BenchmarkRun{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "early", CreationTimestamp: metav1.NewTime(created)},
		Spec: v1alpha1.BenchmarkRunSpec{
			ClusterRef: v1alpha1.LocalObjectReference{Name: "missing"},
			WordCount:  &v1alpha1.WordCountWorkload{InputPath: "/datasets/words"},
			Deadline:   &metav1.Duration{Duration: time.Hour},
		},
	}
	c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(run).WithStatusSubresource(run).Build()
	clock := clocktesting.NewFakePassiveClock(created.Add(20 * time.Minute))
	r := &Reconciler{Client: c, APIReader: c, Scheme: scheme, Events: lifecycle.Events{Recorder: events.NewFakeRecorder(10)}, Clock: clock}
	req := ctrl.Request{NamespacedName: client.ObjectKeyFromObject(run)}

	readyReason := func() (v1alpha1.BenchmarkPhase, string) {
		t.Helper()
		got := &v1alpha1.BenchmarkRun{}
		if err := c.Get(context.Background(), req.NamespacedName, got); err != nil {
			t.Fatal(err)
		}
		ready := meta.FindStatusCondition(got.Status.Conditions, v1alpha1.ConditionReady)
		if ready == nil {
			t.Fatal("no Ready condition")
		}
		return got.Status.Phase, ready.Reason
	}

	result, err := r.Reconcile(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if result.RequeueAfter != 40*time.Minute {
		t.Errorf("RequeueAfter = %s, want the 40m left of the deadline", result.RequeueAfter)
	}
	if phase, reason := readyReason(); phase != v1alpha1.BenchmarkPhasePending || reason != v1alpha1.ReasonHadoopClusterNotFound {
		t.Errorf("after 20m: %s/%s, want Pending/%s", phase, reason, v1alpha1.ReasonHadoopClusterNotFound)
	}

	clock.SetTime(created.Add(61 * time.Minute))
	if _, err := r.Reconcile(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if phase, reason := readyReason(); phase != v1alpha1.BenchmarkPhaseFailed || reason != v1alpha1.ReasonDeadlineExceeded {
		t.Errorf("after 61m: %s/%s, want Failed/%s", phase, reason, v1alpha1.ReasonDeadlineExceeded)
	}
}

// A run that the cache puts first on its cluster waits when the API server knows a
// run that goes before it: one that started, or was created, a moment ago.
func TestAdmissionConfirmsTheQueueWithTheAPIServer(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	created := metav1.NewTime(time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC))
	cluster := &v1alpha1.HadoopCluster{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "shared"},
		Status: v1alpha1.HadoopClusterStatus{Conditions: []metav1.Condition{{
			Type: v1alpha1.ConditionReady, Status: metav1.ConditionTrue, Reason: v1alpha1.ReasonReconciled, LastTransitionTime: created,
		}}},
	}
	wordCountOn := func(name string) *v1alpha1.BenchmarkRun {
		return &v1alpha1.BenchmarkRun{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, CreationTimestamp: created},
			Spec: v1alpha1.BenchmarkRunSpec{
				ClusterRef: v1alpha1.LocalObjectReference{Name: "shared"},
				WordCount:  &v1alpha1.WordCountWorkload{InputPath: "/datasets/words"},
			},
		}
	}
	mine, other := wordCountOn("b-mine"), wordCountOn("c-other")
	other.Status = v1alpha1.BenchmarkRunStatus{Phase: v1alpha1.BenchmarkPhaseRunning, StartTime: &created}
	// Another cluster's run is no competitor, however early.
	elsewhere := wordCountOn("a-elsewhere")
	elsewhere.Spec.ClusterRef.Name = "other"

	byCluster := func(obj client.Object) []string { return []string{obj.(*v1alpha1.BenchmarkRun).Spec.ClusterRef.Name} }
	build := func(objs ...client.Object) client.Client {
		return fake.NewClientBuilder().WithScheme(scheme).WithObjects(objs...).WithStatusSubresource(&v1alpha1.BenchmarkRun{}).
			WithIndex(&v1alpha1.BenchmarkRun{}, indexes.BenchmarkClusterRef, byCluster).Build()
	}
	cached := build(cluster, mine.DeepCopy())
	live := build(cluster, mine.DeepCopy(), other, elsewhere)
	r := &Reconciler{Client: cached, APIReader: live, Scheme: scheme, Events: lifecycle.Events{Recorder: events.NewFakeRecorder(10)}}

	if _, err := r.Reconcile(context.Background(), ctrl.Request{NamespacedName: client.ObjectKeyFromObject(mine)}); err != nil {
		t.Fatal(err)
	}
	got := &v1alpha1.BenchmarkRun{}
	if err := cached.Get(context.Background(), client.ObjectKeyFromObject(mine), got); err != nil {
		t.Fatal(err)
	}
	ready := meta.FindStatusCondition(got.Status.Conditions, v1alpha1.ConditionReady)
	if got.Status.Phase != v1alpha1.BenchmarkPhaseQueued || ready == nil || !strings.Contains(ready.Message, "BenchmarkRun c-other") {
		t.Errorf("phase %s, Ready %+v; want Queued behind c-other", got.Status.Phase, ready)
	}
	if got.Status.StartTime != nil {
		t.Error("the run started")
	}
}
