package benchmarkrun

import (
	"context"
	"slices"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/indexes"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/optionalapi"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
)

// Reconciler runs a BenchmarkRun's stages one Job at a time on its
// HadoopCluster, one run per cluster at a time, and reads each stage's result from
// the termination messages of its pods.
type Reconciler struct {
	client.Client
	// APIReader reads a stage's pods once its Job has finished. Pods are not cached:
	// each stage's are read once, and a cache of every pod would cost far more memory
	// than those reads cost time. It also reads what the cache may not hold yet or at
	// all: the runs a run would start before, and Jobs that are not the operator's.
	APIReader client.Reader
	Scheme    *runtime.Scheme
	// Events records the events about the kind's objects.
	Events lifecycle.Events
	// RookNamespace is used when a StorageBackend names no Rook namespace.
	RookNamespace string
	// HadoopImage is the image of clusters that name none.
	HadoopImage string
	// APIs are the optional APIs served when the operator started.
	APIs optionalapi.Served
	// Clock tells the time that spec.deadline is measured with; the real clock when nil.
	Clock clock.PassiveClock
	// YARN finds the applications of a running stage, whose progress becomes
	// status.progress.percent; there is no percent when nil.
	YARN YARNApplications
}

// +kubebuilder:rbac:groups=hadoopceph.io,resources=benchmarkruns,verbs=get;list;watch
// +kubebuilder:rbac:groups=hadoopceph.io,resources=benchmarkruns/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=hadoopceph.io,resources=hadoopclusters;storagebackends,verbs=get;list;watch
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch;create;delete
// +kubebuilder:rbac:groups="",resources=pods,verbs=get;list;watch
// +kubebuilder:rbac:groups=ceph.rook.io,resources=cephclusters,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// Reconcile runs one pass: admission (baseline workload, cluster, queue) and the next
// stage while the run is unfinished, then the summary, the baseline comparison and
// the metrics, and a status patch written at the end whatever happened. The phase
// gauge follows the status the API server holds; a deleted run's series go with it.
//
// There is no finalizer: the stage Jobs carry owner references and go with the run.
// BenchmarkRuns have no spec.paused: a run that should not start is deleted instead,
// as its spec cannot change.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) {
	run := &v1alpha1.BenchmarkRun{}
	if err := r.Get(ctx, req.NamespacedName, run); err != nil {
		if apierrors.IsNotFound(err) {
			return ctrl.Result{}, r.forgetRun(ctx, req.NamespacedName)
		}
		return ctrl.Result{}, err
	}
	recordPhase(run)
	if !run.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}

	p := newRunPass(run, r.now())
	defer p.Finish(&result, &retErr, func(passErr error) (lifecycle.Outcome, error) { return r.writeStatus(ctx, p, passErr) })

	if !p.finished() {
		admitted, err := r.admit(ctx, p)
		if err != nil {
			return ctrl.Result{}, err
		}
		if admitted {
			if err := r.runStages(ctx, p); err != nil {
				return ctrl.Result{}, err
			}
		}
	}
	run.Status.Summary = benchmark.Summarize(&run.Spec, run.Status.Stages)
	if err := r.compareBaseline(ctx, p); err != nil {
		return ctrl.Result{}, err
	}
	if run.Status.Phase == v1alpha1.BenchmarkPhaseSucceeded {
		recordMetrics(run)
	}
	return ctrl.Result{}, nil
}

func (r *Reconciler) now() time.Time {
	if r.Clock == nil {
		return time.Now()
	}
	return r.Clock.Now()
}

// writeStatus writes the status when the pass changed it. Stage results are kept even
// when the pass failed later on: they record Jobs that exist.
func (r *Reconciler) writeStatus(ctx context.Context, p *runPass, reconcileErr error) (lifecycle.Outcome, error) {
	st := &p.run.Status
	old := p.base.Status
	if reconcileErr == nil {
		st.ObservedGeneration = p.run.Generation
	}
	p.summarize()
	o, err := lifecycle.PatchStatus(ctx, r.Client, p.base, p.run, old, *st)
	if o == lifecycle.Patched {
		recordPhase(p.run)
		r.Events.RecordTransitions(p.run, old.Conditions, st.Conditions, runTransitions)
	}
	return o, err
}

// SetupWithManager watches the run's Jobs, its cluster and the runs it waits for:
// those queued before it on the same cluster and its baseline.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	// A run cares whether its cluster exists and is Ready, nothing else about it.
	clusterReadiness := predicate.Funcs{UpdateFunc: func(e event.UpdateEvent) bool {
		return readyStatus(e.ObjectOld.(*v1alpha1.HadoopCluster).Status.Conditions) !=
			readyStatus(e.ObjectNew.(*v1alpha1.HadoopCluster).Status.Conditions)
	}}
	// Queued runs and runs comparing with a baseline wait for another run to finish.
	runPhase := predicate.Funcs{
		CreateFunc: func(event.CreateEvent) bool { return false },
		UpdateFunc: func(e event.UpdateEvent) bool {
			return e.ObjectOld.(*v1alpha1.BenchmarkRun).Status.Phase != e.ObjectNew.(*v1alpha1.BenchmarkRun).Status.Phase
		},
		GenericFunc: func(event.GenericEvent) bool { return false },
	}
	return ctrl.NewControllerManagedBy(mgr).
		Named("benchmarkrun").
		// One worker: admission relies on a run that one pass started being visible
		// to the passes after it (firstInQueue).
		WithOptions(controller.Options{MaxConcurrentReconciles: 1}).
		For(&v1alpha1.BenchmarkRun{}).
		Owns(&batchv1.Job{}).
		Watches(&v1alpha1.HadoopCluster{}, handler.EnqueueRequestsFromMapFunc(r.byCluster), builder.WithPredicates(clusterReadiness)).
		Watches(&v1alpha1.BenchmarkRun{}, handler.EnqueueRequestsFromMapFunc(r.byOtherRun), builder.WithPredicates(runPhase)).
		Complete(r)
}

func readyStatus(conditions []metav1.Condition) string {
	if c := meta.FindStatusCondition(conditions, v1alpha1.ConditionReady); c != nil {
		return string(c.Status)
	}
	return ""
}

// byCluster maps a HadoopCluster to the runs on it.
func (r *Reconciler) byCluster(ctx context.Context, obj client.Object) []reconcile.Request {
	return r.runsMatching(ctx, obj.GetNamespace(), indexes.BenchmarkClusterRef, obj.GetName(), "")
}

// byOtherRun maps a run whose phase changed to the runs queued on the same cluster
// and the runs using it as their baseline.
func (r *Reconciler) byOtherRun(ctx context.Context, obj client.Object) []reconcile.Request {
	run := obj.(*v1alpha1.BenchmarkRun)
	out := r.runsMatching(ctx, run.Namespace, indexes.BenchmarkClusterRef, run.Spec.ClusterRef.Name, run.Name)
	return append(out, r.runsMatching(ctx, run.Namespace, indexes.BenchmarkBaselineRef, run.Name, run.Name)...)
}

func (r *Reconciler) runsMatching(ctx context.Context, namespace, field, value, except string) []reconcile.Request {
	reqs := indexes.Requests(ctx, r, &v1alpha1.BenchmarkRunList{}, client.InNamespace(namespace), client.MatchingFields{field: value})
	return slices.DeleteFunc(reqs, func(req reconcile.Request) bool { return req.Name == except })
}
