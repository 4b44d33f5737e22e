// Package testpods makes the pods that unit tests of the planners observe.
package testpods

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Pod is a pod called name with a Ready condition of ready, and a deletion timestamp
// when stopping.
func Pod(name string, ready, stopping bool) corev1.Pod {
	pod := corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name}}
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	pod.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: status}}
	if stopping {
		pod.DeletionTimestamp = &metav1.Time{Time: time.Now()}
	}
	return pod
}
