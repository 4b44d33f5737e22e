package fleet

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/podstatus"
)

// The NodeManagers' and the ResourceManager's StatefulSets update OnDelete: the
// operator replaces their pods. A new template (an image, a Hadoop version, a
// configuration change) reaches the NodeManagers one at a time, each decommissioned
// by YARN first, so no task is killed, and the ResourceManager last, once every
// NodeManager runs the new template. The JobHistory server rolls by itself.

// rollout is where a rolling update of the NodeManagers stands.
type rollout struct {
	// outdated are the pods of ordinals below the desired count that run an older
	// template, in the order they are replaced: those not ready first (they run
	// nothing), then from the highest ordinal down.
	outdated []string
	// busy names a pod of the current template that is missing, not ready or
	// stopping; the rollout waits for it.
	busy string
}

// rolloutState compares the NodeManager pods with the StatefulSet's update revision.
// Pods of ordinals at or above desired belong to a scale-down, not to the rollout.
func rolloutState(pods []corev1.Pod, stsName, updateRevision string, desired int32) rollout {
	var out rollout
	type candidate struct {
		name    string
		ordinal int
		ready   bool
	}
	var outdated []candidate
	seen := map[int]bool{}
	for i := range pods {
		pod := &pods[i]
		ordinal, ok := podOrdinal(pod.Name, stsName)
		if !ok || ordinal >= int(desired) {
			continue
		}
		seen[ordinal] = true
		current := pod.Labels[appsv1.ControllerRevisionHashLabelKey] == updateRevision
		switch {
		case !pod.DeletionTimestamp.IsZero() || (current && !podstatus.Ready(pod)):
			out.busy = cmp.Or(out.busy, pod.Name)
		case !current:
			outdated = append(outdated, candidate{pod.Name, ordinal, podstatus.Ready(pod)})
		}
	}
	for i := range int(desired) {
		if !seen[i] {
			out.busy = cmp.Or(out.busy, fmt.Sprintf("%s-%d", stsName, i))
		}
	}
	slices.SortFunc(outdated, func(a, b candidate) int {
		if a.ready != b.ready {
			if a.ready {
				return 1
			}
			return -1
		}
		return b.ordinal - a.ordinal
	})
	for _, c := range outdated {
		out.outdated = append(out.outdated, c.name)
	}
	return out
}

// podOrdinal is the ordinal of a StatefulSet's pod, from its name.
func podOrdinal(pod, stsName string) (int, bool) {
	suffix, ok := strings.CutPrefix(pod, stsName+"-")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(suffix)
	return n, err == nil && n >= 0
}
