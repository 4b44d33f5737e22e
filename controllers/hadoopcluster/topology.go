package hadoopcluster

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/podstatus"
)

// The connector names the OSDs' nodes in block locations, and YARN knows its
// NodeManagers by other names, which depend on the network they run on and on the
// name service (yarn.NodeManagerIdentity): the operator asks each NodeManager, once per
// pod, and writes the answers to the topology ConfigMap (internal/hadoop/topology.go),
// from which the connector adds them to the locations. status.nodeManagerHosts keeps
// the answers, so that a NodeManager is asked once in its pod's life rather than on
// every pass.

const (
	// nodeManagerAskAgain is how soon a ready NodeManager that did not answer is asked
	// again: one that was just starting answers within seconds, and nothing in
	// Kubernetes changes when it does.
	nodeManagerAskAgain = 10 * time.Second
	// nodeManagerAsks bounds the NodeManagers a pass asks at once: each may hold it for
	// the client's timeout when it does not answer.
	nodeManagerAsks = 8
)

// reconcileTopology records the YARN host of every NodeManager pod that runs on a node
// and applies the topology ConfigMap from them. A NodeManager that does not answer
// leaves its pod out until a later pass; the pass goes on.
func (r *Reconciler) reconcileTopology(ctx context.Context, p *clusterPass) error {
	hc := p.hc
	pods, err := r.componentPods(ctx, hc, hadoop.NodeManager)
	if err != nil {
		return p.Failed(v1alpha1.ConditionConfigReady, err)
	}
	hosts, ask := planNodeManagerHosts(p.base.Status.NodeManagerHosts, pods)
	learnt, unanswered := r.askNodeManagers(ctx, ask)
	hosts = append(hosts, learnt...)
	slices.SortFunc(hosts, func(a, b v1alpha1.NodeManagerHost) int {
		return cmp.Or(strings.Compare(a.Pod, b.Pod), strings.Compare(a.UID, b.UID))
	})
	hc.Status.NodeManagerHosts = hosts
	p.nodeManagerHostsObserved = true
	if unanswered > 0 {
		p.RequeueWithin(nodeManagerAskAgain)
	}

	// Like every child, not before the pass could build the cluster's objects: a
	// cluster that waits for its storage has none yet, and one whose spec cannot be
	// built keeps what it has.
	if p.built == nil {
		return nil
	}
	// Every pod of the cluster, not only the NodeManagers: on the host network a node's
	// address may resolve back to the DNS name of any pod there, the ResourceManager's
	// among them, and a NodeManager registers under what it resolves to.
	nodes, all := &corev1.NodeList{}, &corev1.PodList{}
	if err := r.workloads.List(ctx, nodes); err != nil {
		return p.Failed(v1alpha1.ConditionConfigReady, err)
	}
	if err := r.workloads.List(ctx, all, client.InNamespace(hc.Namespace), client.MatchingLabels{hadoop.LabelInstance: hc.Name}); err != nil {
		return p.Failed(v1alpha1.ConditionConfigReady, err)
	}
	cm := hadoop.TopologyConfigMap(hc, hosts, r.crushHostNames(ctx, hosts), hadoop.RackTable(nodes.Items, all.Items, hosts))
	outcome, err := r.applyChild(ctx, p, cm)
	switch {
	case err != nil:
		return p.Failed(v1alpha1.ConditionConfigReady, err)
	case outcome == childConflict:
		p.False(v1alpha1.ConditionConfigReady, v1alpha1.ReasonChildConflict,
			r.describe(cm)+" already exists and is not controlled by this HadoopCluster; it is left untouched: delete it, or give the cluster another name")
	}
	return nil
}

// crushHostNames gives the nodes of hosts the names Ceph may know them by. A node the
// cache does not have (it was just deleted) keeps its own name.
func (r *Reconciler) crushHostNames(ctx context.Context, hosts []v1alpha1.NodeManagerHost) map[string][]string {
	names := map[string][]string{}
	for _, h := range hosts {
		if _, done := names[h.NodeName]; done {
			continue
		}
		node := &corev1.Node{}
		if err := r.workloads.Get(ctx, types.NamespacedName{Name: h.NodeName}, node); err != nil {
			names[h.NodeName] = []string{h.NodeName}
			continue
		}
		names[h.NodeName] = hadoop.CRUSHHostNames(node)
	}
	return names
}

// planNodeManagerHosts keeps the recorded hosts of the pods that still exist, and
// picks the pods to ask: those not on record that run on a node and whose NodeManager
// serves. A pod's YARN host does not change during its life, so a recorded one is
// kept even while its pod is not ready.
func planNodeManagerHosts(recorded []v1alpha1.NodeManagerHost, pods []corev1.Pod) (keep []v1alpha1.NodeManagerHost, ask []corev1.Pod) {
	live := map[types.UID]bool{}
	for _, pod := range pods {
		live[pod.UID] = true
	}
	known := map[types.UID]bool{}
	for _, h := range recorded {
		if live[types.UID(h.UID)] {
			keep = append(keep, h)
			known[types.UID(h.UID)] = true
		}
	}
	for _, pod := range pods {
		// The readiness probe asks the same REST API.
		serving := pod.DeletionTimestamp.IsZero() && podstatus.Ready(&pod) && pod.Status.PodIP != ""
		if !known[pod.UID] && serving && pod.Spec.NodeName != "" {
			ask = append(ask, pod)
		}
	}
	return keep, ask
}

// askNodeManagers asks the NodeManager of each pod how it registered with YARN, a few
// at a time, and returns the hosts of those that answered and how many did not.
func (r *Reconciler) askNodeManagers(ctx context.Context, pods []corev1.Pod) ([]v1alpha1.NodeManagerHost, int) {
	var (
		mu         sync.Mutex
		wg         sync.WaitGroup
		learnt     []v1alpha1.NodeManagerHost
		unanswered int
	)
	slots := make(chan struct{}, nodeManagerAsks)
	for _, pod := range pods {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			id, err := r.YARN.NodeManagerIdentity(ctx, pod.Status.PodIP, hadoop.PortNMWeb)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				unanswered++
				log.FromContext(ctx).V(1).Info("the NodeManager did not say how YARN knows it; asking again later", "pod", pod.Name, "error", err.Error())
				return
			}
			learnt = append(learnt, v1alpha1.NodeManagerHost{Pod: pod.Name, UID: string(pod.UID), NodeName: pod.Spec.NodeName, YARNHost: id.HostName})
		}()
	}
	wg.Wait()
	return learnt, unanswered
}
