package lifecycle

import (
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// Conditions sets one object's status conditions during a pass, stamping each with the
// generation the pass works on.
type Conditions struct {
	list       *[]metav1.Condition
	generation int64
}

// NewConditions writes into list for an object of the given generation.
func NewConditions(list *[]metav1.Condition, generation int64) Conditions {
	return Conditions{list: list, generation: generation}
}

// Set sets one condition; its transition time only moves when its status does.
func (c Conditions) Set(conditionType string, status metav1.ConditionStatus, reason, message string) {
	meta.SetStatusCondition(c.list, metav1.Condition{
		Type:               conditionType,
		Status:             status,
		Reason:             reason,
		Message:            message,
		ObservedGeneration: c.generation,
	})
}

// True sets conditionType True.
func (c Conditions) True(conditionType, reason, message string) {
	c.Set(conditionType, metav1.ConditionTrue, reason, message)
}

// False sets conditionType False.
func (c Conditions) False(conditionType, reason, message string) {
	c.Set(conditionType, metav1.ConditionFalse, reason, message)
}

// Failed reports err, an API call that went wrong, on conditionType and returns it so
// the pass is retried with backoff.
func (c Conditions) Failed(conditionType string, err error) error {
	c.False(conditionType, v1alpha1.ReasonReconcileError, err.Error())
	return err
}

// Lacks sets conditionType False for an input that is not available yet.
func (c Conditions) Lacks(conditionType string, input Unmet) {
	c.False(conditionType, input.Reason, input.Message)
}

// Unmet is an input that is not available yet: the reason and message for the
// condition that needs it.
type Unmet struct{ Reason, Message string }

// Dependency is the unmet input of a condition that waits for something else, which
// reports its own reason.
func Dependency(what string) Unmet {
	return Unmet{v1alpha1.ReasonDependencyNotReady, "waiting for " + what}
}

// Summarize sets Ready from the conditions it summarises, given in the order a user
// should fix them: True with readyMessage when all are, else False with the reason of
// the first that is not.
func (c Conditions) Summarize(owned []string, readyMessage func() string) {
	for _, t := range owned {
		cond := meta.FindStatusCondition(*c.list, t)
		if cond == nil {
			c.False(v1alpha1.ConditionReady, v1alpha1.ReasonDependencyNotReady, t+" has not been evaluated yet")
			return
		}
		if cond.Status != metav1.ConditionTrue {
			c.False(v1alpha1.ConditionReady, cond.Reason, t+": "+cond.Message)
			return
		}
	}
	c.True(v1alpha1.ConditionReady, v1alpha1.ReasonReconciled, readyMessage())
}
