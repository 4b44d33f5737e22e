package hadoopcluster

import (
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/controller-runtime/pkg/event"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/fencing"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

func TestTrimPodKeepsOwnerLabelsSchedulingReadinessAddressRunningContainersAndNode(t *testing.T) {
	scheduled := corev1.PodCondition{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: corev1.PodReasonUnschedulable, Message: "0/3 nodes are available"}
	ready := corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionFalse}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: "analytics", Name: "a-nodemanager-0", ResourceVersion: "7",
			Labels: map[string]string{"app.kubernetes.io/instance": "a"},
			Annotations: map[string]string{"k8s.v1.cni.cncf.io/networks": "[]",
				hadoop.SchedulerHashAnnotation: "0123"},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubelet"}},
		},
		Spec: corev1.PodSpec{NodeName: "worker-a", Containers: []corev1.Container{{Name: "nodemanager", Image: "hadoop"}}},
		Status: corev1.PodStatus{
			Phase:      corev1.PodPending,
			PodIP:      "10.1.2.3",
			Conditions: []corev1.PodCondition{ready, {Type: corev1.ContainersReady, Status: corev1.ConditionFalse}, scheduled},
			ContainerStatuses: []corev1.ContainerStatus{
				{Name: "nodemanager", Image: "hadoop", RestartCount: 2,
					State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.Now()}}},
				{Name: "sidecar", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}},
			},
		},
	}
	got, err := trimPod(pod)
	if err != nil {
		t.Fatal(err)
	}
	want := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "analytics", Name: "a-nodemanager-0", ResourceVersion: "7", Labels: pod.Labels,
			Annotations: map[string]string{hadoop.SchedulerHashAnnotation: "0123"}},
		Spec: corev1.PodSpec{NodeName: "worker-a"},
		Status: corev1.PodStatus{PodIP: "10.1.2.3", Conditions: []corev1.PodCondition{ready, scheduled},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "nodemanager", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("trimPod = %+v, want %+v", got, want)
	}
}

// trimNode keeps the extended resources, the host name label (topology.go) and what
// tells a lost node (internal/fencing), and drops the rest of a node's bulk.
func TestTrimNodeKeepsExtendedResourcesHostnameRackAddressesAndLoss(t *testing.T) {
	changed := metav1.NewTime(time.Date(2026, 11, 26, 1, 0, 0, 0, time.UTC))
	node := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: "worker.example.com", ResourceVersion: "3", Labels: map[string]string{
			"kubernetes.io/hostname": "worker", "topology.kubernetes.io/zone": "a", "topology.rook.io/rack": "r1", "node-role.example.com/big": ""}},
		Spec: corev1.NodeSpec{Taints: []corev1.Taint{
			{Key: "node.kubernetes.io/unschedulable", Effect: corev1.TaintEffectNoSchedule},
			{Key: fencing.OutOfServiceTaint, Value: "nodeshutdown", Effect: corev1.TaintEffectNoExecute},
		}},
		Status: corev1.NodeStatus{
			Allocatable: corev1.ResourceList{
				corev1.ResourceCPU:       resource.MustParse("32"),
				corev1.ResourceMemory:    resource.MustParse("256Gi"),
				"hugepages-2Mi":          resource.MustParse("1Gi"),
				"rdma/rdma_shared_dev_a": resource.MustParse("1k"),
				"nvidia.com/gpu":         resource.MustParse("4"),
			},
			Conditions: []corev1.NodeCondition{
				{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionFalse},
				{Type: corev1.NodeReady, Status: corev1.ConditionUnknown, Reason: "NodeStatusUnknown", Message: "Kubelet stopped posting node status.",
					LastTransitionTime: changed, LastHeartbeatTime: changed},
			},
			Images:    []corev1.ContainerImage{{Names: []string{"hadoop"}, SizeBytes: 1 << 30}},
			Addresses: []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.0.0.7"}, {Type: corev1.NodeHostName, Address: "worker"}},
		},
	}
	got, err := trimNode(node)
	if err != nil {
		t.Fatal(err)
	}
	want := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: "worker.example.com", ResourceVersion: "3", Labels: map[string]string{
			"kubernetes.io/hostname": "worker", "topology.kubernetes.io/zone": "a", "topology.rook.io/rack": "r1"}},
		Spec: corev1.NodeSpec{Taints: []corev1.Taint{{Key: fencing.OutOfServiceTaint, Value: "nodeshutdown", Effect: corev1.TaintEffectNoExecute}}},
		Status: corev1.NodeStatus{
			Allocatable: corev1.ResourceList{
				"rdma/rdma_shared_dev_a": resource.MustParse("1k"),
				"nvidia.com/gpu":         resource.MustParse("4"),
			},
			// No heartbeat: it changes on every status update, and would wake the watch.
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionUnknown, Message: "Kubelet stopped posting node status.", LastTransitionTime: changed}},
			Addresses:  node.Status.Addresses,
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("trimNode = %+v, want %+v", got, want)
	}
}

func TestHadoopPodSelector(t *testing.T) {
	selector, err := hadoopPodSelector()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		labels map[string]string
		want   bool
	}{
		{map[string]string{"app.kubernetes.io/name": "hadoop", "app.kubernetes.io/managed-by": "hadoop-ceph-operator", "app.kubernetes.io/component": "nodemanager"}, true},
		{map[string]string{"app.kubernetes.io/name": "hadoop", "app.kubernetes.io/managed-by": "hadoop-ceph-operator", "app.kubernetes.io/component": "teragen"}, false},
		{map[string]string{"app.kubernetes.io/name": "hadoop", "app.kubernetes.io/component": "nodemanager"}, false},
	} {
		if got := selector.Matches(labels.Set(tc.labels)); got != tc.want {
			t.Errorf("selector %s matches %v = %v, want %v", selector, tc.labels, got, tc.want)
		}
	}
}

// A node's rack or addresses change the rack table; its heartbeats change nothing.
func TestNodeChangedByRackAndAddresses(t *testing.T) {
	base := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1", Labels: map[string]string{"topology.rook.io/rack": "r1"}}}
	base.Status.Addresses = []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.0.0.1"}}
	heartbeat := base.DeepCopy()
	heartbeat.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastHeartbeatTime: metav1.Now()}}
	moved := base.DeepCopy()
	moved.Labels["topology.rook.io/rack"] = "r2"
	zoned := base.DeepCopy()
	zoned.Labels["topology.kubernetes.io/zone"] = "z1"
	readdressed := base.DeepCopy()
	readdressed.Status.Addresses[0].Address = "10.0.0.2"
	p := nodeChanged()
	for name, tc := range map[string]struct {
		node *corev1.Node
		want bool
	}{
		"a heartbeat":                       {heartbeat, false},
		"another rack":                      {moved, true},
		"a zone beside the rack, same rack": {zoned, false},
		"another address":                   {readdressed, true},
	} {
		if got := p.Update(event.TypedUpdateEvent[*corev1.Node]{ObjectOld: base, ObjectNew: tc.node}); got != tc.want {
			t.Errorf("%s: nodeChanged = %v, want %v", name, got, tc.want)
		}
	}
}

func TestPodChangedBySchedulingReadinessAndRunningContainers(t *testing.T) {
	base := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a-nodemanager-0", ResourceVersion: "1"}}
	base.Status.Conditions = []corev1.PodCondition{
		{Type: corev1.PodScheduled, Status: corev1.ConditionTrue},
		{Type: corev1.PodReady, Status: corev1.ConditionTrue},
	}
	base.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "nodemanager", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}}
	resynced := base.DeepCopy()
	resynced.ResourceVersion = "2"
	unready := base.DeepCopy()
	unready.Status.Conditions[1].Status = corev1.ConditionFalse
	exited := base.DeepCopy()
	exited.Status.ContainerStatuses = nil
	unscheduled := base.DeepCopy()
	unscheduled.Status.Conditions[0] = corev1.PodCondition{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: corev1.PodReasonUnschedulable}
	p := podChanged()
	for name, tc := range map[string]struct {
		pod  *corev1.Pod
		want bool
	}{
		"the same status, a new resource version": {resynced, false},
		"readiness lost":        {unready, true},
		"its container stopped": {exited, true},
		"no longer scheduled":   {unscheduled, true},
	} {
		if got := p.Update(event.TypedUpdateEvent[*corev1.Pod]{ObjectOld: base, ObjectNew: tc.pod}); got != tc.want {
			t.Errorf("%s: podChanged = %v, want %v", name, got, tc.want)
		}
	}
}
