package controllers

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// clusterPass carries one reconcile of a HadoopCluster: the object as read, the status
// being rebuilt on it, and the StatefulSets the pass applied.
type clusterPass struct {
	conditionWriter
	// base is the object as read, the origin of the status patch.
	base *v1alpha1.HadoopCluster
	// hc is the object whose status the pass rebuilds.
	hc *v1alpha1.HadoopCluster
	// statefulSets holds, by name, the StatefulSets as this pass's apply returned
	// them, which is fresher than the cache, or as it found them.
	statefulSets map[string]*appsv1.StatefulSet
}

// newClusterPass starts a pass. Everything in the status is rebuilt from what exists,
// except conditions, which keep their last transition times while their status holds.
func newClusterPass(hc *v1alpha1.HadoopCluster) *clusterPass {
	p := &clusterPass{conditionWriter: conditionWriter{&hc.Status.Conditions, hc.Generation}, base: hc.DeepCopy(), hc: hc, statefulSets: map[string]*appsv1.StatefulSet{}}
	hc.Status = v1alpha1.HadoopClusterStatus{
		ObservedGeneration: hc.Status.ObservedGeneration,
		Conditions:         hc.Status.Conditions,
	}
	return p
}

func (p *clusterPass) ready(conditionType, message string) {
	p.set(conditionType, metav1.ConditionTrue, v1alpha1.ReasonReconciled, message)
}

// summarizedConditions are the conditions Ready summarises, in the order a user should
// fix them.
func summarizedConditions(hc *v1alpha1.HadoopCluster) []string {
	out := []string{
		v1alpha1.ConditionStorageReady,
		v1alpha1.ConditionConfigReady,
		v1alpha1.ConditionNetworkReady,
		v1alpha1.ConditionResourceManagerReady,
		v1alpha1.ConditionNodeManagersReady,
	}
	if jobHistoryEnabled(hc) {
		out = append(out, v1alpha1.ConditionJobHistoryReady)
	}
	return out
}

// summarizeCluster sets Ready: true when every summarised condition is, else the first
// one that is not.
func summarizeCluster(p *clusterPass) {
	for _, t := range summarizedConditions(p.hc) {
		c := meta.FindStatusCondition(p.hc.Status.Conditions, t)
		if c == nil {
			p.notReady(v1alpha1.ConditionReady, v1alpha1.ReasonDependencyNotReady, t+" has not been evaluated yet")
			return
		}
		if c.Status != metav1.ConditionTrue {
			p.notReady(v1alpha1.ConditionReady, c.Reason, t+": "+c.Message)
			return
		}
	}
	st := &p.hc.Status
	p.ready(v1alpha1.ConditionReady,
		fmt.Sprintf("YARN is ready: ResourceManager at %s, %s NodeManagers ready", st.ResourceManagerAddress, st.NodeManagers))
}

// reconcilePaused changes nothing but Ready's reason, so that a paused cluster says so;
// every other condition keeps what the last pass observed.
func (r *HadoopClusterReconciler) reconcilePaused(ctx context.Context, hc *v1alpha1.HadoopCluster) error {
	base := hc.DeepCopy()
	markPaused(&hc.Status.Conditions, hc.Generation)
	if equality.Semantic.DeepEqual(base.Status, hc.Status) {
		return nil
	}
	r.event(hc, v1alpha1.ReasonPaused, "Pause", "Reconciliation paused by spec.paused")
	return r.Status().Patch(ctx, hc, client.MergeFrom(base))
}

// clusterWarningReasons are condition reasons that need a user's action rather than
// time.
var clusterWarningReasons = map[string]bool{
	v1alpha1.ReasonStorageBackendNotFound:      true,
	v1alpha1.ReasonInvalidSpec:                 true,
	v1alpha1.ReasonChildConflict:               true,
	v1alpha1.ReasonNetworkAttachmentNotFound:   true,
	v1alpha1.ReasonExtendedResourceUnavailable: true,
	v1alpha1.ReasonUnschedulable:               true,
	v1alpha1.ReasonReconcileError:              true,
}

// recordClusterChanges turns status changes into events: each wait, problem or
// rollout once when it starts, the creation of the children, configuration changes and
// scaling. Parts becoming ready are reported through Ready alone, and conditions that
// only wait for another one are left out: that one has its own event.
func (r *HadoopClusterReconciler) recordClusterChanges(hc *v1alpha1.HadoopCluster, before, after v1alpha1.HadoopClusterStatus) {
	switch {
	case before.ConfigHash == "" && after.ConfigHash != "":
		r.event(hc, v1alpha1.EventReasonCreated, "Create",
			fmt.Sprintf("Created the cluster's ServiceAccount, ConfigMap, StatefulSets, Services and PodDisruptionBudget (configuration hash %s)", after.ConfigHash))
	case after.ConfigHash != before.ConfigHash && after.ConfigHash != "":
		r.event(hc, v1alpha1.EventReasonConfigChanged, "Update",
			fmt.Sprintf("Hadoop configuration changed (hash %s, was %s): the pods roll to the new configuration", after.ConfigHash, before.ConfigHash))
	}
	if before.NodeManagers != "" && after.NodeManagers != "" && before.DesiredNodeManagers != after.DesiredNodeManagers {
		r.event(hc, v1alpha1.EventReasonScaled, "Scale",
			fmt.Sprintf("Scaled NodeManagers from %d to %d", before.DesiredNodeManagers, after.DesiredNodeManagers))
	}

	for _, c := range after.Conditions {
		old := meta.FindStatusCondition(before.Conditions, c.Type)
		if old != nil && old.Status == c.Status && old.Reason == c.Reason {
			continue
		}
		switch {
		case c.Type == v1alpha1.ConditionReady:
			if c.Status == metav1.ConditionTrue {
				r.event(hc, c.Reason, "Reconcile", c.Message)
			}
		case c.Reason == v1alpha1.ReasonDependencyNotReady:
		case c.Status == metav1.ConditionTrue:
		default:
			eventType := corev1.EventTypeNormal
			if clusterWarningReasons[c.Reason] {
				eventType = corev1.EventTypeWarning
			}
			r.componentEvent(hc, c.Type, eventType, c.Reason, c.Message)
		}
	}
}

// event records a Normal event about hc.
func (r *HadoopClusterReconciler) event(hc *v1alpha1.HadoopCluster, reason, action, note string) {
	r.record(hc, nil, corev1.EventTypeNormal, reason, action, note)
}

// componentEvent records a change of a component's condition with the component's
// StatefulSet as the related object. The events API folds events of one object with
// the same reason into one series, keeping the first note: without it, the
// NodeManagers' PodsNotReady would be counted as a repeat of the ResourceManager's.
func (r *HadoopClusterReconciler) componentEvent(hc *v1alpha1.HadoopCluster, conditionType, eventType, reason, note string) {
	var name string
	switch conditionType {
	case v1alpha1.ConditionResourceManagerReady:
		name = hadoop.ResourceManagerName(hc)
	case v1alpha1.ConditionNodeManagersReady:
		name = hadoop.NodeManagerName(hc)
	case v1alpha1.ConditionJobHistoryReady:
		name = hadoop.JobHistoryName(hc)
	default:
		r.record(hc, nil, eventType, reason, "Reconcile", note)
		return
	}
	sts := &appsv1.StatefulSet{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"},
		ObjectMeta: metav1.ObjectMeta{Namespace: hc.Namespace, Name: name},
	}
	r.record(hc, sts, eventType, reason, "Reconcile", note)
}

func (r *HadoopClusterReconciler) record(hc *v1alpha1.HadoopCluster, related runtime.Object, eventType, reason, action, note string) {
	if len(note) > maxEventNote {
		note = note[:maxEventNote-3] + "..."
	}
	r.Recorder.Eventf(hc, related, eventType, reason, action, "%s", note)
}

// jobHistoryEnabled reads spec.jobHistory.enabled, which the API defaults to true.
func jobHistoryEnabled(hc *v1alpha1.HadoopCluster) bool {
	e := hc.Spec.JobHistory.Enabled
	return e == nil || *e
}
