// Package podstatus reads what the kubelet reports of a pod, for the controllers that
// decide from it and the suites that check it.
package podstatus

import corev1 "k8s.io/api/core/v1"

// Ready reports whether the pod's Ready condition is True: every container passes its
// readiness probe, and the pod serves.
func Ready(pod *corev1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
