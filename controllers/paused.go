package controllers

import (
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// markPaused changes nothing but Ready's reason, so that a paused object says so while
// every other condition keeps what the last pass observed.
func markPaused(conditions *[]metav1.Condition, generation int64) {
	status := metav1.ConditionUnknown
	if c := meta.FindStatusCondition(*conditions, v1alpha1.ConditionReady); c != nil {
		status = c.Status
	}
	meta.SetStatusCondition(conditions, metav1.Condition{
		Type:               v1alpha1.ConditionReady,
		Status:             status,
		Reason:             v1alpha1.ReasonPaused,
		Message:            "spec.paused is set: nothing is created, changed or deleted, and the other conditions show the last observed state",
		ObservedGeneration: generation,
	})
}
