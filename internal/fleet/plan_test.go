package fleet

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/yarn"
)

type hadoopDecommission = hadoop.Decommission

var planNow = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

// fleetSTS is the NodeManagers' StatefulSet at replicas, observed, updating to "new".
func fleetSTS(replicas int32) *appsv1.StatefulSet {
	sts := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "nm", Generation: 2}}
	sts.Spec.Replicas = ptr.To(replicas)
	sts.Status.ObservedGeneration, sts.Status.UpdateRevision = 2, "new"
	return sts
}

// servingPod is a ready NodeManager pod of that revision at ip, its container running.
func servingPod(name, revision, ip string) corev1.Pod {
	pod := nmPod(name, revision, true, false)
	pod.UID = types.UID(name + "-uid")
	pod.Status.PodIP = ip
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "nodemanager", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}}
	return pod
}

// slowPod is servingPod whose readiness probe fails while its container runs.
func slowPod(name, revision, ip string) corev1.Pod {
	pod := servingPod(name, revision, ip)
	pod.Status.Conditions[0].Status = corev1.ConditionFalse
	return pod
}

func TestPlan(t *testing.T) {
	started := metav1.NewTime(planNow.Add(-10 * time.Minute))
	longAgo := metav1.NewTime(planNow.Add(-2 * time.Hour))
	for _, tc := range []struct {
		name string
		obs  Observed
		// What YARN answers the asked NodeManagers, and the ResourceManager's nodes.
		ids      map[string]string
		nodes    []yarn.Node
		nodesErr error

		wantAsk       map[string]string
		wantNeedNodes bool
		want          Decision
	}{
		{
			name: "no StatefulSet yet: nothing to plan",
			obs:  Observed{Replicas: 2, TimeoutSeconds: 600},
		},
		{
			name: "a StatefulSet the controller has not observed yet: no rollout is judged",
			obs: Observed{Replicas: 1, TimeoutSeconds: 600, StatefulSet: func() *appsv1.StatefulSet {
				s := fleetSTS(1)
				s.Status.ObservedGeneration = 1
				return s
			}(), Pods: []corev1.Pod{servingPod("nm-0", "old", "10.0.0.1")}},
		},
		{
			name: "every NodeManager current and ready: the ResourceManager's turn",
			obs:  Observed{Replicas: 2, TimeoutSeconds: 600, StatefulSet: fleetSTS(2), Pods: []corev1.Pod{servingPod("nm-0", "new", "10.0.0.1"), servingPod("nm-1", "new", "10.0.0.2")}},
			want: Decision{NodeManagersCurrent: true},
		},
		{
			name: "a replaced NodeManager not ready yet: wait, and look again",
			obs:  Observed{Replicas: 2, TimeoutSeconds: 600, StatefulSet: fleetSTS(2), Pods: []corev1.Pod{servingPod("nm-0", "old", "10.0.0.1"), slowPod("nm-1", "new", "10.0.0.2")}},
			want: Decision{RequeueAfter: Poll},
		},
		{
			name: "a rollout without decommissions replaces the highest outdated ordinal at once",
			obs:  Observed{Replicas: 2, TimeoutSeconds: 0, StatefulSet: fleetSTS(2), Pods: []corev1.Pod{servingPod("nm-0", "old", "10.0.0.1"), servingPod("nm-1", "old", "10.0.0.2")}},
			want: Decision{Replace: "nm-1"},
		},
		{
			name:          "a rollout's next NodeManager runs containers: YARN decommissions it first",
			obs:           Observed{Replicas: 2, TimeoutSeconds: 600, StatefulSet: fleetSTS(2), Pods: []corev1.Pod{servingPod("nm-0", "old", "10.0.0.1"), servingPod("nm-1", "old", "10.0.0.2")}, Now: planNow},
			ids:           map[string]string{"nm-1": "host-b:8041"},
			nodes:         []yarn.Node{{ID: "host-b:8041", State: yarn.NodeDecommissioning, NumContainers: 2}},
			wantAsk:       map[string]string{"nm-1": "10.0.0.2"},
			wantNeedNodes: true,
			want: Decision{
				Decommission: decommission(nil, 600, "host-b"),
				Status:       rolling(metav1.NewTime(planNow), v1alpha1.DecommissioningNode{Pod: "nm-1", NodeID: "host-b:8041", State: yarn.NodeDecommissioning, Containers: 2}),
				RequeueAfter: Poll,
			},
		},
		{
			name:          "a rollout's NodeManager that YARN decommissioned is replaced",
			obs:           Observed{Replicas: 2, TimeoutSeconds: 600, StatefulSet: fleetSTS(2), Pods: []corev1.Pod{servingPod("nm-0", "old", "10.0.0.1"), servingPod("nm-1", "old", "10.0.0.2")}, Now: planNow},
			ids:           map[string]string{"nm-1": "host-b:8041"},
			nodes:         []yarn.Node{{ID: "host-b:8041", State: yarn.NodeDecommissioned}},
			wantAsk:       map[string]string{"nm-1": "10.0.0.2"},
			wantNeedNodes: true,
			want:          Decision{Replace: "nm-1"},
		},
		{
			name: "a rollout goes on with the NodeManager a previous pass began with, and keeps its start",
			obs: Observed{Replicas: 2, TimeoutSeconds: 600, StatefulSet: fleetSTS(2), Pods: []corev1.Pod{servingPod("nm-0", "old", "10.0.0.1"), servingPod("nm-1", "old", "10.0.0.2")}, Now: planNow,
				Previous: rolling(started, v1alpha1.DecommissioningNode{Pod: "nm-0", NodeID: "host-a:8041"})},
			ids:           map[string]string{"nm-0": "host-a:8041"},
			nodes:         []yarn.Node{{ID: "host-a:8041", State: yarn.NodeRunning, NumContainers: 1}},
			wantAsk:       map[string]string{"nm-0": "10.0.0.1"},
			wantNeedNodes: true,
			want: Decision{
				Decommission: decommission(nil, 600, "host-a"),
				Status:       rolling(started, v1alpha1.DecommissioningNode{Pod: "nm-0", NodeID: "host-a:8041", State: yarn.NodeRunning, Containers: 1}),
				RequeueAfter: Poll,
			},
		},
		{
			name: "a rollout's decommission past its deadline: the pod is replaced anyway, with a warning",
			obs: Observed{Replicas: 1, TimeoutSeconds: 600, StatefulSet: fleetSTS(1), Pods: []corev1.Pod{servingPod("nm-0", "old", "10.0.0.1")}, Now: planNow,
				Previous: rolling(longAgo, v1alpha1.DecommissioningNode{Pod: "nm-0", NodeID: "host-a:8041"})},
			want: Decision{Replace: "nm-0", Event: &Event{Type: corev1.EventTypeWarning, Reason: v1alpha1.EventReasonDecommissionTimedOut, Action: "Update",
				Note: "YARN did not decommission NodeManager nm-0 by 2026-11-27T10:12:00Z: replacing its pod anyway"}},
		},
		{
			name:          "a scale-down keeps the StatefulSet's size while YARN decommissions the highest ordinals",
			obs:           Observed{Replicas: 1, TimeoutSeconds: 600, StatefulSet: fleetSTS(3), Pods: []corev1.Pod{servingPod("nm-0", "new", "10.0.0.1"), servingPod("nm-1", "new", "10.0.0.2"), servingPod("nm-2", "new", "10.0.0.3")}, Now: planNow},
			ids:           map[string]string{"nm-1": "host-b:8041", "nm-2": "host-c:8041"},
			nodes:         []yarn.Node{{ID: "host-b:8041", State: yarn.NodeDecommissioned}, {ID: "host-c:8041", State: yarn.NodeDecommissioning, NumContainers: 1}},
			wantAsk:       map[string]string{"nm-1": "10.0.0.2", "nm-2": "10.0.0.3"},
			wantNeedNodes: true,
			want: Decision{
				Decommission: decommission(ptr.To[int32](3), 600, "host-b", "host-c"),
				Status: scaling(1, 600, metav1.NewTime(planNow),
					v1alpha1.DecommissioningNode{Pod: "nm-1", NodeID: "host-b:8041", State: yarn.NodeDecommissioned},
					v1alpha1.DecommissioningNode{Pod: "nm-2", NodeID: "host-c:8041", State: yarn.NodeDecommissioning, Containers: 1}),
				RequeueAfter: Poll,
			},
		},
		{
			name:          "a scale-down whose NodeManagers are all decommissioned lowers the StatefulSet, and nothing else this pass",
			obs:           Observed{Replicas: 1, TimeoutSeconds: 600, StatefulSet: fleetSTS(2), Pods: []corev1.Pod{servingPod("nm-0", "old", "10.0.0.1"), servingPod("nm-1", "new", "10.0.0.2")}, Now: planNow},
			ids:           map[string]string{"nm-1": "host-b:8041"},
			nodes:         []yarn.Node{{ID: "host-b:8041", State: yarn.NodeDecommissioned}},
			wantAsk:       map[string]string{"nm-1": "10.0.0.2"},
			wantNeedNodes: true,
		},
		{
			name: "a scale-down of one of three, with a two-minute timeout: the deadline follows it",
			obs: Observed{Replicas: 2, TimeoutSeconds: 120, StatefulSet: fleetSTS(3), Now: planNow,
				Pods: []corev1.Pod{servingPod("nm-0", "new", "10.0.0.1"), servingPod("nm-1", "new", "10.0.0.2"), servingPod("nm-2", "new", "10.0.0.3")}},
			ids:           map[string]string{"nm-2": "host-c:8041"},
			nodes:         []yarn.Node{{ID: "host-c:8041", State: yarn.NodeRunning}},
			wantAsk:       map[string]string{"nm-2": "10.0.0.3"},
			wantNeedNodes: true,
			want: Decision{
				Decommission: decommission(ptr.To[int32](3), 120, "host-c"),
				Status:       scaling(2, 120, metav1.NewTime(planNow), v1alpha1.DecommissioningNode{Pod: "nm-2", NodeID: "host-c:8041", State: yarn.NodeRunning}),
				RequeueAfter: Poll,
			},
		},
		{
			name: "a scale-down past its deadline lowers the StatefulSet anyway, with a warning",
			obs: Observed{Replicas: 1, TimeoutSeconds: 600, StatefulSet: fleetSTS(2), Pods: []corev1.Pod{servingPod("nm-0", "new", "10.0.0.1"), servingPod("nm-1", "new", "10.0.0.2")}, Now: planNow,
				Previous: scaling(1, 600, longAgo, v1alpha1.DecommissioningNode{Pod: "nm-1", NodeID: "host-b:8041"})},
			want: Decision{Event: &Event{Type: corev1.EventTypeWarning, Reason: v1alpha1.EventReasonDecommissionTimedOut, Action: "Scale",
				Note: "YARN did not decommission the leaving NodeManagers by 2026-11-27T10:12:00Z: scaling to 1 anyway"}},
		},
		{
			name: "a scale-down without decommissions is the StatefulSet's to do: the remaining NodeManagers are current",
			obs:  Observed{Replicas: 1, TimeoutSeconds: 0, StatefulSet: fleetSTS(2), Pods: []corev1.Pod{servingPod("nm-0", "new", "10.0.0.1"), servingPod("nm-1", "old", "10.0.0.2")}},
			want: Decision{NodeManagersCurrent: true},
		},
		{
			name: "the ResourceManager does not answer: the decommission holds, and says so",
			obs: Observed{Replicas: 1, TimeoutSeconds: 600, StatefulSet: fleetSTS(2), Pods: []corev1.Pod{servingPod("nm-0", "new", "10.0.0.1"), servingPod("nm-1", "new", "10.0.0.2")}, Now: planNow,
				Previous: scaling(1, 600, started, v1alpha1.DecommissioningNode{Pod: "nm-1", NodeID: "host-b:8041"})},
			nodesErr:      errors.New("connection refused"),
			wantAsk:       map[string]string{"nm-1": "10.0.0.2"},
			wantNeedNodes: true,
			want: Decision{
				Decommission: decommission(ptr.To[int32](2), 600, "host-b"),
				Status:       scaling(1, 600, started, v1alpha1.DecommissioningNode{Pod: "nm-1", NodeID: "host-b:8041"}),
				Problem:      "the ResourceManager did not answer (connection refused)",
				RequeueAfter: Poll,
			},
		},
		{
			name: "a NodeManager too slow for its probe is not asked, and is known by the host recorded for its pod",
			obs: Observed{Replicas: 1, TimeoutSeconds: 600, StatefulSet: fleetSTS(2), Pods: []corev1.Pod{servingPod("nm-0", "new", "10.0.0.1"), slowPod("nm-1", "new", "10.0.0.2")}, Now: planNow,
				Hosts: []v1alpha1.NodeManagerHost{{Pod: "nm-1", UID: "nm-1-uid", YARNHost: "host-b"}}},
			nodes:         []yarn.Node{{ID: "host-b:8041", State: yarn.NodeDecommissioning, NumContainers: 4}},
			wantAsk:       map[string]string{},
			wantNeedNodes: true,
			want: Decision{
				Decommission: decommission(ptr.To[int32](2), 600, "host-b"),
				Status:       scaling(1, 600, metav1.NewTime(planNow), v1alpha1.DecommissioningNode{Pod: "nm-1", NodeID: "host-b:8041", State: yarn.NodeDecommissioning, Containers: 4}),
				RequeueAfter: Poll,
			},
		},
		{
			name: "a leaving NodeManager that never registered and is not ready runs nothing: YARN is not asked",
			obs: Observed{Replicas: 1, TimeoutSeconds: 600, StatefulSet: fleetSTS(2), Now: planNow,
				Pods: []corev1.Pod{servingPod("nm-0", "new", "10.0.0.1"), nmPod("nm-1", "new", false, false)}},
			wantAsk: map[string]string{},
		},
		{
			name: "a NodeManager that does not answer keeps the node ID status remembered",
			obs: Observed{Replicas: 1, TimeoutSeconds: 600, StatefulSet: fleetSTS(2), Pods: []corev1.Pod{servingPod("nm-0", "new", "10.0.0.1"), servingPod("nm-1", "new", "10.0.0.2")}, Now: planNow,
				Previous: scaling(1, 600, started, v1alpha1.DecommissioningNode{Pod: "nm-1", NodeID: "host-b:8041"})},
			nodes:         []yarn.Node{{ID: "host-b:8041", State: yarn.NodeDecommissioning, NumContainers: 1}},
			wantAsk:       map[string]string{"nm-1": "10.0.0.2"},
			wantNeedNodes: true,
			want: Decision{
				Decommission: decommission(ptr.To[int32](2), 600, "host-b"),
				Status:       scaling(1, 600, started, v1alpha1.DecommissioningNode{Pod: "nm-1", NodeID: "host-b:8041", State: yarn.NodeDecommissioning, Containers: 1}),
				RequeueAfter: Poll,
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			step := Next(tc.obs)
			ask := step.Ask()
			if tc.wantAsk == nil {
				tc.wantAsk = map[string]string{}
			}
			if !maps.Equal(ask, tc.wantAsk) {
				t.Errorf("Ask() = %v, want %v", ask, tc.wantAsk)
			}
			if got := step.NeedsNodes(tc.ids); got != tc.wantNeedNodes {
				t.Errorf("NeedsNodes() = %v, want %v", got, tc.wantNeedNodes)
			}
			got := step.Decide(YARN{NodeIDs: tc.ids, Nodes: tc.nodes, NodesErr: tc.nodesErr})
			if diff := describeDiff(got, tc.want); diff != "" {
				t.Errorf("Decide(): %s", diff)
			}
		})
	}
}

func decommission(keep *int32, timeout int32, hosts ...string) *hadoopDecommission {
	return &hadoopDecommission{Replicas: keep, Hosts: hosts, TimeoutSeconds: timeout}
}

func rolling(start metav1.Time, nodes ...v1alpha1.DecommissioningNode) *v1alpha1.Decommissioning {
	return &v1alpha1.Decommissioning{Reason: v1alpha1.DecommissionRollingUpdate, Replicas: 2, StartTime: start,
		Deadline: metav1.NewTime(start.Add(600*time.Second + Grace)), Nodes: nodes}
}

func scaling(replicas, timeout int32, start metav1.Time, nodes ...v1alpha1.DecommissioningNode) *v1alpha1.Decommissioning {
	return &v1alpha1.Decommissioning{Reason: v1alpha1.DecommissionScaleDown, Replicas: replicas, StartTime: start,
		Deadline: metav1.NewTime(start.Add(time.Duration(timeout)*time.Second + Grace)), Nodes: nodes}
}

// describeDiff names the fields of got that differ from want; empty when none do.
func describeDiff(got, want Decision) string {
	var diffs []string
	add := func(field string, g, w any) { diffs = append(diffs, field+": got "+show(g)+", want "+show(w)) }
	if !equalDecommission(got.Decommission, want.Decommission) {
		add("Decommission", got.Decommission, want.Decommission)
	}
	if !equalStatus(got.Status, want.Status) {
		add("Status", got.Status, want.Status)
	}
	if got.Replace != want.Replace {
		add("Replace", got.Replace, want.Replace)
	}
	if got.NodeManagersCurrent != want.NodeManagersCurrent {
		add("NodeManagersCurrent", got.NodeManagersCurrent, want.NodeManagersCurrent)
	}
	if got.Problem != want.Problem {
		add("Problem", got.Problem, want.Problem)
	}
	if got.RequeueAfter != want.RequeueAfter {
		add("RequeueAfter", got.RequeueAfter, want.RequeueAfter)
	}
	if (got.Event == nil) != (want.Event == nil) || (got.Event != nil && *got.Event != *want.Event) {
		add("Event", got.Event, want.Event)
	}
	return strings.Join(diffs, "; ")
}

func equalDecommission(a, b *hadoopDecommission) bool {
	if a == nil || b == nil {
		return a == b
	}
	return ptr.Equal(a.Replicas, b.Replicas) && slices.Equal(a.Hosts, b.Hosts) && a.TimeoutSeconds == b.TimeoutSeconds
}

func equalStatus(a, b *v1alpha1.Decommissioning) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Reason == b.Reason && a.Replicas == b.Replicas && a.StartTime.Equal(&b.StartTime) &&
		a.Deadline.Equal(&b.Deadline) && slices.Equal(a.Nodes, b.Nodes)
}

// show prints a value, what a pointer points at rather than its address.
func show(v any) string {
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return "nil"
		}
		return fmt.Sprintf("&%+v", rv.Elem().Interface())
	}
	return fmt.Sprintf("%+v", v)
}
