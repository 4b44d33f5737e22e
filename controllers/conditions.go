package controllers

import (
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// conditionWriter sets one object's status conditions during a reconcile pass,
// stamping each with the generation the pass works on. Every pass type embeds one.
type conditionWriter struct {
	conditions *[]metav1.Condition
	generation int64
}

func (w conditionWriter) set(conditionType string, status metav1.ConditionStatus, reason, message string) {
	meta.SetStatusCondition(w.conditions, metav1.Condition{
		Type:               conditionType,
		Status:             status,
		Reason:             reason,
		Message:            message,
		ObservedGeneration: w.generation,
	})
}

func (w conditionWriter) notReady(conditionType, reason, message string) {
	w.set(conditionType, metav1.ConditionFalse, reason, message)
}

// failed reports err, an API call that went wrong, on conditionType and returns it so
// the pass is retried with backoff.
func (w conditionWriter) failed(conditionType string, err error) error {
	w.notReady(conditionType, v1alpha1.ReasonReconcileError, err.Error())
	return err
}

// unmet is an input that is not available yet: the reason and message for the
// condition that needs it.
type unmet struct{ reason, message string }

// dependency is the unmet input of a condition that waits for something else, which
// reports its own reason.
func dependency(what string) unmet {
	return unmet{v1alpha1.ReasonDependencyNotReady, "waiting for " + what}
}

func (w conditionWriter) lacks(conditionType string, input unmet) {
	w.notReady(conditionType, input.reason, input.message)
}
