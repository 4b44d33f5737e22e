package benchmarkrun

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/indexes"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// admit decides whether an unfinished run may run its next stage: its baseline runs
// the same workload, its cluster exists and is Ready, and no other run goes first on
// that cluster. A run that already started keeps going whatever its cluster reports:
// its Job runs or fails on its own, and the stage result says which.
func (r *Reconciler) admit(ctx context.Context, p *runPass) (bool, error) {
	run := p.run
	started := run.Status.StartTime != nil
	if !started {
		ok, err := r.checkBaselineWorkload(ctx, p)
		if err != nil || !ok {
			return false, err
		}
	}

	ready, err := r.checkCluster(ctx, p)
	if err != nil || started {
		return started, err
	}
	if !ready {
		if p.now.After(run.CreationTimestamp.Add(p.deadline())) {
			c := meta.FindStatusCondition(run.Status.Conditions, v1alpha1.ConditionClusterReady)
			p.fail(v1alpha1.ReasonDeadlineExceeded, fmt.Sprintf("spec.deadline (%s) passed before the run could start: %s", p.deadline(), c.Message))
			return false, nil
		}
		p.waitUntilDeadline(run.CreationTimestamp.Time)
		return false, nil
	}

	first, err := r.firstInQueue(ctx, run)
	if err != nil {
		return false, err
	}
	if first != run.Name {
		p.setPhase(v1alpha1.BenchmarkPhaseQueued, v1alpha1.ReasonQueued,
			fmt.Sprintf("waiting for BenchmarkRun %s, which runs first on HadoopCluster %s", first, run.Spec.ClusterRef.Name))
		return false, nil
	}
	return true, nil
}

// checkBaselineWorkload fails a run whose baseline runs another workload: there would
// be nothing to compare. A missing baseline does not stop the run; BaselineCompared
// says it is missing.
func (r *Reconciler) checkBaselineWorkload(ctx context.Context, p *runPass) (bool, error) {
	ref := p.run.Spec.BaselineRef
	if ref == nil {
		return true, nil
	}
	baseline := &v1alpha1.BenchmarkRun{}
	err := r.Get(ctx, client.ObjectKey{Namespace: p.run.Namespace, Name: ref.Name}, baseline)
	switch {
	case apierrors.IsNotFound(err):
		return true, nil
	case err != nil:
		return false, fmt.Errorf("reading baseline BenchmarkRun %s: %w", ref.Name, err)
	}
	mine, theirs := benchmark.Workload(&p.run.Spec), benchmark.Workload(&baseline.Spec)
	if mine == theirs {
		return true, nil
	}
	message := fmt.Sprintf("spec.baselineRef names BenchmarkRun %s, which runs %s, not %s: name a %s run as the baseline", ref.Name, theirs, mine, mine)
	p.Set(v1alpha1.ConditionBaselineCompared, metav1.ConditionFalse, v1alpha1.ReasonBaselineWorkloadMismatch, message)
	p.fail(v1alpha1.ReasonBaselineWorkloadMismatch, message)
	return false, nil
}

// checkCluster reports on ClusterReady whether the run's HadoopCluster exists and is
// Ready, and while the run has not started, waits for it in Pending.
func (r *Reconciler) checkCluster(ctx context.Context, p *runPass) (bool, error) {
	run := p.run
	name := run.Spec.ClusterRef.Name
	waiting := func(reason, message string) {
		p.Set(v1alpha1.ConditionClusterReady, metav1.ConditionFalse, reason, message)
		if run.Status.StartTime == nil {
			p.setPhase(v1alpha1.BenchmarkPhasePending, reason, message)
		}
	}
	hc := &v1alpha1.HadoopCluster{}
	err := r.Get(ctx, client.ObjectKey{Namespace: run.Namespace, Name: name}, hc)
	switch {
	case apierrors.IsNotFound(err):
		waiting(v1alpha1.ReasonHadoopClusterNotFound, fmt.Sprintf("HadoopCluster %s does not exist in namespace %s: the run waits until it is created or spec.deadline passes", name, run.Namespace))
		return false, nil
	case err != nil:
		return false, fmt.Errorf("reading HadoopCluster %s: %w", name, err)
	}
	ready := meta.FindStatusCondition(hc.Status.Conditions, v1alpha1.ConditionReady)
	switch {
	case ready == nil:
		waiting(v1alpha1.ReasonHadoopClusterNotReady, fmt.Sprintf("waiting for HadoopCluster %s to be Ready (not reconciled yet)", name))
		return false, nil
	case ready.Status != metav1.ConditionTrue:
		waiting(v1alpha1.ReasonHadoopClusterNotReady, fmt.Sprintf("waiting for HadoopCluster %s to be Ready (%s: %s)", name, ready.Reason, ready.Message))
		return false, nil
	}
	if q := run.Spec.Queue; q != "" && !hasQueue(hc, q) {
		waiting(v1alpha1.ReasonQueueNotFound, fmt.Sprintf("spec.queue %s is not a queue of HadoopCluster %s (%s): the run waits until the cluster has it or spec.deadline passes",
			q, name, strings.Join(queueNames(hc), ", ")))
		return false, nil
	}
	p.cluster = hc
	p.Set(v1alpha1.ConditionClusterReady, metav1.ConditionTrue, v1alpha1.ReasonReconciled, fmt.Sprintf("HadoopCluster %s is Ready", name))
	return true, nil
}

// firstInQueue names the run that goes first on the cluster: the one that started,
// else the oldest unfinished one (by name when created in the same second). The cache
// decides which runs wait. A run it puts first is confirmed with the API server before
// it starts: a cache a few milliseconds behind may not show a run that has just
// started, or was just created, and two runs would start on the cluster at once.
// The controller has one worker, so a run that a pass started is in the API server's
// answer to every later pass.
func (r *Reconciler) firstInQueue(ctx context.Context, run *v1alpha1.BenchmarkRun) (string, error) {
	cluster := run.Spec.ClusterRef.Name
	cached := &v1alpha1.BenchmarkRunList{}
	if err := r.List(ctx, cached, client.InNamespace(run.Namespace), client.MatchingFields{indexes.BenchmarkClusterRef: cluster}); err != nil {
		return "", fmt.Errorf("listing BenchmarkRuns on HadoopCluster %s: %w", cluster, err)
	}
	if first := queueHead(run, cached.Items); first != run.Name {
		return first, nil
	}
	live := &v1alpha1.BenchmarkRunList{}
	if err := r.APIReader.List(ctx, live, client.InNamespace(run.Namespace)); err != nil {
		return "", fmt.Errorf("listing BenchmarkRuns on HadoopCluster %s: %w", cluster, err)
	}
	return queueHead(run, live.Items), nil
}

// queueHead names the run that goes first among run and the unfinished runs of runs
// on its cluster.
func queueHead(run *v1alpha1.BenchmarkRun, runs []v1alpha1.BenchmarkRun) string {
	var queue []v1alpha1.BenchmarkRun
	for _, other := range runs {
		ph := other.Status.Phase
		if other.Name != run.Name && other.Spec.ClusterRef.Name == run.Spec.ClusterRef.Name &&
			ph != v1alpha1.BenchmarkPhaseSucceeded && ph != v1alpha1.BenchmarkPhaseFailed {
			queue = append(queue, other)
		}
	}
	// This pass's own view of the run, which the lists may be behind.
	queue = append(queue, *run)
	first := slices.MinFunc(queue, func(a, b v1alpha1.BenchmarkRun) int {
		aStarted, bStarted := a.Status.StartTime != nil, b.Status.StartTime != nil
		if aStarted != bStarted {
			if aStarted {
				return -1
			}
			return 1
		}
		return cmp.Or(a.CreationTimestamp.Compare(b.CreationTimestamp.Time), cmp.Compare(a.Name, b.Name))
	})
	return first.Name
}

// queueNames are the names of the cluster's YARN queues, as its spec declares them.
func queueNames(hc *v1alpha1.HadoopCluster) []string {
	var names []string
	for _, q := range hadoop.Queues(hc) {
		names = append(names, q.Name)
	}
	return names
}

func hasQueue(hc *v1alpha1.HadoopCluster, name string) bool {
	return slices.Contains(queueNames(hc), name)
}
