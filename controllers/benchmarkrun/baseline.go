package benchmarkrun

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
)

// compareBaseline compares a succeeded run's summary with its baseline's once the
// baseline has succeeded too; until then BaselineCompared says what it waits for. Runs
// whose parameters differ get their differences instead of ratios. A comparison made
// stays when the baseline is deleted later.
func (r *Reconciler) compareBaseline(ctx context.Context, p *runPass) error {
	run := p.run
	ref := run.Spec.BaselineRef
	if ref == nil {
		return nil
	}
	if p.phaseReason == v1alpha1.ReasonBaselineWorkloadMismatch {
		return nil
	}
	baseline := &v1alpha1.BenchmarkRun{}
	err := r.Get(ctx, client.ObjectKey{Namespace: run.Namespace, Name: ref.Name}, baseline)
	switch {
	case apierrors.IsNotFound(err):
		if run.Status.Baseline == nil {
			p.Set(v1alpha1.ConditionBaselineCompared, metav1.ConditionFalse, v1alpha1.ReasonBaselineNotFound,
				fmt.Sprintf("spec.baselineRef names BenchmarkRun %s, which does not exist in namespace %s", ref.Name, run.Namespace))
		}
		return nil
	case err != nil:
		return fmt.Errorf("reading baseline BenchmarkRun %s: %w", ref.Name, err)
	}
	switch {
	case baseline.Status.Phase != v1alpha1.BenchmarkPhaseSucceeded || baseline.Status.Summary == nil:
		p.Set(v1alpha1.ConditionBaselineCompared, metav1.ConditionFalse, v1alpha1.ReasonBaselineNotSucceeded,
			fmt.Sprintf("waiting for baseline BenchmarkRun %s to succeed (phase %q)", ref.Name, baseline.Status.Phase))
	case run.Status.Phase != v1alpha1.BenchmarkPhaseSucceeded:
		p.Set(v1alpha1.ConditionBaselineCompared, metav1.ConditionFalse, v1alpha1.ReasonBaselineNotSucceeded,
			fmt.Sprintf("baseline BenchmarkRun %s has succeeded; the comparison is made once this run has", ref.Name))
	default:
		comparison, c, message := benchmark.CompareRuns(run, baseline)
		run.Status.Baseline = comparison
		if !c.Comparable() {
			p.Set(v1alpha1.ConditionBaselineCompared, metav1.ConditionFalse, v1alpha1.ReasonBaselineNotComparable, message)
			return nil
		}
		p.Set(v1alpha1.ConditionBaselineCompared, metav1.ConditionTrue, v1alpha1.ReasonCompared, message)
	}
	return nil
}
