package podstatus

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
)

func TestReady(t *testing.T) {
	for _, tc := range []struct {
		name       string
		conditions []corev1.PodCondition
		want       bool
	}{
		{"Ready True", []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionTrue}, {Type: corev1.PodReady, Status: corev1.ConditionTrue}}, true},
		{"Ready False", []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}}, false},
		{"only scheduled", []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionTrue}}, false},
		{"no conditions yet", nil, false},
	} {
		if got := Ready(&corev1.Pod{Status: corev1.PodStatus{Conditions: tc.conditions}}); got != tc.want {
			t.Errorf("%s: Ready = %v, want %v", tc.name, got, tc.want)
		}
	}
}
