package fencing

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

var now = time.Date(2026, 11, 26, 1, 30, 0, 0, time.UTC)

func pod(name, uid, node string) corev1.Pod {
	p := corev1.Pod{}
	p.Name, p.UID, p.Spec.NodeName = name, types.UID(uid), node
	return p
}

func node(name string, ready corev1.ConditionStatus, taints ...string) *corev1.Node {
	n := &corev1.Node{}
	n.Name = name
	if ready != "" {
		n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: ready, Message: "kubelet says " + string(ready)}}
	}
	for _, t := range taints {
		n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: t, Value: "nodeshutdown", Effect: corev1.TaintEffectNoExecute})
	}
	return n
}

func nodes(ns ...*corev1.Node) map[string]*corev1.Node {
	m := map[string]*corev1.Node{}
	for _, n := range ns {
		m[n.Name] = n
	}
	return m
}

func TestNodeLost(t *testing.T) {
	for _, tc := range []struct {
		name     string
		node     *corev1.Node
		nodeName string
		lost     bool
		why      string
	}{
		{"not scheduled", nil, "", false, ""},
		{"Ready", node("a", corev1.ConditionTrue), "a", false, ""},
		{"NotReady: the kubelet runs and reports", node("a", corev1.ConditionFalse), "a", false, ""},
		{"no Ready condition yet", node("a", ""), "a", false, ""},
		{"unreachable", node("a", corev1.ConditionUnknown), "a", true, "unreachable"},
		{"out of service", node("a", corev1.ConditionFalse, OutOfServiceTaint), "a", true, OutOfServiceTaint},
		{"another taint", node("a", corev1.ConditionTrue, "node.kubernetes.io/unschedulable"), "a", false, ""},
		{"gone", nil, "a", true, "is gone"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lost, why := NodeLost(tc.node, tc.nodeName)
			if lost != tc.lost || !strings.Contains(why, tc.why) {
				t.Errorf("NodeLost = %v, %q; want %v with %q", lost, why, tc.lost, tc.why)
			}
			if lost && !strings.Contains(why, tc.nodeName) {
				t.Errorf("the reason %q does not name node %s", why, tc.nodeName)
			}
		})
	}
}

func TestPlan(t *testing.T) {
	earlier := &metav1.Time{Time: now.Add(-time.Minute)}
	fenced := &metav1.Time{Time: now}
	rec := func(name, uid string, f *metav1.Time) v1alpha1.SessionPod {
		return v1alpha1.SessionPod{Name: name, UID: uid, Fenced: f}
	}
	ready := node("a", corev1.ConditionTrue)
	lost := node("b", corev1.ConditionUnknown)
	for _, tc := range []struct {
		name     string
		recorded []v1alpha1.SessionPod
		pods     []corev1.Pod
		nodes    map[string]*corev1.Node
		evict    []string // uid:lost or uid:gone
		record   []v1alpha1.SessionPod
	}{
		{
			name:   "new pods are recorded, not evicted",
			pods:   []corev1.Pod{pod("nm-1", "u1", "a"), pod("nm-0", "u0", "b")},
			nodes:  nodes(ready, lost),
			record: []v1alpha1.SessionPod{rec("nm-0", "u0", nil), rec("nm-1", "u1", nil)},
		},
		{
			name:     "a recorded pod that is gone is evicted and leaves the record",
			recorded: []v1alpha1.SessionPod{rec("nm-0", "u0", nil), rec("nm-1", "u1", nil)},
			pods:     []corev1.Pod{pod("nm-1", "u1", "a")},
			nodes:    nodes(ready),
			evict:    []string{"u0:gone"},
			record:   []v1alpha1.SessionPod{rec("nm-1", "u1", nil)},
		},
		{
			name:     "a recorded pod on an unreachable node is fenced once",
			recorded: []v1alpha1.SessionPod{rec("nm-0", "u0", nil)},
			pods:     []corev1.Pod{pod("nm-0", "u0", "b")},
			nodes:    nodes(lost),
			evict:    []string{"u0:lost"},
			record:   []v1alpha1.SessionPod{rec("nm-0", "u0", fenced)},
		},
		{
			name:     "a fenced pod that remains is not evicted again",
			recorded: []v1alpha1.SessionPod{rec("nm-0", "u0", earlier)},
			pods:     []corev1.Pod{pod("nm-0", "u0", "b")},
			nodes:    nodes(lost),
			record:   []v1alpha1.SessionPod{rec("nm-0", "u0", earlier)},
		},
		{
			name:     "a fenced pod that goes is not evicted again",
			recorded: []v1alpha1.SessionPod{rec("nm-0", "u0", earlier)},
			nodes:    nodes(lost),
			record:   nil,
		},
		{
			name:     "a fenced pod whose node came back is not evicted again, and is recorded unfenced for its new sessions",
			recorded: []v1alpha1.SessionPod{rec("nm-0", "u0", earlier)},
			pods:     []corev1.Pod{pod("nm-0", "u0", "a")},
			nodes:    nodes(ready),
			record:   []v1alpha1.SessionPod{rec("nm-0", "u0", nil)},
		},
		{
			name:     "a pod unfenced after its node came back that goes is evicted",
			recorded: []v1alpha1.SessionPod{rec("nm-0", "u0", nil)},
			nodes:    nodes(ready),
			evict:    []string{"u0:gone"},
			record:   nil,
		},
		{
			name:     "a recorded pod on a node that is gone",
			recorded: []v1alpha1.SessionPod{rec("nm-0", "u0", nil)},
			pods:     []corev1.Pod{pod("nm-0", "u0", "c")},
			nodes:    nodes(ready),
			evict:    []string{"u0:lost"},
			record:   []v1alpha1.SessionPod{rec("nm-0", "u0", fenced)},
		},
		{
			name:     "a pod not yet scheduled is only recorded",
			recorded: []v1alpha1.SessionPod{rec("nm-0", "u0", nil)},
			pods:     []corev1.Pod{pod("nm-0", "u0", "")},
			nodes:    nodes(ready),
			record:   []v1alpha1.SessionPod{rec("nm-0", "u0", nil)},
		},
		{
			name:     "the successor of a gone pod under its name",
			recorded: []v1alpha1.SessionPod{rec("nm-0", "old", nil)},
			pods:     []corev1.Pod{pod("nm-0", "new", "a")},
			nodes:    nodes(ready),
			evict:    []string{"old:gone"},
			record:   []v1alpha1.SessionPod{rec("nm-0", "new", nil)},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Plan(tc.recorded, tc.pods, tc.nodes, now)
			var evict []string
			for _, e := range d.Evict {
				kind := "gone"
				if e.NodeLost {
					kind = "lost"
					// The cut between the lost node's sessions and those the pod opens
					// once the node is back is the time recorded as Fenced.
					if !e.FencedAt.Equal(now) {
						t.Errorf("eviction of %s fenced at %v, want the pass's time %v", e.Pod.UID, e.FencedAt, now)
					}
				} else if !e.FencedAt.IsZero() {
					t.Errorf("eviction of gone pod %s fenced at %v", e.Pod.UID, e.FencedAt)
				}
				evict = append(evict, e.Pod.UID+":"+kind)
				if e.Why == "" {
					t.Errorf("eviction of %s without a reason", e.Pod.UID)
				}
			}
			if strings.Join(evict, ",") != strings.Join(tc.evict, ",") {
				t.Errorf("evict %v, want %v", evict, tc.evict)
			}
			if len(d.Record) != len(tc.record) {
				t.Fatalf("record %+v, want %+v", d.Record, tc.record)
			}
			for i := range d.Record {
				got, want := d.Record[i], tc.record[i]
				if got.Name != want.Name || got.UID != want.UID || (got.Fenced == nil) != (want.Fenced == nil) ||
					(got.Fenced != nil && !got.Fenced.Equal(want.Fenced)) {
					t.Errorf("record[%d] = %+v, want %+v", i, got, want)
				}
			}
		})
	}
}
