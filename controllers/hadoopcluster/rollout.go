package hadoopcluster

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/podstatus"
)

// The NodeManagers' and the ResourceManager's StatefulSets update OnDelete: the
// operator replaces their pods. A new template (an image, a Hadoop version, a
// configuration change) reaches the NodeManagers one at a time, each decommissioned
// by YARN first, so no task is killed, and the ResourceManager last, once every
// NodeManager runs the new template. The JobHistory server rolls by itself.

// planRollout picks the NodeManager a rolling update replaces next and, while YARN
// decommissions it, returns the Decommission that lists its host in the exclude file.
// When it may go (decommissioned, idle, not serving, or past its deadline),
// p.replacePod names it and the pass deletes it after applying the children, with its
// host already gone from the exclude file, so its successor registers at once.
func (r *Reconciler) planRollout(ctx context.Context, p *clusterPass) (*hadoop.Decommission, error) {
	hc := p.hc
	sts, err := r.statefulSet(ctx, p, hadoop.NodeManagerName(hc))
	if err != nil || sts == nil || sts.Status.UpdateRevision == "" || sts.Status.ObservedGeneration < sts.Generation {
		return nil, err
	}
	pods, err := r.componentPods(ctx, hc, hadoop.NodeManager)
	if err != nil {
		return nil, err
	}
	desired := ptr.Deref(hc.Spec.NodeManagers.Replicas, 1)
	roll := rolloutState(pods, sts.Name, sts.Status.UpdateRevision, desired)
	p.nodeManagersCurrent = len(roll.outdated) == 0 && roll.busy == ""
	if roll.busy != "" {
		// One at a time: the pod replaced last (or one that fails with the new
		// template) must be ready before the next goes, and before the
		// ResourceManager's turn. Readiness reaches this controller through the
		// StatefulSet's status, which a replaced pod may not change.
		p.requeueAfter = decommissionPoll
		return nil, nil
	}
	if len(roll.outdated) == 0 {
		return nil, nil
	}

	target := roll.outdated[0]
	prev := p.base.Status.Decommissioning
	if prev != nil && prev.Reason == v1alpha1.DecommissionRollingUpdate && len(prev.Nodes) == 1 && slices.Contains(roll.outdated, prev.Nodes[0].Pod) {
		target = prev.Nodes[0].Pod
	}
	timeout := ptr.Deref(hc.Spec.NodeManagers.DecommissionTimeoutSeconds, defaultDecommissionTimeout)
	if timeout == 0 {
		p.replacePod = target
		return nil, nil
	}
	same := prev != nil && prev.Reason == v1alpha1.DecommissionRollingUpdate && len(prev.Nodes) == 1 && prev.Nodes[0].Pod == target
	d, expired := decommissionWindow(prev, same, timeout, r.now())
	d.Reason, d.Replicas = v1alpha1.DecommissionRollingUpdate, desired
	if expired {
		r.record(hc, nil, corev1.EventTypeWarning, v1alpha1.EventReasonDecommissionTimedOut, "Update",
			fmt.Sprintf("YARN did not decommission NodeManager %s by %s: replacing its pod anyway", target, d.Deadline.UTC().Format(time.RFC3339)))
		p.replacePod = target
		return nil, nil
	}
	hosts, pending, err := r.followDecommission(ctx, p, d, []string{target}, prev)
	if err != nil {
		return nil, err
	}
	if !pending {
		p.replacePod = target
		return nil, nil
	}
	return &hadoop.Decommission{Hosts: hosts, TimeoutSeconds: timeout}, nil
}

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

// componentPods lists the pods of a component of hc, as the workload cache has them.
func (r *Reconciler) componentPods(ctx context.Context, hc *v1alpha1.HadoopCluster, c hadoop.Component) ([]corev1.Pod, error) {
	pods := &corev1.PodList{}
	if err := r.workloads.List(ctx, pods, client.InNamespace(hc.Namespace), client.MatchingLabels(hadoop.SelectorLabels(hc, c))); err != nil {
		return nil, fmt.Errorf("listing the %s pods: %w", c, err)
	}
	return pods.Items, nil
}

// replacePods deletes the pods the pass decided to replace: the NodeManager planRollout
// picked, and the ResourceManager's once every NodeManager runs the current template.
// Their StatefulSets create them anew from the current template.
func (r *Reconciler) replacePods(ctx context.Context, p *clusterPass) error {
	hc := p.hc
	if p.replacePod != "" {
		if err := r.replacePod(ctx, hc, p.replacePod); err != nil {
			return err
		}
		r.event(hc, v1alpha1.EventReasonPodReplaced, "Update",
			fmt.Sprintf("Replacing NodeManager pod %s with the current template", p.replacePod))
		return nil
	}
	if !p.nodeManagersCurrent || hc.Status.Decommissioning != nil {
		return nil
	}
	rm, err := r.statefulSet(ctx, p, hadoop.ResourceManagerName(hc))
	if err != nil || rm == nil || rm.Status.UpdateRevision == "" || rm.Status.ObservedGeneration < rm.Generation {
		return err
	}
	pods, err := r.componentPods(ctx, hc, hadoop.ResourceManager)
	if err != nil {
		return err
	}
	for i := range pods {
		pod := &pods[i]
		if pod.DeletionTimestamp.IsZero() && pod.Labels[appsv1.ControllerRevisionHashLabelKey] != rm.Status.UpdateRevision {
			if err := r.replacePod(ctx, hc, pod.Name); err != nil {
				return err
			}
			r.event(hc, v1alpha1.EventReasonPodReplaced, "Update",
				fmt.Sprintf("Replacing ResourceManager pod %s with the current template, after the NodeManagers", pod.Name))
		}
	}
	return nil
}

// replacePod deletes a pod of hc, which its StatefulSet then creates anew.
func (r *Reconciler) replacePod(ctx context.Context, hc *v1alpha1.HadoopCluster, name string) error {
	pod := &corev1.Pod{}
	pod.Namespace, pod.Name = hc.Namespace, name
	if err := r.Delete(ctx, pod); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("deleting pod %s/%s to replace it: %w", hc.Namespace, name, err)
	}
	return nil
}
