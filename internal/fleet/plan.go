package fleet

import (
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/yarn"
)

// Decision is what a pass does about its NodeManagers. A pass makes one change to them
// at most: a scale-down that ends lowers the StatefulSet, and a rollout waiting behind
// it starts on the pass that follows.
type Decision struct {
	// Decommission is what the builders put in the ResourceManager's exclude file and
	// the StatefulSet's size while YARN decommissions; nil when nothing is leaving.
	Decommission *hadoop.Decommission
	// Status is status.decommissioning; nil when nothing is leaving.
	Status *v1alpha1.Decommissioning
	// Replace names the NodeManager pod the pass deletes after applying, for its
	// StatefulSet to create it anew from the current template; empty for none.
	Replace string
	// NodeManagersCurrent says every NodeManager runs the current template and is
	// ready: the ResourceManager's turn has come.
	NodeManagersCurrent bool
	// Problem says what kept the pass from following a decommission.
	Problem string
	// RequeueAfter asks for another pass this soon, for what no watch reports: a
	// NodeManager's last container ending, or a replaced pod becoming ready; 0 for
	// none.
	RequeueAfter time.Duration
	// Event is a Warning the pass records; nil for none.
	Event *Event
}

// Event is a Kubernetes event about the NodeManagers.
type Event struct {
	Type, Reason, Action, Note string
}

// YARN is what YARN answered the pass: each asked NodeManager's node ID, and the
// ResourceManager's node list.
type YARN struct {
	// NodeIDs are the node IDs the NodeManagers of Step.Ask gave, by pod; one that did
	// not answer is missing.
	NodeIDs map[string]string
	// Nodes is the ResourceManager's node list, NodesErr why there is none; asked for
	// only when Step.NeedsNodes says so.
	Nodes    []yarn.Node
	NodesErr error
}

// Step is the first half of a pass's plan: the decision itself when YARN has nothing to
// add, else the NodeManagers being decommissioned, whose progress only YARN knows.
type Step struct {
	decided  bool
	decision Decision
	// A decommission in progress: its window, the leaving NodeManagers, the
	// StatefulSet's size meanwhile (nil keeps the spec's), and the pod a rollout
	// replaces once YARN is done with it.
	window  *v1alpha1.Decommissioning
	leaving []Leaving
	keep    *int32
	timeout int32
	replace string
}

// Next starts a pass's plan: a scale-down first, whose leaving NodeManagers YARN
// decommissions before the StatefulSet is lowered; else a rolling update of the
// NodeManagers, one pod at a time, each decommissioned before it is replaced.
func Next(o Observed) Step {
	if o.StatefulSet == nil {
		return decided(Decision{})
	}
	if step, ok := scaleDown(o); ok {
		return step
	}
	return roll(o)
}

func decided(d Decision) Step { return Step{decided: true, decision: d} }

// scaleDown plans a scale-down: when spec.nodeManagers.replicas is below the
// StatefulSet's, the leaving pods (the highest ordinals, which a StatefulSet removes
// first) stay while YARN decommissions them, listed in the exclude file. Once YARN
// reports each of them gone, or the deadline passed, the StatefulSet is lowered.
func scaleDown(o Observed) (Step, bool) {
	sts := o.StatefulSet
	current := ptr.Deref(sts.Spec.Replicas, 1)
	if current <= o.Replicas || o.TimeoutSeconds == 0 {
		return Step{}, false
	}
	prev := o.Previous
	same := prev != nil && prev.Reason == v1alpha1.DecommissionScaleDown && prev.Replicas == o.Replicas
	d, expired := window(prev, same, o.TimeoutSeconds, o.Now)
	d.Reason, d.Replicas = v1alpha1.DecommissionScaleDown, o.Replicas
	if expired {
		return decided(Decision{Event: &Event{Type: corev1.EventTypeWarning, Reason: v1alpha1.EventReasonDecommissionTimedOut, Action: "Scale",
			Note: fmt.Sprintf("YARN did not decommission the leaving NodeManagers by %s: scaling to %d anyway", d.Deadline.UTC().Format(time.RFC3339), o.Replicas)}}), true
	}
	step := Step{window: d, keep: ptr.To(current), timeout: o.TimeoutSeconds}
	for i := o.Replicas; i < current; i++ {
		step.leaving = append(step.leaving, o.leaving(fmt.Sprintf("%s-%d", sts.Name, i)))
	}
	return step, true
}

// roll plans a rolling update: the next outdated NodeManager (or the one a previous
// pass began with), decommissioned by YARN and replaced when YARN is done with it or
// its deadline passed; nothing while a replaced pod is not ready yet.
func roll(o Observed) Step {
	sts := o.StatefulSet
	if sts.Status.UpdateRevision == "" || sts.Status.ObservedGeneration < sts.Generation {
		return decided(Decision{})
	}
	state := rolloutState(o.Pods, sts.Name, sts.Status.UpdateRevision, o.Replicas)
	if state.busy != "" {
		// One at a time: the pod replaced last (or one that fails with the new
		// template) must be ready before the next goes, and before the
		// ResourceManager's turn. Readiness reaches the controller through the
		// StatefulSet's status, which a replaced pod may not change.
		return decided(Decision{RequeueAfter: Poll})
	}
	if len(state.outdated) == 0 {
		return decided(Decision{NodeManagersCurrent: true})
	}
	target := state.outdated[0]
	prev := o.Previous
	rolling := prev != nil && prev.Reason == v1alpha1.DecommissionRollingUpdate && len(prev.Nodes) == 1
	if rolling && slices.Contains(state.outdated, prev.Nodes[0].Pod) {
		target = prev.Nodes[0].Pod
	}
	if o.TimeoutSeconds == 0 {
		return decided(Decision{Replace: target})
	}
	d, expired := window(prev, rolling && prev.Nodes[0].Pod == target, o.TimeoutSeconds, o.Now)
	d.Reason, d.Replicas = v1alpha1.DecommissionRollingUpdate, o.Replicas
	if expired {
		return decided(Decision{Replace: target, Event: &Event{Type: corev1.EventTypeWarning, Reason: v1alpha1.EventReasonDecommissionTimedOut, Action: "Update",
			Note: fmt.Sprintf("YARN did not decommission NodeManager %s by %s: replacing its pod anyway", target, d.Deadline.UTC().Format(time.RFC3339))}})
	}
	return Step{window: d, leaving: []Leaving{o.leaving(target)}, timeout: o.TimeoutSeconds, replace: target}
}

// Ask names the NodeManagers whose node ID the pass asks them for, by pod: the ready
// ones among those leaving, at their pods' addresses.
func (s Step) Ask() map[string]string {
	ask := map[string]string{}
	for _, n := range s.leaving {
		if n.Ask != "" {
			ask[n.Pod] = n.Ask
		}
	}
	return ask
}

// NeedsNodes says whether the ResourceManager's node list matters, once the
// NodeManagers of Ask answered with nodeIDs: it does when any leaving NodeManager has a
// node ID to look for.
func (s Step) NeedsNodes(nodeIDs map[string]string) bool {
	return slices.ContainsFunc(s.answered(nodeIDs), func(n Leaving) bool { return n.NodeID != "" })
}

// answered is the leaving NodeManagers with the node IDs they gave; one that did not
// answer keeps the node ID status remembered.
func (s Step) answered(nodeIDs map[string]string) []Leaving {
	out := slices.Clone(s.leaving)
	for i := range out {
		if id, ok := nodeIDs[out[i].Pod]; ok && out[i].Ask != "" {
			out[i].NodeID = id
		}
	}
	return out
}

// Decide finishes the plan with what YARN answered. While any leaving NodeManager may
// still run containers, the decommission goes on and the pass looks again within Poll;
// once none does, a scale-down lowers the StatefulSet and a rollout replaces its pod.
func (s Step) Decide(y YARN) Decision {
	if s.decided {
		return s.decision
	}
	statuses, hosts, pending := progress(s.answered(y.NodeIDs), y.Nodes, y.NodesErr)
	if !pending {
		return Decision{Replace: s.replace}
	}
	status := s.window.DeepCopy()
	status.Nodes = statuses
	d := Decision{
		Decommission: &hadoop.Decommission{Replicas: s.keep, Hosts: hosts, TimeoutSeconds: s.timeout},
		Status:       status,
		RequeueAfter: Poll,
	}
	if y.NodesErr != nil {
		d.Problem = fmt.Sprintf("the ResourceManager did not answer (%v)", y.NodesErr)
	}
	return d
}
