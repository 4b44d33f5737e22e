package fleet

import (
	"net"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/podstatus"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/yarn"
)

const (
	// DefaultTimeoutSeconds is spec.nodeManagers.decommissionTimeoutSeconds when
	// unset, as the API defaults it: YARN's own default, long enough for the batch jobs
	// a scale-down should not break.
	DefaultTimeoutSeconds = 3600
	// Grace is added to the timeout before the operator stops waiting for YARN: the
	// kubelet's delay in updating the exclude file, the refresh, and YARN's own poll of
	// decommissioning nodes.
	Grace = 2 * time.Minute
	// Poll is how often a pass looks at YARN while a decommission or a rollout runs:
	// nothing in Kubernetes changes when a node's last container ends.
	Poll = 15 * time.Second
)

// window is a decommission's start and deadline: those of prev when the pass continues
// it (same), else starting now. Expired says the deadline has passed.
func window(prev *v1alpha1.Decommissioning, same bool, timeout int32, now time.Time) (*v1alpha1.Decommissioning, bool) {
	start := metav1.NewTime(now)
	if same {
		start = prev.StartTime
	}
	d := &v1alpha1.Decommissioning{
		StartTime: start,
		Deadline:  metav1.NewTime(start.Add(time.Duration(timeout)*time.Second + Grace)),
	}
	return d, !now.Before(d.Deadline.Time)
}

// Leaving is a NodeManager pod that a scale-down removes or a rollout replaces.
type Leaving struct {
	Pod string
	// NodeID is its YARN node ID as it reported it, or as status remembered it when it
	// no longer answers (a decommissioned NodeManager exits); empty when neither knows.
	NodeID string
	// Serving says the NodeManager may run containers: its pod is ready, or its
	// container runs and its node ID is known.
	Serving bool
	// Ask is the address at which its NodeManager says how it registered: set for a
	// ready pod, whose NodeManager answers.
	Ask string
}

// leaving is what the pass knows of pod name before asking YARN. One whose pod is not
// ready but whose container runs is known by the host recorded for its pod: a
// readiness probe also fails when a NodeManager answers slowly under load, while its
// containers run on, and such a NodeManager leaves through YARN as a ready one does.
func (o Observed) leaving(name string) Leaving {
	n := Leaving{Pod: name}
	if o.Previous != nil {
		for _, s := range o.Previous.Nodes {
			if s.Pod == name {
				n.NodeID = s.NodeID
			}
		}
	}
	pod := o.pod(name)
	if pod == nil {
		return n
	}
	// The readiness probe asks the same REST API: a pod that is not ready has no
	// NodeManager that answers, or one that is still starting and runs nothing.
	if pod.DeletionTimestamp.IsZero() && podstatus.Ready(pod) && pod.Status.PodIP != "" {
		n.Serving, n.Ask = true, pod.Status.PodIP
		return n
	}
	if pod.DeletionTimestamp.IsZero() && containerRunning(pod, string(hadoop.NodeManager)) {
		if n.NodeID == "" {
			n.NodeID = recordedNodeID(o.Hosts, pod)
		}
		n.Serving = n.NodeID != ""
	}
	return n
}

// recordedNodeID is the YARN node ID of pod's NodeManager from the hosts status
// recorded, empty when none is: the host it registered under and the NodeManager's
// RPC port, which the operator sets.
func recordedNodeID(recorded []v1alpha1.NodeManagerHost, pod *corev1.Pod) string {
	for _, h := range recorded {
		if h.UID == string(pod.UID) && h.YARNHost != "" {
			return net.JoinHostPort(h.YARNHost, strconv.Itoa(hadoop.PortNMRPC))
		}
	}
	return ""
}

// containerRunning says whether the pod's container called name runs.
func containerRunning(pod *corev1.Pod, name string) bool {
	for _, c := range pod.Status.ContainerStatuses {
		if c.Name == name {
			return c.State.Running != nil
		}
	}
	return false
}

// progress reports each leaving NodeManager from YARN's node list (nodes, or nodesErr
// when the ResourceManager did not answer), the hosts the exclude file must keep
// listing, and whether any of them may still run containers. A NodeManager is done
// when YARN reports it decommissioned, lost or shut down, or when YARN does not know it
// and its pod is not serving; one whose node ID is unknown holds the decommission only
// while its pod is serving, which it cannot be for long without answering.
func progress(leaving []Leaving, nodes []yarn.Node, nodesErr error) ([]v1alpha1.DecommissioningNode, []string, bool) {
	var statuses []v1alpha1.DecommissioningNode
	var hosts []string
	pending := false
	for _, n := range leaving {
		status := v1alpha1.DecommissioningNode{Pod: n.Pod, NodeID: n.NodeID}
		switch {
		case n.NodeID == "":
			pending = pending || n.Serving
		case nodesErr != nil:
			hosts = append(hosts, nodeHost(n.NodeID))
			pending = true
		default:
			hosts = append(hosts, nodeHost(n.NodeID))
			node, known := findNode(nodes, n.NodeID)
			if known {
				status.State, status.Containers = node.State, node.NumContainers
			}
			pending = pending || (known && !node.Gone()) || (!known && n.Serving)
		}
		statuses = append(statuses, status)
	}
	return statuses, hosts, pending
}

// findNode is the node of YARN node ID id.
func findNode(nodes []yarn.Node, id string) (yarn.Node, bool) {
	for _, n := range nodes {
		if n.ID == id {
			return n, true
		}
	}
	return yarn.Node{}, false
}

// nodeHost is the host of a YARN node ID, host:port, which is what the exclude file
// names.
func nodeHost(id string) string {
	if host, _, err := net.SplitHostPort(id); err == nil {
		return host
	}
	return id
}
