package hadoopcluster

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/testpods"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/yarn"
)

// nodeManagerPod is a NodeManager pod on node at ip (empty: not scheduled, no address).
func nodeManagerPod(name, uid, node, ip string, ready, stopping bool) corev1.Pod {
	pod := testpods.Pod(name, ready, stopping)
	pod.UID = types.UID(uid)
	pod.Spec.NodeName = node
	pod.Status.PodIP = ip
	return pod
}

func TestPlanNodeManagerHosts(t *testing.T) {
	recorded := []v1alpha1.NodeManagerHost{
		{Pod: "nm-0", UID: "a", NodeName: "node-a", YARNHost: "nm-0.nm"},
		{Pod: "nm-1", UID: "b-old", NodeName: "node-b", YARNHost: "nm-1.nm"},
	}
	for _, tc := range []struct {
		name     string
		recorded []v1alpha1.NodeManagerHost
		pods     []corev1.Pod
		wantKeep []v1alpha1.NodeManagerHost
		wantAsk  []string
	}{
		{
			name:    "nothing on record: the ready pods on a node",
			pods:    []corev1.Pod{nodeManagerPod("nm-0", "a", "node-a", "10.0.0.1", true, false), nodeManagerPod("nm-1", "b", "node-b", "10.0.0.2", true, false)},
			wantAsk: []string{"nm-0", "nm-1"},
		},
		{
			name:     "a pod on record is not asked again, even when it is no longer ready",
			recorded: recorded,
			pods:     []corev1.Pod{nodeManagerPod("nm-0", "a", "node-a", "10.0.0.1", false, false)},
			wantKeep: recorded[:1],
		},
		{
			name:     "a new pod of a recorded name is asked, and the old one forgotten",
			recorded: recorded,
			pods:     []corev1.Pod{nodeManagerPod("nm-0", "a", "node-a", "10.0.0.1", true, false), nodeManagerPod("nm-1", "b-new", "node-c", "10.0.0.3", true, false)},
			wantKeep: recorded[:1],
			wantAsk:  []string{"nm-1"},
		},
		{
			name:     "a stopping pod keeps its record",
			recorded: recorded,
			pods:     []corev1.Pod{nodeManagerPod("nm-1", "b-old", "node-b", "10.0.0.2", true, true)},
			wantKeep: recorded[1:],
		},
		{
			name: "pods whose NodeManager cannot answer or that run on no node are not asked",
			pods: []corev1.Pod{
				nodeManagerPod("nm-0", "a", "node-a", "10.0.0.1", false, false),
				nodeManagerPod("nm-1", "b", "node-b", "", true, false),
				nodeManagerPod("nm-2", "c", "", "10.0.0.3", true, false),
				nodeManagerPod("nm-3", "d", "node-d", "10.0.0.4", true, true),
			},
		},
		{
			name:     "every pod gone: nothing kept",
			recorded: recorded,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			keep, ask := planNodeManagerHosts(tc.recorded, tc.pods)
			if !reflect.DeepEqual(keep, tc.wantKeep) {
				t.Errorf("keep = %+v, want %+v", keep, tc.wantKeep)
			}
			var asked []string
			for _, pod := range ask {
				asked = append(asked, pod.Name)
			}
			if !reflect.DeepEqual(asked, tc.wantAsk) {
				t.Errorf("ask = %v, want %v", asked, tc.wantAsk)
			}
		})
	}
}

// nodeManagers answers for the NodeManagers at the addresses it knows.
type nodeManagers struct {
	mu    sync.Mutex
	hosts map[string]string
	asked []string
}

func (n *nodeManagers) Nodes(context.Context, string) ([]yarn.Node, error) {
	return nil, errors.New("no ResourceManager here")
}

func (n *nodeManagers) NodeManagerIdentity(_ context.Context, host string, port int) (yarn.NodeIdentity, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.asked = append(n.asked, host)
	if port != hadoop.PortNMWeb {
		return yarn.NodeIdentity{}, errors.New("wrong port")
	}
	name, ok := n.hosts[host]
	if !ok {
		return yarn.NodeIdentity{}, errors.New("connection refused")
	}
	return yarn.NodeIdentity{ID: name + ":8041", HostName: name}, nil
}

func TestAskNodeManagers(t *testing.T) {
	nms := &nodeManagers{hosts: map[string]string{"10.0.0.1": "nm-0.nm", "10.0.0.3": "10.20.0.3"}}
	r := &Reconciler{YARN: nms}
	var pods []corev1.Pod
	for _, pod := range []corev1.Pod{
		nodeManagerPod("nm-0", "a", "node-a", "10.0.0.1", true, false),
		nodeManagerPod("nm-1", "b", "node-a", "10.0.0.2", true, false),
		nodeManagerPod("nm-2", "c", "node-c", "10.0.0.3", true, false),
	} {
		// More pods than may be asked at once.
		for range nodeManagerAsks {
			pods = append(pods, pod)
		}
	}

	learnt, unanswered := r.askNodeManagers(context.Background(), pods)

	if len(nms.asked) != len(pods) {
		t.Errorf("asked %d times, want %d", len(nms.asked), len(pods))
	}
	if unanswered != nodeManagerAsks {
		t.Errorf("unanswered = %d, want %d", unanswered, nodeManagerAsks)
	}
	counts := map[v1alpha1.NodeManagerHost]int{}
	for _, h := range learnt {
		counts[h]++
	}
	want := map[v1alpha1.NodeManagerHost]int{
		{Pod: "nm-0", UID: "a", NodeName: "node-a", YARNHost: "nm-0.nm"}:   nodeManagerAsks,
		{Pod: "nm-2", UID: "c", NodeName: "node-c", YARNHost: "10.20.0.3"}: nodeManagerAsks,
	}
	if !reflect.DeepEqual(counts, want) {
		t.Errorf("learnt %v, want %v", counts, want)
	}
}
