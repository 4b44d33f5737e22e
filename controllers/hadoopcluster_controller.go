package controllers

import (
	"context"
	"errors"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// HadoopClusterReconciler runs YARN on a StorageBackend's CephFS: it waits for the
// backend, builds the cluster's children with internal/hadoop, applies them, and
// reports how far the pods are.
type HadoopClusterReconciler struct {
	client.Client
	Scheme   *runtime.Scheme
	Recorder events.EventRecorder
	// RookNamespace is used when a StorageBackend names no Rook namespace.
	RookNamespace string
	// HadoopImage is the image of clusters that name none; without it such clusters
	// are refused with InvalidSpec.
	HadoopImage string
	// WatchNamespaces limits the Hadoop pods the operator watches; empty means all.
	WatchNamespaces []string

	// workloads holds the Hadoop pods and the nodes, trimmed to the few fields the
	// status needs; SetupWithManager creates it.
	workloads client.Reader
	// attachmentsServed tells whether the API server serves NetworkAttachmentDefinitions.
	attachmentsServed bool
	// rookServed tells whether the API server serves Rook's kinds.
	rookServed bool
	// applied spares passes the requests that would change nothing.
	applied applyMemory
}

// +kubebuilder:rbac:groups=hadoopceph.io,resources=hadoopclusters,verbs=get;list;watch
// +kubebuilder:rbac:groups=hadoopceph.io,resources=hadoopclusters/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=hadoopceph.io,resources=storagebackends,verbs=get;list;watch
// +kubebuilder:rbac:groups=apps,resources=statefulsets,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups="",resources=services;configmaps;serviceaccounts,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=policy,resources=poddisruptionbudgets,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups="",resources=pods;nodes,verbs=get;list;watch
// +kubebuilder:rbac:groups=k8s.cni.cncf.io,resources=network-attachment-definitions,verbs=get;list;watch
// +kubebuilder:rbac:groups=ceph.rook.io,resources=cephclusters,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// Reconcile runs one pass: pause, then the phases in dependency order (storage,
// network, children, components), and a status patch written at the end whatever
// happened.
//
// There is no finalizer: every child carries an owner reference, so garbage collection
// removes them with the cluster, and nothing else is the cluster's to delete. Its
// files on CephFS, the StorageBackend and the Rook objects stay.
func (r *HadoopClusterReconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) {
	hc := &v1alpha1.HadoopCluster{}
	if err := r.Get(ctx, req.NamespacedName, hc); err != nil {
		if apierrors.IsNotFound(err) {
			r.applied.forget(req.NamespacedName)
		}
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !hc.DeletionTimestamp.IsZero() {
		r.applied.forget(req.NamespacedName)
		return ctrl.Result{}, nil
	}
	if hc.Spec.Paused {
		return ctrl.Result{}, r.reconcilePaused(ctx, hc)
	}

	p := newClusterPass(hc)
	defer func() {
		stale, err := r.writeStatus(ctx, p, retErr)
		retErr = errors.Join(retErr, err)
		if stale && retErr == nil {
			// The cache had not caught up with the previous pass's status write, whose
			// own watch event the controller ignores: the pass is repeated shortly
			// rather than reported as an error.
			result = ctrl.Result{RequeueAfter: staleRetry}
		}
	}()

	storage, err := r.reconcileStorage(ctx, p)
	if err != nil {
		return ctrl.Result{}, err
	}
	if err := r.reconcileNetwork(ctx, p, storage); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.reconcileChildren(ctx, p, storage); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.observeComponents(ctx, p)
}

// staleRetry is how long a pass that read an outdated cluster waits before it runs
// again; informers deliver the missing update within milliseconds.
const staleRetry = 250 * time.Millisecond

// writeStatus finishes the status of a pass and patches it when it differs from what
// the pass started with, so a cluster at rest causes no writes. The patch is
// conditional on the resourceVersion the pass read: a pass that started from a cached
// object older than the last status write reports stale and writes nothing, so events
// derived from status changes are recorded once.
func (r *HadoopClusterReconciler) writeStatus(ctx context.Context, p *clusterPass, reconcileErr error) (stale bool, _ error) {
	st := &p.hc.Status
	old := p.base.Status
	if reconcileErr != nil {
		// A failed pass learned nothing reliable besides its error: the rest of the
		// status keeps what the last good pass reported.
		conditions := st.Conditions
		*st = *old.DeepCopy()
		st.Conditions = conditions
	} else {
		st.ObservedGeneration = p.hc.Generation
	}
	summarizeCluster(p)
	if equality.Semantic.DeepEqual(old, *st) {
		return false, nil
	}
	err := r.Status().Patch(ctx, p.hc, client.MergeFromWithOptions(p.base, client.MergeFromWithOptimisticLock{}))
	switch {
	case apierrors.IsConflict(err):
		return true, nil
	case apierrors.IsNotFound(err):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("patching status: %w", err)
	}
	r.recordClusterChanges(p.hc, old, *st)
	return false, nil
}
