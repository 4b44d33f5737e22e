package hadoopcluster

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/indexes"

	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/optionalapi"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/fencing"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/podstatus"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/yarn"
)

// SetupWithManager watches every input of a cluster, so that no pass has to poll:
// its children (the PodMonitor among them when the Prometheus Operator is installed),
// its StorageBackend, the CephCluster that may put Ceph on Multus, the
// NetworkAttachmentDefinitions (when Multus is installed), the nodes' extended
// resources and the scheduling, readiness and running containers of its pods.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	workloads, err := newWorkloadCache(mgr, r.WatchNamespaces)
	if err != nil {
		return fmt.Errorf("creating the cache of Hadoop pods and nodes: %w", err)
	}
	if err := mgr.Add(workloads); err != nil {
		return err
	}
	r.workloads = workloads
	if r.YARN == nil {
		r.YARN = yarn.NewClient(hadoop.HadoopUser)
	}

	// Spec changes only: the status this controller writes must not bring another pass.
	specChanged := predicate.GenerationChangedPredicate{}
	// A StorageBackend matters through its spec (the Rook namespace) and its status.
	backendChanged := predicate.Funcs{UpdateFunc: func(e event.UpdateEvent) bool {
		old, cur := e.ObjectOld.(*v1alpha1.StorageBackend), e.ObjectNew.(*v1alpha1.StorageBackend)
		return old.Generation != cur.Generation || !equality.Semantic.DeepEqual(old.Status, cur.Status)
	}}
	// The disruption controller rewrites a PodDisruptionBudget's status whenever pods
	// come and go, and a PodMonitor may carry a status the Prometheus Operator writes;
	// only changes to what the operator applies matter.
	appliedChanged := predicate.Funcs{UpdateFunc: func(e event.UpdateEvent) bool {
		old, cur := e.ObjectOld, e.ObjectNew
		return old.GetGeneration() != cur.GetGeneration() || !maps.Equal(old.GetLabels(), cur.GetLabels()) ||
			!maps.Equal(old.GetAnnotations(), cur.GetAnnotations()) || !equality.Semantic.DeepEqual(old.GetOwnerReferences(), cur.GetOwnerReferences())
	}}
	// A NetworkAttachmentDefinition matters by its existence, the device it names and
	// the link rate it gives.
	attachmentChanged := predicate.Funcs{
		UpdateFunc: func(e event.UpdateEvent) bool {
			old, cur := e.ObjectOld.GetAnnotations(), e.ObjectNew.GetAnnotations()
			return old[hadoop.ResourceNameAnnotation] != cur[hadoop.ResourceNameAnnotation] ||
				old[hadoop.LinkRateAnnotation] != cur[hadoop.LinkRateAnnotation]
		},
		GenericFunc: func(event.GenericEvent) bool { return false },
	}

	b := ctrl.NewControllerManagedBy(mgr).
		Named("hadoopcluster").
		// A pass mostly waits for the API server, up to nine applies in a row; a few
		// workers keep a burst of new clusters from queueing behind one another. One
		// cluster is never reconciled by two workers at once.
		WithOptions(controller.Options{MaxConcurrentReconciles: maxConcurrentClusterPasses}).
		For(&v1alpha1.HadoopCluster{}, builder.WithPredicates(specChanged)).
		Owns(&appsv1.StatefulSet{}).
		Owns(&corev1.Service{}, builder.OnlyMetadata).
		Owns(&corev1.ConfigMap{}, builder.OnlyMetadata).
		Owns(&corev1.PodTemplate{}, builder.OnlyMetadata).
		Owns(&corev1.ServiceAccount{}, builder.OnlyMetadata).
		Owns(&rbacv1.Role{}, builder.OnlyMetadata).
		Owns(&rbacv1.RoleBinding{}, builder.OnlyMetadata).
		Owns(&policyv1.PodDisruptionBudget{}, builder.OnlyMetadata, builder.WithPredicates(appliedChanged)).
		Owns(&networkingv1.NetworkPolicy{}, builder.OnlyMetadata).
		Watches(&v1alpha1.StorageBackend{}, handler.EnqueueRequestsFromMapFunc(r.byStorageBackend), builder.WithPredicates(backendChanged)).
		WatchesRawSource(source.Kind(workloads, &corev1.Pod{},
			handler.TypedEnqueueRequestsFromMapFunc(r.byPod), podChanged())).
		WatchesRawSource(source.Kind(workloads, &corev1.Node{},
			handler.TypedEnqueueRequestsFromMapFunc(r.byNode), nodeChanged()))
	if r.APIs.Rook {
		b = b.Watches(&cephv1.CephCluster{}, handler.EnqueueRequestsFromMapFunc(r.byRookObject), builder.WithPredicates(specChanged))
	}
	if r.APIs.NetworkAttachments {
		nad := &metav1.PartialObjectMetadata{}
		nad.SetGroupVersionKind(optionalapi.NetworkAttachmentGVK)
		b = b.WatchesMetadata(nad, handler.EnqueueRequestsFromMapFunc(r.byNetworkAttachment), builder.WithPredicates(attachmentChanged))
	} else {
		mgr.GetLogger().Info("NetworkAttachmentDefinitions are not served: HadoopClusters that ask for attachments report NetworkAttachmentNotFound until Multus is installed, which restarts the operator")
	}
	if r.APIs.PodMonitors {
		// As metadata, like the other children the operator only applies.
		pm := &unstructured.Unstructured{}
		pm.SetGroupVersionKind(hadoop.PodMonitorGVK)
		b = b.Owns(pm, builder.OnlyMetadata, builder.WithPredicates(appliedChanged))
	} else {
		mgr.GetLogger().Info("PodMonitors are not served: HadoopClusters get none until the Prometheus Operator is installed, which restarts the operator; their daemons serve /prom all the same")
	}
	return b.Complete(r)
}

// maxConcurrentClusterPasses is the number of HadoopClusters reconciled at once.
const maxConcurrentClusterPasses = 4

// hadoopPodSelector selects the pods of every HadoopCluster's StatefulSets.
func hadoopPodSelector() (labels.Selector, error) {
	name, err := labels.NewRequirement(hadoop.LabelName, selection.Equals, []string{hadoop.AppName})
	if err != nil {
		return nil, err
	}
	managed, err := labels.NewRequirement(naming.LabelManagedBy, selection.Equals, []string{naming.ManagedBy})
	if err != nil {
		return nil, err
	}
	component, err := labels.NewRequirement(hadoop.LabelComponent, selection.In,
		[]string{string(hadoop.ResourceManager), string(hadoop.NodeManager), string(hadoop.JobHistory)})
	if err != nil {
		return nil, err
	}
	return labels.NewSelector().Add(*name, *managed, *component), nil
}

// newWorkloadCache is a cache of its own for pods and nodes, the two kinds whose
// numbers grow with the Kubernetes cluster rather than with the operator's objects.
// It holds only the Hadoop pods, and of pods and nodes only what the status reads:
// the PodScheduled condition, and the extended resources a node offers. The manager's
// cache would hold every pod and node whole.
func newWorkloadCache(mgr ctrl.Manager, namespaces []string) (cache.Cache, error) {
	selector, err := hadoopPodSelector()
	if err != nil {
		return nil, err
	}
	return lifecycle.NewCache(mgr, map[client.Object]cache.ByObject{
		&corev1.Pod{}:  {Label: selector, Namespaces: lifecycle.InNamespaces(namespaces), Transform: trimPod},
		&corev1.Node{}: {Transform: trimNode},
	})
}

// trimPod keeps what maps a pod to its cluster, its PodScheduled and Ready conditions,
// what a decommission asks its NodeManager at (its address) and which of its
// containers run (internal/fleet), its node (topology.go), and the ResourceManager's
// scheduler hash (refresh.go).
func trimPod(obj any) (any, error) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return obj, nil
	}
	out := &corev1.Pod{ObjectMeta: lifecycle.TrimmedMeta(pod)}
	if h, ok := pod.Annotations[hadoop.SchedulerHashAnnotation]; ok {
		out.Annotations = map[string]string{hadoop.SchedulerHashAnnotation: h}
	}
	out.Spec.NodeName = pod.Spec.NodeName
	out.Status.PodIP = pod.Status.PodIP
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodScheduled || c.Type == corev1.PodReady {
			out.Status.Conditions = append(out.Status.Conditions, corev1.PodCondition{Type: c.Type, Status: c.Status, Reason: c.Reason, Message: c.Message})
		}
	}
	for _, c := range pod.Status.ContainerStatuses {
		if c.State.Running != nil {
			out.Status.ContainerStatuses = append(out.Status.ContainerStatuses, corev1.ContainerStatus{
				Name: c.Name, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}})
		}
	}
	return out, nil
}

// trimNode keeps the extended resources a node offers: those with a domain, which
// cpu, memory, pods, ephemeral-storage and hugepages have not; its host name label,
// after which Rook names its CRUSH host, and its rack labels and addresses, which the
// rack table lists (topology.go).
func trimNode(obj any) (any, error) {
	node, ok := obj.(*corev1.Node)
	if !ok {
		return obj, nil
	}
	out := &corev1.Node{ObjectMeta: metav1.ObjectMeta{
		Name:            node.Name,
		UID:             node.UID,
		ResourceVersion: node.ResourceVersion,
	}}
	for _, l := range append([]string{corev1.LabelHostname}, hadoop.RackLabels...) {
		if v, ok := node.Labels[l]; ok {
			if out.Labels == nil {
				out.Labels = map[string]string{}
			}
			out.Labels[l] = v
		}
	}
	// The names a NodeManager on the host network may register with (hadoop.RackTable).
	out.Status.Addresses = node.Status.Addresses
	// Whether the node was lost (internal/fencing).
	for _, t := range node.Spec.Taints {
		if t.Key == fencing.OutOfServiceTaint {
			out.Spec.Taints = append(out.Spec.Taints, t)
		}
	}
	for _, c := range node.Status.Conditions {
		if c.Type == corev1.NodeReady {
			out.Status.Conditions = []corev1.NodeCondition{{Type: c.Type, Status: c.Status, LastTransitionTime: c.LastTransitionTime, Message: c.Message}}
		}
	}
	for name, q := range node.Status.Allocatable {
		if strings.Contains(string(name), "/") {
			if out.Status.Allocatable == nil {
				out.Status.Allocatable = corev1.ResourceList{}
			}
			out.Status.Allocatable[name] = q
		}
	}
	return out, nil
}

// podChanged passes pods that come or go, or whose scheduling, readiness or running
// containers changed: what the status reports and what a rolling update or a
// decommission waits for. A decommissioned NodeManager exits, so its pod turning not
// ready is often the first sign Kubernetes gives that YARN is done with it; a
// replaced pod turning ready lets the next one go. Without these a pass would learn of
// them only at its next poll (internal/fleet's Poll), seconds to a quarter minute
// later for each pod of a rollout. The trimmed pods (trimPod) change on nothing else
// the kubelet reports often.
func podChanged() predicate.TypedPredicate[*corev1.Pod] {
	return predicate.TypedFuncs[*corev1.Pod]{UpdateFunc: func(e event.TypedUpdateEvent[*corev1.Pod]) bool {
		return !equality.Semantic.DeepEqual(podScheduled(e.ObjectOld), podScheduled(e.ObjectNew)) ||
			podstatus.Ready(e.ObjectOld) != podstatus.Ready(e.ObjectNew) ||
			!slices.Equal(runningContainers(e.ObjectOld), runningContainers(e.ObjectNew))
	}}
}

// runningContainers names the pod's containers that run.
func runningContainers(pod *corev1.Pod) []string {
	var out []string
	for _, c := range pod.Status.ContainerStatuses {
		if c.State.Running != nil {
			out = append(out, c.Name)
		}
	}
	return out
}

// nodeChanged passes nodes that come or go, or whose extended resources, host name
// label, rack, addresses or loss (internal/fencing) changed, and not the heartbeats
// that make up most node updates.
func nodeChanged() predicate.TypedPredicate[*corev1.Node] {
	return predicate.TypedFuncs[*corev1.Node]{UpdateFunc: func(e event.TypedUpdateEvent[*corev1.Node]) bool {
		oldLost, _ := fencing.NodeLost(e.ObjectOld, e.ObjectOld.Name)
		newLost, _ := fencing.NodeLost(e.ObjectNew, e.ObjectNew.Name)
		return !equality.Semantic.DeepEqual(e.ObjectOld.Status.Allocatable, e.ObjectNew.Status.Allocatable) ||
			e.ObjectOld.Labels[corev1.LabelHostname] != e.ObjectNew.Labels[corev1.LabelHostname] ||
			hadoop.NodeRack(e.ObjectOld) != hadoop.NodeRack(e.ObjectNew) ||
			!equality.Semantic.DeepEqual(e.ObjectOld.Status.Addresses, e.ObjectNew.Status.Addresses) ||
			oldLost != newLost
	}}
}

// clustersBy lists the HadoopClusters whose index field has value.
func (r *Reconciler) clustersBy(ctx context.Context, field, value string, opts ...client.ListOption) []reconcile.Request {
	return r.clusterRequests(ctx, append(opts, client.MatchingFields{field: value})...)
}

// clusterRequests lists the HadoopClusters that opts select, as requests.
func (r *Reconciler) clusterRequests(ctx context.Context, opts ...client.ListOption) []reconcile.Request {
	return indexes.Requests(ctx, r, &v1alpha1.HadoopClusterList{}, opts...)
}

func (r *Reconciler) byStorageBackend(ctx context.Context, obj client.Object) []reconcile.Request {
	return r.clustersBy(ctx, indexes.StorageBackendRef, obj.GetName(), client.InNamespace(obj.GetNamespace()))
}

// byRookObject maps an object of a Rook namespace to the clusters on backends that
// use that namespace.
func (r *Reconciler) byRookObject(ctx context.Context, obj client.Object) []reconcile.Request {
	var reqs []reconcile.Request
	for _, backend := range indexes.Requests(ctx, r, &v1alpha1.StorageBackendList{}, client.MatchingFields{indexes.RookNamespace: obj.GetNamespace()}) {
		reqs = append(reqs, r.clustersBy(ctx, indexes.StorageBackendRef, backend.Name, client.InNamespace(backend.Namespace))...)
	}
	return reqs
}

// byNetworkAttachment maps a NetworkAttachmentDefinition to the clusters that list it
// and, since it may be Rook's public network, to those on its namespace's Rook cluster.
func (r *Reconciler) byNetworkAttachment(ctx context.Context, obj client.Object) []reconcile.Request {
	reqs := r.clustersBy(ctx, indexes.NetworkAttachment, obj.GetNamespace()+"/"+obj.GetName())
	return append(reqs, r.byRookObject(ctx, obj)...)
}

func (r *Reconciler) byPod(_ context.Context, pod *corev1.Pod) []reconcile.Request {
	name := pod.Labels[hadoop.LabelInstance]
	if name == "" {
		return nil
	}
	return []reconcile.Request{{NamespacedName: client.ObjectKey{Namespace: pod.Namespace, Name: name}}}
}

// byNode maps a node to the clusters that ask for an extended resource it offers, to
// those with pods on it, whose sessions are fenced when the node is lost, and, when it
// has a rack, to every cluster, whose rack table lists it. An update maps both the old
// and the new node, so clusters also hear of resources and racks that went away.
func (r *Reconciler) byNode(ctx context.Context, node *corev1.Node) []reconcile.Request {
	if hadoop.NodeRack(node) != "" {
		return r.clusterRequests(ctx)
	}
	var reqs []reconcile.Request
	for name := range node.Status.Allocatable {
		reqs = append(reqs, r.clustersBy(ctx, indexes.ExtendedResource, string(name))...)
	}
	pods := &corev1.PodList{}
	if err := r.workloads.List(ctx, pods); err != nil {
		log.FromContext(ctx).Error(err, "listing the Hadoop pods to map a node event", "node", node.Name)
		return reqs
	}
	for i := range pods.Items {
		if pods.Items[i].Spec.NodeName == node.Name {
			reqs = append(reqs, r.byPod(ctx, &pods.Items[i])...)
		}
	}
	return reqs
}
