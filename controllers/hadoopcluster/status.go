package hadoopcluster

import (
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/fleet"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// clusterPass carries one reconcile of a HadoopCluster: the object as read, the status
// being rebuilt on it, and the StatefulSets the pass applied.
type clusterPass struct {
	lifecycle.Pass
	// base is the object as read, the origin of the status patch.
	base *v1alpha1.HadoopCluster
	// hc is the object whose status the pass rebuilds.
	hc *v1alpha1.HadoopCluster
	// statefulSets holds, by name, the StatefulSets as this pass's apply returned
	// them, which is fresher than the cache, or as it found them.
	statefulSets map[string]*appsv1.StatefulSet
	// built holds the children the pass built; nil when missing storage or a spec it
	// cannot build kept it from building them, and then from changing any.
	built *hadoop.Objects
	// podMonitorApplied says that the pass applied the cluster's PodMonitor.
	podMonitorApplied bool
	// nodeManagers is what the pass decided about the NodeManagers (nodemanagers.go).
	nodeManagers fleet.Decision
	// sessionPodsObserved says that the pass rebuilt status.sessionPods from the
	// cache (evict.go).
	sessionPodsObserved bool
	// nodeManagerHostsObserved says that the pass rebuilt status.nodeManagerHosts
	// (topology.go).
	nodeManagerHostsObserved bool
}

// newClusterPass starts a pass. Everything in the status is rebuilt from what exists,
// except conditions, which keep their last transition times while their status holds.
func newClusterPass(hc *v1alpha1.HadoopCluster) *clusterPass {
	p := &clusterPass{Pass: lifecycle.NewPass(&hc.Status.Conditions, hc.Generation), base: hc.DeepCopy(), hc: hc, statefulSets: map[string]*appsv1.StatefulSet{}}
	hc.Status = v1alpha1.HadoopClusterStatus{
		ObservedGeneration: hc.Status.ObservedGeneration,
		Conditions:         hc.Status.Conditions,
	}
	return p
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
	p.Summarize(summarizedConditions(p.hc), func() string {
		st := &p.hc.Status
		return fmt.Sprintf("YARN is ready: ResourceManager at %s, %s NodeManagers ready", st.ResourceManagerAddress, st.NodeManagers)
	})
}

// clusterWarningReasons are condition reasons that need a user's action rather than
// time.
var clusterWarningReasons = map[string]bool{
	v1alpha1.ReasonStorageBackendNotFound:      true,
	v1alpha1.ReasonInvalidSpec:                 true,
	v1alpha1.ReasonChildConflict:               true,
	v1alpha1.ReasonNetworkAttachmentNotFound:   true,
	v1alpha1.ReasonExtendedResourceUnavailable: true,
	v1alpha1.ReasonInvalidAttachmentResource:   true,
	v1alpha1.ReasonUnschedulable:               true,
	v1alpha1.ReasonReconcileError:              true,
}

// recordClusterChanges turns status changes into events: each wait, problem or
// rollout once when it starts, the creation of the children, configuration changes and
// scaling. Parts becoming ready are reported through Ready alone, and conditions that
// only wait for another one are left out: that one has its own event.
func (r *Reconciler) recordClusterChanges(p *clusterPass, before, after v1alpha1.HadoopClusterStatus) {
	hc := p.hc
	switch {
	case before.ConfigHash == "" && after.ConfigHash != "":
		children := "ServiceAccount, ConfigMaps, StatefulSets, Services and PodDisruptionBudget"
		if p.podMonitorApplied {
			children = "ServiceAccount, ConfigMaps, StatefulSets, Services, PodDisruptionBudget and PodMonitor"
		}
		if p.built != nil && len(p.built.NetworkPolicies) > 0 {
			children = "NetworkPolicies, " + children
		}
		r.Events.Normal(hc, nil, v1alpha1.EventReasonCreated, "Create",
			fmt.Sprintf("Created the cluster's %s (configuration hash %s)", children, after.ConfigHash))
	case after.ConfigHash != before.ConfigHash && after.ConfigHash != "":
		r.Events.Normal(hc, nil, v1alpha1.EventReasonConfigChanged, "Update",
			fmt.Sprintf("Hadoop configuration changed (hash %s, was %s): the pods roll to the new configuration", after.ConfigHash, before.ConfigHash))
	}
	// Once for each spec that asks for it, rather than on every pass.
	if hadoop.NetworkPoliciesIneffective(hc) && before.ObservedGeneration != after.ObservedGeneration {
		related := &networkingv1.NetworkPolicy{
			TypeMeta:   metav1.TypeMeta{APIVersion: "networking.k8s.io/v1", Kind: "NetworkPolicy"},
			ObjectMeta: metav1.ObjectMeta{Namespace: hc.Namespace, Name: hadoop.NetworkPolicyName(hc, hadoop.NodeManager)},
		}
		r.Events.Record(hc, related, corev1.EventTypeWarning, v1alpha1.EventReasonNetworkPoliciesIneffective, "Apply", networkPoliciesIneffective)
	}
	if d := after.Decommissioning; d != nil && (before.Decommissioning == nil || !before.Decommissioning.StartTime.Equal(&d.StartTime)) {
		var pods []string
		for _, n := range d.Nodes {
			pods = append(pods, n.Pod)
		}
		note := fmt.Sprintf("Decommissioning NodeManagers %s in YARN before scaling to %d, until %s at the latest",
			strings.Join(pods, ", "), d.Replicas, d.Deadline.UTC().Format(time.RFC3339))
		if d.Reason == v1alpha1.DecommissionRollingUpdate {
			note = fmt.Sprintf("Decommissioning NodeManager %s in YARN before replacing its pod with the current template, until %s at the latest",
				strings.Join(pods, ", "), d.Deadline.UTC().Format(time.RFC3339))
		}
		r.Events.Normal(hc, nil, v1alpha1.EventReasonDecommissioning, "Scale", note)
	}
	if before.NodeManagers != "" && after.NodeManagers != "" && before.DesiredNodeManagers != after.DesiredNodeManagers {
		r.Events.Normal(hc, nil, v1alpha1.EventReasonScaled, "Scale",
			fmt.Sprintf("Scaled NodeManagers from %d to %d", before.DesiredNodeManagers, after.DesiredNodeManagers))
	}

	r.Events.RecordTransitions(hc, before.Conditions, after.Conditions, lifecycle.Transitions{
		Warnings: clusterWarningReasons,
		Skip: func(c metav1.Condition) bool {
			if c.Type == v1alpha1.ConditionReady {
				return c.Status != metav1.ConditionTrue
			}
			return c.Reason == v1alpha1.ReasonDependencyNotReady || c.Status == metav1.ConditionTrue
		},
		Related: func(c metav1.Condition) runtime.Object { return componentStatefulSet(hc, c.Type) },
	})
}

// componentStatefulSet is the StatefulSet of the component whose condition is
// conditionType, the related object of that condition's events, nil for a condition of
// the whole cluster. The events API folds events of one object with the same reason
// into one series, keeping the first note: without it, the NodeManagers' PodsNotReady
// would be counted as a repeat of the ResourceManager's.
func componentStatefulSet(hc *v1alpha1.HadoopCluster, conditionType string) runtime.Object {
	c, ok := componentFor(conditionType)
	if !ok {
		return nil
	}
	return &appsv1.StatefulSet{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"},
		ObjectMeta: metav1.ObjectMeta{Namespace: hc.Namespace, Name: hadoop.ComponentName(hc, c)},
	}
}

// jobHistoryEnabled reads spec.jobHistory.enabled, which the API defaults to true.
func jobHistoryEnabled(hc *v1alpha1.HadoopCluster) bool {
	e := hc.Spec.JobHistory.Enabled
	return e == nil || *e
}
