package hadoopcluster

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/podstatus"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/yarn"
)

const (
	// defaultDecommissionTimeout is spec.nodeManagers.decommissionTimeoutSeconds when
	// unset, as the API defaults it: YARN's own default, long enough for the batch
	// jobs a scale-down should not break.
	defaultDecommissionTimeout = 3600
	// decommissionGrace is added to the timeout before the operator stops waiting for
	// YARN: the kubelet's delay in updating the exclude file, the refresh, and
	// YARN's own poll of decommissioning nodes.
	decommissionGrace = 2 * time.Minute
	// decommissionPoll is how often a pass looks at YARN while a decommission runs;
	// nothing in Kubernetes changes when a node's last container ends.
	decommissionPoll = 15 * time.Second
)

// YARNNodes is what the reconciler reads of YARN: the ResourceManager's node list
// during a decommission, and how each NodeManager registered. A *yarn.Client.
type YARNNodes interface {
	Nodes(ctx context.Context, resourceManagerURL string) ([]yarn.Node, error)
	NodeManagerIdentity(ctx context.Context, host string, port int) (yarn.NodeIdentity, error)
}

// planDecommission decides a pass's NodeManager count. When spec.nodeManagers.replicas
// is below the StatefulSet's, the leaving pods (the highest ordinals, which a
// StatefulSet removes first) are decommissioned by YARN first: the pass returns a
// Decommission that keeps the StatefulSet's size and lists the leaving NodeManagers in
// the ResourceManager's exclude file, and status.decommissioning follows them. Once
// YARN reports each of them gone, or the deadline passed, it returns nil and the
// StatefulSet is lowered.
func (r *Reconciler) planDecommission(ctx context.Context, p *clusterPass) (*hadoop.Decommission, error) {
	hc := p.hc
	desired := ptr.Deref(hc.Spec.NodeManagers.Replicas, 1)
	timeout := ptr.Deref(hc.Spec.NodeManagers.DecommissionTimeoutSeconds, defaultDecommissionTimeout)
	sts, err := r.statefulSet(ctx, p, hadoop.NodeManagerName(hc))
	if err != nil || sts == nil {
		return nil, err
	}
	current := ptr.Deref(sts.Spec.Replicas, 1)
	if current <= desired || timeout == 0 {
		return nil, nil
	}

	prev := p.base.Status.Decommissioning
	same := prev != nil && prev.Reason == v1alpha1.DecommissionScaleDown && prev.Replicas == desired
	d, expired := decommissionWindow(prev, same, timeout, r.now())
	d.Reason, d.Replicas = v1alpha1.DecommissionScaleDown, desired
	if expired {
		r.record(hc, nil, corev1.EventTypeWarning, v1alpha1.EventReasonDecommissionTimedOut, "Scale",
			fmt.Sprintf("YARN did not decommission the leaving NodeManagers by %s: scaling to %d anyway", d.Deadline.UTC().Format(time.RFC3339), desired))
		return nil, nil
	}

	var pods []string
	for i := desired; i < current; i++ {
		pods = append(pods, fmt.Sprintf("%s-%d", sts.Name, i))
	}
	hosts, pending, err := r.followDecommission(ctx, p, d, pods, prev)
	if err != nil || !pending {
		return nil, err
	}
	return &hadoop.Decommission{Replicas: ptr.To(current), Hosts: hosts, TimeoutSeconds: timeout}, nil
}

// followDecommission asks YARN about the NodeManagers of pods and reports them in d,
// which becomes the status's decommission while any of them is pending. It returns
// the hosts the exclude file lists.
func (r *Reconciler) followDecommission(ctx context.Context, p *clusterPass, d *v1alpha1.Decommissioning, pods []string, prev *v1alpha1.Decommissioning) ([]string, bool, error) {
	hc := p.hc
	var leaving []leavingNode
	for _, pod := range pods {
		n, err := r.leavingNode(ctx, hc, pod, prev, p.base.Status.NodeManagerHosts)
		if err != nil {
			return nil, false, err
		}
		leaving = append(leaving, n)
	}
	var nodes []yarn.Node
	var nodesErr error
	for _, n := range leaving {
		if n.nodeID != "" {
			nodes, nodesErr = r.YARN.Nodes(ctx, hadoop.ResourceManagerWebURL(hc))
			break
		}
	}
	statuses, hosts, pending := decommissionProgress(leaving, nodes, nodesErr)
	if !pending {
		return hosts, false, nil
	}
	d.Nodes = statuses
	hc.Status.Decommissioning = d
	p.requeueAfter = decommissionPoll
	if nodesErr != nil {
		p.decommissionProblem = fmt.Sprintf("the ResourceManager did not answer (%v)", nodesErr)
	}
	return hosts, true, nil
}

// decommissionWindow is a decommission's start and deadline: those of prev when the
// pass continues it (same), else starting now. Expired says the deadline has passed.
func decommissionWindow(prev *v1alpha1.Decommissioning, same bool, timeout int32, now time.Time) (*v1alpha1.Decommissioning, bool) {
	start := metav1.NewTime(now)
	if same {
		start = prev.StartTime
	}
	d := &v1alpha1.Decommissioning{
		StartTime: start,
		Deadline:  metav1.NewTime(start.Add(time.Duration(timeout)*time.Second + decommissionGrace)),
	}
	return d, !now.Before(d.Deadline.Time)
}

// decommissionProgress reports each leaving NodeManager from YARN's node list (nodes,
// or nodesErr when the ResourceManager did not answer), the hosts the exclude file
// must keep listing, and whether any of them may still run containers. A NodeManager
// is done when YARN reports it decommissioned, lost or shut down, or when YARN does
// not know it and its pod is not serving; one whose node ID is unknown holds the
// scale-down only while its pod is serving, which it cannot be for long without
// answering.
func decommissionProgress(leaving []leavingNode, nodes []yarn.Node, nodesErr error) ([]v1alpha1.DecommissioningNode, []string, bool) {
	var statuses []v1alpha1.DecommissioningNode
	var hosts []string
	pending := false
	for _, n := range leaving {
		status := v1alpha1.DecommissioningNode{Pod: n.pod, NodeID: n.nodeID}
		switch {
		case n.nodeID == "":
			pending = pending || n.serving
		case nodesErr != nil:
			hosts = append(hosts, nodeHost(n.nodeID))
			pending = true
		default:
			hosts = append(hosts, nodeHost(n.nodeID))
			node, known := findNode(nodes, n.nodeID)
			if known {
				status.State, status.Containers = node.State, node.NumContainers
			}
			pending = pending || (known && !node.Gone()) || (!known && n.serving)
		}
		statuses = append(statuses, status)
	}
	return statuses, hosts, pending
}

// leavingNode is a NodeManager pod a scale-down removes.
type leavingNode struct {
	pod string
	// nodeID is its YARN node ID as it reported it, or as status remembered it when it
	// no longer answers (a decommissioned NodeManager exits); empty when neither knows.
	nodeID string
	// serving: the NodeManager may run containers: its pod is ready, or its container
	// runs and YARN knows it.
	serving bool
}

// leavingNode asks the NodeManager of pod how it registered with YARN. One whose pod is
// not ready but whose container runs is known by the host status recorded for its pod:
// a readiness probe also fails when a NodeManager answers slowly under load, while its
// containers run on, and such a NodeManager leaves through YARN as a ready one does.
func (r *Reconciler) leavingNode(ctx context.Context, hc *v1alpha1.HadoopCluster, name string, prev *v1alpha1.Decommissioning, recorded []v1alpha1.NodeManagerHost) (leavingNode, error) {
	n := leavingNode{pod: name}
	if prev != nil {
		for _, s := range prev.Nodes {
			if s.Pod == name {
				n.nodeID = s.NodeID
			}
		}
	}
	pod := &corev1.Pod{}
	switch err := r.workloads.Get(ctx, client.ObjectKey{Namespace: hc.Namespace, Name: name}, pod); {
	case apierrors.IsNotFound(err):
		return n, nil
	case err != nil:
		return n, fmt.Errorf("reading pod %s/%s: %w", hc.Namespace, name, err)
	}
	// The readiness probe asks the same REST API: a pod that is not ready has no
	// NodeManager that answers, or one that is still starting and runs nothing.
	n.serving = pod.DeletionTimestamp.IsZero() && podstatus.Ready(pod) && pod.Status.PodIP != ""
	if !n.serving {
		if pod.DeletionTimestamp.IsZero() && containerRunning(pod, string(hadoop.NodeManager)) {
			if n.nodeID == "" {
				n.nodeID = recordedNodeID(recorded, pod)
			}
			n.serving = n.nodeID != ""
		}
		return n, nil
	}
	id, err := r.YARN.NodeManagerIdentity(ctx, pod.Status.PodIP, hadoop.PortNMWeb)
	if err == nil {
		n.nodeID = id.ID
	}
	return n, nil
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

// decommissionMessage is NodeManagersReady's message while a decommission runs.
func decommissionMessage(d *v1alpha1.Decommissioning, problem string) string {
	var nodes []string
	for _, n := range d.Nodes {
		switch {
		case n.NodeID == "":
			nodes = append(nodes, n.Pod+" (not registered)")
		case n.State == "":
			nodes = append(nodes, fmt.Sprintf("%s (%s)", n.Pod, n.NodeID))
		default:
			nodes = append(nodes, fmt.Sprintf("%s (%s %s, %d containers)", n.Pod, n.NodeID, n.State, n.Containers))
		}
	}
	msg := fmt.Sprintf("YARN is decommissioning %s before the NodeManagers scale down to %d; the StatefulSet is lowered when they are decommissioned, or at %s",
		strings.Join(nodes, ", "), d.Replicas, d.Deadline.UTC().Format(time.RFC3339))
	if d.Reason == v1alpha1.DecommissionRollingUpdate {
		msg = fmt.Sprintf("rolling the NodeManagers to the current template one at a time: YARN is decommissioning %s, whose pod is replaced when it is decommissioned, or at %s",
			strings.Join(nodes, ", "), d.Deadline.UTC().Format(time.RFC3339))
	}
	if problem != "" {
		msg += "; " + problem
	}
	return msg
}
