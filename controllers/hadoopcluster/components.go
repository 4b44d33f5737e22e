package hadoopcluster

import (
	"context"
	"fmt"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/fleet"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// observeComponents reports the ResourceManager, the NodeManagers and the JobHistory
// server from their StatefulSets as they exist, whether or not this pass could apply
// them: a cluster whose storage is briefly unavailable still shows its running pods.
func (r *Reconciler) observeComponents(ctx context.Context, p *clusterPass) error {
	hc := p.hc
	st := &hc.Status
	st.NodeManagerSelector = hadoop.NodeManagerSelector(hc)

	rm, err := r.statefulSet(ctx, p, hadoop.ResourceManagerName(hc))
	if err != nil {
		return p.Failed(v1alpha1.ConditionResourceManagerReady, err)
	}
	if rm != nil {
		st.ResourceManagerAddress = hadoop.ResourceManagerAddress(hc)
		st.ResourceManagerWebURL = hadoop.ResourceManagerWebURL(hc)
	}
	if err := r.reportComponent(ctx, p, hadoop.ResourceManager, rm); err != nil {
		return err
	}

	nm, err := r.statefulSet(ctx, p, hadoop.NodeManagerName(hc))
	if err != nil {
		return p.Failed(v1alpha1.ConditionNodeManagersReady, err)
	}
	st.DesiredNodeManagers = ptr.Deref(hc.Spec.NodeManagers.Replicas, 1)
	if nm != nil {
		st.DesiredNodeManagers = ptr.Deref(nm.Spec.Replicas, 1)
		st.NodeManagerReplicas = nm.Status.Replicas
		st.ReadyNodeManagers = nm.Status.ReadyReplicas
	}
	st.NodeManagers = fmt.Sprintf("%d/%d", st.ReadyNodeManagers, st.DesiredNodeManagers)
	if err := r.reportComponent(ctx, p, hadoop.NodeManager, nm); err != nil {
		return err
	}
	if d := st.Decommissioning; d != nil {
		p.False(v1alpha1.ConditionNodeManagersReady, v1alpha1.ReasonDecommissioning, fleet.Message(d, p.nodeManagers.Problem))
	}

	if !jobHistoryEnabled(hc) {
		p.False(v1alpha1.ConditionJobHistoryReady, v1alpha1.ReasonDisabled, "spec.jobHistory.enabled is false: no JobHistory server runs")
		return nil
	}
	jh, err := r.statefulSet(ctx, p, hadoop.JobHistoryName(hc))
	if err != nil {
		return p.Failed(v1alpha1.ConditionJobHistoryReady, err)
	}
	if jh != nil {
		st.JobHistoryWebURL = hadoop.JobHistoryWebURL(hc)
	}
	return r.reportComponent(ctx, p, hadoop.JobHistory, jh)
}

// statefulSet is the cluster's StatefulSet of that name as this pass applied it, else
// as the cache has it; nil when there is none that the cluster controls.
func (r *Reconciler) statefulSet(ctx context.Context, p *clusterPass, name string) (*appsv1.StatefulSet, error) {
	if sts, ok := p.statefulSets[name]; ok {
		return sts, nil
	}
	sts := &appsv1.StatefulSet{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: p.hc.Namespace, Name: name}, sts); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("reading StatefulSet %s/%s: %w", p.hc.Namespace, name, err)
	}
	if !metav1.IsControlledBy(sts, p.hc) {
		return nil, nil
	}
	return sts, nil
}

// reportComponent sets a component's condition from its StatefulSet: ready when every
// desired pod is ready and runs the current template. Otherwise it says why, most
// specific first: a pod the scheduler cannot place, a rollout, or pods starting.
func (r *Reconciler) reportComponent(ctx context.Context, p *clusterPass, c hadoop.Component, sts *appsv1.StatefulSet) error {
	conditionType, _ := conditionFor(c)
	if sts == nil {
		p.Lacks(conditionType, lifecycle.Dependency(v1alpha1.ConditionConfigReady))
		return nil
	}
	desired := ptr.Deref(sts.Spec.Replicas, 1)
	s := sts.Status
	if desired == 0 {
		p.True(conditionType, v1alpha1.ReasonReconciled, "scaled to zero: no pods run")
		return nil
	}
	if s.ObservedGeneration >= sts.Generation && s.CurrentRevision == s.UpdateRevision &&
		s.Replicas == desired && s.UpdatedReplicas >= desired && s.ReadyReplicas >= desired {
		p.True(conditionType, v1alpha1.ReasonReconciled, fmt.Sprintf("%d/%d pods of StatefulSet %s ready and current", s.ReadyReplicas, desired, sts.Name))
		return nil
	}

	pod, err := r.unschedulablePod(ctx, p.hc, c)
	if err != nil {
		return p.Failed(conditionType, err)
	}
	switch {
	case pod != nil:
		p.False(conditionType, v1alpha1.ReasonUnschedulable, fmt.Sprintf("pod %s cannot be scheduled: %s", pod.Name, podScheduled(pod).Message))
	case s.CurrentRevision != s.UpdateRevision:
		p.False(conditionType, v1alpha1.ReasonRollingUpdate,
			fmt.Sprintf("rolling StatefulSet %s to its current template: %d/%d pods updated, %d ready", sts.Name, s.UpdatedReplicas, desired, s.ReadyReplicas))
	case s.Replicas > desired:
		p.False(conditionType, v1alpha1.ReasonPodsNotReady,
			fmt.Sprintf("scaling StatefulSet %s down to %d: %d pods still stopping", sts.Name, desired, s.Replicas-desired))
	default:
		p.False(conditionType, v1alpha1.ReasonPodsNotReady, fmt.Sprintf("%d/%d pods of StatefulSet %s ready", s.ReadyReplicas, desired, sts.Name))
	}
	return nil
}

// unschedulablePod is the first pod of the component, by name, that the scheduler
// reported it cannot place.
func (r *Reconciler) unschedulablePod(ctx context.Context, hc *v1alpha1.HadoopCluster, c hadoop.Component) (*corev1.Pod, error) {
	pods, err := r.componentPods(ctx, hc, c)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(pods, func(a, b corev1.Pod) int { return strings.Compare(a.Name, b.Name) })
	for i := range pods {
		if cond := podScheduled(&pods[i]); cond != nil && cond.Status == corev1.ConditionFalse && cond.Reason == corev1.PodReasonUnschedulable {
			return &pods[i], nil
		}
	}
	return nil, nil
}

func podScheduled(pod *corev1.Pod) *corev1.PodCondition {
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == corev1.PodScheduled {
			return &pod.Status.Conditions[i]
		}
	}
	return nil
}

// componentPods lists the pods of a component of hc, as the workload cache has them.
func (r *Reconciler) componentPods(ctx context.Context, hc *v1alpha1.HadoopCluster, c hadoop.Component) ([]corev1.Pod, error) {
	pods := &corev1.PodList{}
	if err := r.workloads.List(ctx, pods, client.InNamespace(hc.Namespace), client.MatchingLabels(hadoop.SelectorLabels(hc, c))); err != nil {
		return nil, fmt.Errorf("listing the %s pods: %w", c, err)
	}
	return pods.Items, nil
}
