// Package fencing decides whose CephFS sessions a HadoopCluster's evictor ends: those
// of pods that are gone, and those of pods on a node that was lost. A lost node's pods
// stay in the API (Terminating, or Running with an unknown Ready condition) until
// someone force-deletes them, while their sessions hold capabilities that make every
// other client wait for the MDS's timeouts; so, as Rook fences a lost node's CSI
// clients, the sessions of such a pod are evicted as soon as Kubernetes says its node
// is unreachable, without waiting for the pod object to go.
//
// Plan is pure: the controller observes pods, nodes and its record, plans, and acts.
package fencing

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// OutOfServiceTaint is the taint an administrator puts on a node that is shut down
// for good (Kubernetes' non-graceful node shutdown), which Rook also fences on.
const OutOfServiceTaint = "node.kubernetes.io/out-of-service"

// Eviction is a pod whose sessions are to be evicted, and why.
type Eviction struct {
	Pod v1alpha1.SessionPod
	// NodeLost says the pod still exists on a node that was lost: Why names the node
	// and what Kubernetes says of it, and FencedAt is the time recorded as Fenced.
	// Only the sessions opened before FencedAt are the lost node's: the kubelet runs
	// the pod again under the same UID once the node is back.
	NodeLost bool
	FencedAt time.Time
	Why      string
}

// Decision is what a pass does: the evictions to start, and the record to keep.
type Decision struct {
	Evict []Eviction
	// Record is status.sessionPods after the pass, on the condition that every
	// eviction starts; a pod whose eviction fails to start stays as it was recorded.
	Record []v1alpha1.SessionPod
}

// Plan decides from the record (status.sessionPods), the cluster's pods that exist,
// the nodes by name, and the time.
//   - A recorded pod that no longer exists is evicted, unless its sessions were
//     evicted already when its node was lost (Fenced); it leaves the record.
//   - An existing pod on a lost node is evicted once and recorded as Fenced; once the
//     node is back, the pod is recorded without Fenced again.
//   - Every existing pod is recorded; a pod the record never had is not evicted when
//     it goes before a pass saw it, so a lagging cache cannot evict a live pod.
func Plan(recorded []v1alpha1.SessionPod, pods []corev1.Pod, nodes map[string]*corev1.Node, now time.Time) Decision {
	var d Decision
	before := map[string]v1alpha1.SessionPod{}
	for _, r := range recorded {
		before[r.UID] = r
	}
	live := map[string]bool{}
	for _, pod := range pods {
		uid := string(pod.UID)
		live[uid] = true
		rec := v1alpha1.SessionPod{Name: pod.Name, UID: uid}
		old, known := before[uid]
		lost, why := NodeLost(nodes[pod.Spec.NodeName], pod.Spec.NodeName)
		switch {
		case known && old.Fenced != nil && lost:
			rec.Fenced = old.Fenced
		case known && old.Fenced != nil:
			// The node came back: the kubelet restarts the pod's containers under the
			// same UID, and their new sessions are evicted like any pod's when the pod
			// goes or its node is lost again.
		case known && lost:
			rec.Fenced = &metav1.Time{Time: now}
			d.Evict = append(d.Evict, Eviction{Pod: old, NodeLost: true, FencedAt: now, Why: why})
		}
		d.Record = append(d.Record, rec)
	}
	for _, r := range recorded {
		if !live[r.UID] && r.Fenced == nil {
			d.Evict = append(d.Evict, Eviction{Pod: r, Why: "the pod is gone"})
		}
	}
	slices.SortFunc(d.Record, func(a, b v1alpha1.SessionPod) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.UID, b.UID))
	})
	return d
}

// NodeLost tells whether a pod's node was lost, and why: the node object is gone, an
// administrator declared it out of service, or the node controller marked it
// unreachable (its Ready condition Unknown: the kubelet stopped reporting). A node
// whose kubelet reports NotReady is not lost: its pods may still run. A pod not yet
// on a node has no sessions to lose.
func NodeLost(node *corev1.Node, name string) (bool, string) {
	if name == "" {
		return false, ""
	}
	if node == nil {
		return true, fmt.Sprintf("its node %s is gone", name)
	}
	for _, t := range node.Spec.Taints {
		if t.Key == OutOfServiceTaint {
			return true, fmt.Sprintf("its node %s is tainted %s", name, OutOfServiceTaint)
		}
	}
	for _, c := range node.Status.Conditions {
		if c.Type == corev1.NodeReady && c.Status == corev1.ConditionUnknown {
			return true, fmt.Sprintf("its node %s is unreachable (Ready Unknown since %s: %s)",
				name, c.LastTransitionTime.UTC().Format(time.RFC3339), c.Message)
		}
	}
	return false, ""
}
