package hadoopcluster

import (
	"context"
	"time"

	networkingv1 "k8s.io/api/networking/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/optionalapi"
)

// Reconciler runs YARN on a StorageBackend's CephFS: it waits for the
// backend, builds the cluster's children with internal/hadoop, applies them, and
// reports how far the pods are.
type Reconciler struct {
	client.Client
	// APIReader reads an HDFS backend's client ConfigMap: ConfigMaps are cached as
	// metadata only.
	APIReader client.Reader
	Scheme    *runtime.Scheme
	// Events records the events about the kind's objects.
	Events lifecycle.Events
	// RookNamespace is used when a StorageBackend names no Rook namespace.
	RookNamespace string
	// HadoopImage is the image of clusters that name none; without it such clusters
	// are refused with InvalidSpec.
	HadoopImage string
	// WatchNamespaces limits the Hadoop pods the operator watches; empty means all.
	WatchNamespaces []string
	// OperatorPeer selects the operator's pods, which the ResourceManager's
	// NetworkPolicy admits to its REST API; nil admits none.
	OperatorPeer *networkingv1.NetworkPolicyPeer
	// YARN reads the ResourceManagers' and NodeManagers' REST APIs, for
	// decommissions and the NodeManagers' YARN hosts; SetupWithManager makes a
	// *yarn.Client when it is nil.
	YARN YARNNodes
	// Clock tells the time of decommission deadlines and fencing records; the real
	// clock when nil.
	Clock clock.PassiveClock

	// workloads holds the Hadoop pods and the nodes, trimmed to the few fields the
	// status needs; SetupWithManager creates it.
	workloads client.Reader
	// APIs are the optional APIs served when the operator started.
	APIs optionalapi.Served
	// applied spares passes the requests that would change nothing.
	applied applyMemory
}

// +kubebuilder:rbac:groups=hadoopceph.io,resources=hadoopclusters,verbs=get;list;watch
// +kubebuilder:rbac:groups=hadoopceph.io,resources=hadoopclusters/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=hadoopceph.io,resources=storagebackends,verbs=get;list;watch
// +kubebuilder:rbac:groups=apps,resources=statefulsets,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups="",resources=services;configmaps;serviceaccounts;podtemplates,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=rbac.authorization.k8s.io,resources=roles;rolebindings,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=policy,resources=poddisruptionbudgets,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=networking.k8s.io,resources=networkpolicies,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=monitoring.coreos.com,resources=podmonitors,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups="",resources=pods;nodes,verbs=get;list;watch
// +kubebuilder:rbac:groups="",resources=pods,verbs=patch;delete
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch;create
// +kubebuilder:rbac:groups=k8s.cni.cncf.io,resources=network-attachment-definitions,verbs=get;list;watch
// +kubebuilder:rbac:groups=ceph.rook.io,resources=cephclusters,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// Reconcile runs one pass: pause, then the phases in dependency order (storage,
// network, children, components, and the NodeManagers' YARN hosts and metrics, on
// which nothing depends), and a status patch written at the end whatever happened. The
// Ready gauge follows the status the API server holds, and goes with the cluster.
//
// There is no finalizer: every child carries an owner reference, so garbage collection
// removes them with the cluster, and nothing else is the cluster's to delete. Its
// files on CephFS, the StorageBackend and the Rook objects stay.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) {
	hc := &v1alpha1.HadoopCluster{}
	if err := r.Get(ctx, req.NamespacedName, hc); err != nil {
		if apierrors.IsNotFound(err) {
			r.applied.forget(req.NamespacedName)
			forgetReadiness(req.NamespacedName)
		}
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	recordReadiness(hc)
	if hc.Spec.Paused {
		o, err := lifecycle.Paused(ctx, r.Client, r.Events, hc, &hc.Status.Conditions, hc.Generation)
		return lifecycle.Requeue(o, err), err
	}
	if !hc.DeletionTimestamp.IsZero() {
		r.applied.forget(req.NamespacedName)
		return ctrl.Result{}, nil
	}

	p := newClusterPass(hc)
	defer p.Finish(&result, &retErr, func(passErr error) (lifecycle.Outcome, error) { return r.writeStatus(ctx, p, passErr) })

	res, err := r.reconcileStorage(ctx, p)
	if err != nil {
		return ctrl.Result{}, err
	}
	// Before the phases that may stop the pass: a dead pod's sessions block other
	// clients whatever else is wrong with the cluster.
	if err := r.evictDeadSessions(ctx, p, res.Storage); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.reconcileNetwork(ctx, p, res); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.reconcileChildren(ctx, p, res.Storage); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.observeComponents(ctx, p); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.reconcileTopology(ctx, p); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.reconcileMetrics(ctx, p)
}

// writeStatus finishes the status of a pass and writes it when it differs from what
// the pass started with; events for what changed follow the write.
func (r *Reconciler) writeStatus(ctx context.Context, p *clusterPass, reconcileErr error) (lifecycle.Outcome, error) {
	st := &p.hc.Status
	old := p.base.Status
	if reconcileErr != nil {
		// A failed pass learned nothing reliable besides its error: the rest of the
		// status keeps what the last good pass reported.
		conditions, sessionPods, nodeManagerHosts := st.Conditions, st.SessionPods, st.NodeManagerHosts
		*st = *old.DeepCopy()
		st.Conditions = conditions
		if p.sessionPodsObserved {
			// Evictions this pass started must not be started again from the old record.
			st.SessionPods = sessionPods
		}
		if p.nodeManagerHostsObserved {
			// What NodeManagers answered stays true; they need not be asked again.
			st.NodeManagerHosts = nodeManagerHosts
		}
	} else {
		st.ObservedGeneration = p.hc.Generation
	}
	summarizeCluster(p)
	o, err := lifecycle.PatchStatus(ctx, r.Client, p.base, p.hc, old, *st)
	if o == lifecycle.Patched {
		recordReadiness(p.hc)
		r.recordClusterChanges(p, old, *st)
	}
	return o, err
}

func (r *Reconciler) now() time.Time {
	if r.Clock == nil {
		return time.Now()
	}
	return r.Clock.Now()
}
