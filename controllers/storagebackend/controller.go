package storagebackend

import (
	"context"
	"fmt"

	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/optionalapi"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// StorageBackendFinalizer holds a StorageBackend until no HadoopCluster uses it and,
// when it was asked to, its Rook objects are gone.
const StorageBackendFinalizer = "hadoopceph.io/storagebackend"

// Reconciler gives Hadoop a CephFS: it applies the Rook objects of a
// Rook-mode StorageBackend, waits for Rook to make them ready, and renders the client
// config Secret that HadoopClusters mount. For an HDFS backend it renders the client
// ConfigMap and asks the NameNodes whether one is active.
type Reconciler struct {
	client.Client
	// APIReader reads Secrets and ConfigMaps, whose contents the cache does not hold:
	// they are watched as metadata only to keep the operator's memory small.
	APIReader client.Reader
	Scheme    *runtime.Scheme
	// Events records the events about the kind's objects.
	Events lifecycle.Events
	// RookNamespace is used when a StorageBackend names no Rook namespace.
	RookNamespace string
	// HadoopImage runs the Jobs of Rook-mode backends: the one that sets the file
	// system's flags, and the one that empties Hadoop's root before a backend with
	// preserveOnDelete false has Rook delete it.
	HadoopImage string
	// APIs are the optional APIs served when the operator started.
	APIs optionalapi.Served
	// NameNodes asks an HDFS backend's NameNodes for their state.
	NameNodes NameNodeAsker
	// MDSNamespaces are the Rook namespaces whose MDS pods are watched; empty means
	// every namespace.
	MDSNamespaces []string

	// mds holds Rook's MDS pods, trimmed to what MetadataServersHealthy reads (mds.go).
	mds client.Reader
}

// +kubebuilder:rbac:groups=hadoopceph.io,resources=storagebackends,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=hadoopceph.io,resources=storagebackends/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=hadoopceph.io,resources=storagebackends/finalizers,verbs=update
// +kubebuilder:rbac:groups=hadoopceph.io,resources=hadoopclusters,verbs=get;list;watch
// +kubebuilder:rbac:groups=ceph.rook.io,resources=cephfilesystems;cephfilesystemsubvolumegroups;cephclients,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=ceph.rook.io,resources=cephclusters,verbs=get;list;watch
// +kubebuilder:rbac:groups="",resources=secrets,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get;list;watch;create;update;patch
// +kubebuilder:rbac:groups="",resources=namespaces,verbs=get;list;watch
// +kubebuilder:rbac:groups="",resources=pods,verbs=get;list;watch
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch;create;delete
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// Reconcile runs one pass: finalizer, pause, then the phases of the backend's mode, and
// a status patch written at the end whatever happened. The Ready gauge follows the
// status the API server holds, and goes with the backend.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) {
	sb := &v1alpha1.StorageBackend{}
	if err := r.Get(ctx, req.NamespacedName, sb); err != nil {
		if apierrors.IsNotFound(err) {
			forgetReadiness(req.NamespacedName)
		}
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	recordReadiness(sb)
	if sb.Spec.Paused {
		o, err := lifecycle.Paused(ctx, r.Client, r.Events, sb, &sb.Status.Conditions, sb.Generation)
		return lifecycle.Requeue(o, err), err
	}
	if sb.DeletionTimestamp.IsZero() && !controllerutil.ContainsFinalizer(sb, StorageBackendFinalizer) {
		before := sb.DeepCopy()
		controllerutil.AddFinalizer(sb, StorageBackendFinalizer)
		if err := r.Patch(ctx, sb, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})); err != nil {
			return ctrl.Result{}, fmt.Errorf("adding finalizer: %w", err)
		}
	}

	p := newPass(sb)
	defer p.Finish(&result, &retErr, func(passErr error) (lifecycle.Outcome, error) { return r.writeStatus(ctx, p, passErr) })

	if !sb.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.reconcileDelete(ctx, p)
	}
	if sb.Spec.HDFS != nil {
		return ctrl.Result{}, r.reconcileHDFS(ctx, p)
	}
	if sb.Spec.CephFS.Rook != nil {
		return ctrl.Result{}, r.reconcileRook(ctx, p)
	}
	return ctrl.Result{}, r.reconcileExternal(ctx, p)
}

// writeStatus finishes the status of a pass and writes it when it differs from what
// the pass started with; events for the conditions that changed follow the write.
func (r *Reconciler) writeStatus(ctx context.Context, p *pass, reconcileErr error) (lifecycle.Outcome, error) {
	if p.finalized {
		return lifecycle.Unchanged, nil
	}
	st := &p.sb.Status
	old := p.base.Status
	switch {
	case p.deleting:
	case reconcileErr != nil:
		// A failed pass learned nothing reliable besides its error: the rest of the
		// status keeps what the last good pass reported.
		conditions := st.Conditions
		*st = *old.DeepCopy()
		st.Conditions = conditions
		summarize(p)
	default:
		st.ObservedGeneration = p.sb.Generation
		summarize(p)
	}
	o, err := lifecycle.PatchStatus(ctx, r.Client, p.base, p.sb, old, *st)
	if o == lifecycle.Patched {
		recordReadiness(p.sb)
		r.Events.RecordTransitions(p.sb, old.Conditions, st.Conditions, transitions)
	}
	return o, err
}

// SetupWithManager watches everything a StorageBackend waits for, so that no pass has
// to poll.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	createOrDelete := predicate.Funcs{
		UpdateFunc:  func(event.UpdateEvent) bool { return false },
		GenericFunc: func(event.GenericEvent) bool { return false },
	}
	monEndpoints := predicate.NewPredicateFuncs(func(obj client.Object) bool {
		return obj.GetName() == rook.MonEndpointsConfigMap
	})
	// Deletion waits for the last HadoopCluster that uses the backend; other changes to
	// a HadoopCluster, such as its status, do not concern the backend.
	backendRef := predicate.Funcs{UpdateFunc: func(e event.UpdateEvent) bool {
		return e.ObjectOld.(*v1alpha1.HadoopCluster).Spec.StorageBackendRef != e.ObjectNew.(*v1alpha1.HadoopCluster).Spec.StorageBackendRef
	}}

	b := ctrl.NewControllerManagedBy(mgr).
		Named("storagebackend").
		For(&v1alpha1.StorageBackend{}).
		Owns(&corev1.Secret{}, builder.OnlyMetadata).
		Owns(&corev1.ConfigMap{}, builder.OnlyMetadata).
		Owns(&batchv1.Job{}).
		WatchesMetadata(&corev1.Namespace{}, handler.EnqueueRequestsFromMapFunc(r.byNamespaceName), builder.WithPredicates(createOrDelete)).
		WatchesMetadata(&corev1.ConfigMap{}, handler.EnqueueRequestsFromMapFunc(r.byRookNamespace), builder.WithPredicates(monEndpoints)).
		WatchesMetadata(&corev1.ConfigMap{}, handler.EnqueueRequestsFromMapFunc(r.byDiscoveryConfigMap)).
		WatchesMetadata(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(r.bySecret)).
		Watches(&v1alpha1.HadoopCluster{}, handler.EnqueueRequestsFromMapFunc(r.byHadoopCluster), builder.WithPredicates(backendRef))
	if r.APIs.Rook {
		mds, err := newMDSCache(mgr, r.MDSNamespaces)
		if err != nil {
			return fmt.Errorf("creating the cache of Rook's MDS pods: %w", err)
		}
		if err := mgr.Add(mds); err != nil {
			return err
		}
		r.mds = mds
		b = b.WatchesRawSource(source.Kind(mds, &corev1.Pod{}, handler.TypedEnqueueRequestsFromMapFunc(r.byMetadataServer)))
		b = b.Watches(&cephv1.CephFilesystem{}, handler.EnqueueRequestsFromMapFunc(r.byRookFilesystem)).
			Watches(&cephv1.CephFilesystemSubVolumeGroup{}, handler.EnqueueRequestsFromMapFunc(r.bySubVolumeGroup)).
			Watches(&cephv1.CephClient{}, handler.EnqueueRequestsFromMapFunc(r.byRookClient)).
			WatchesMetadata(&cephv1.CephCluster{}, handler.EnqueueRequestsFromMapFunc(r.byRookNamespace), builder.WithPredicates(createOrDelete))
	} else {
		mgr.GetLogger().Info("Rook's ceph.rook.io/v1 kinds are not served: Rook-mode StorageBackends report RookNotInstalled until Rook is installed, which restarts the operator")
	}
	return b.Complete(r)
}
