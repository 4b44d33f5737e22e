// Package controllers holds the reconcilers. They stay thin: fetch, call the pure
// builders, apply, and write status.
package controllers

import (
	"context"
	"fmt"
	"slices"

	"github.com/hadoopceph/hadoop-ceph-operator/controllers/benchmarkrun"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/hadoopcluster"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/indexes"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/optionalapi"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/storagebackend"

	batchv1 "k8s.io/api/batch/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hdfs"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
)

// Options configures every reconciler of the operator.
type Options struct {
	// RookNamespace is used when a StorageBackend names no Rook namespace.
	RookNamespace string
	// HadoopImage is the image of HadoopClusters that name none.
	HadoopImage string
	// WatchNamespaces are the namespaces the manager's cache is limited to; empty
	// means all. Caches the reconcilers create for themselves follow it.
	WatchNamespaces []string
	// RookNamespaces are further Rook namespaces that StorageBackends name, cached
	// together with WatchNamespaces.
	RookNamespaces []string
	// OperatorPeer selects the operator's own pods for the clusters' NetworkPolicies,
	// so that it can read the ResourceManagers' REST API; nil when it runs outside
	// the cluster.
	OperatorPeer *networkingv1.NetworkPolicyPeer
	// YARN reads the clusters' YARN applications for the progress of benchmark
	// stages; nil means each cluster's ResourceManager Service.
	YARN benchmarkrun.YARNApplications
	// YARNNodes reads the ResourceManagers' node lists and asks the NodeManagers how
	// they registered; nil means their REST APIs, at their Services and pod addresses.
	YARNNodes hadoopcluster.YARNNodes
	// NameNodes asks HDFS backends' NameNodes for their state; nil means their web
	// servers, at the addresses the backends name.
	NameNodes storagebackend.NameNodeAsker
}

// CacheOptions are the options of the manager's cache. Of the Jobs it holds only the
// operator's stage Jobs: the only Jobs a reconciler reads, while a cache of every
// Job in the cluster would grow with other people's batch work.
func CacheOptions(opts Options) (cache.Options, error) {
	jobs, err := operatorJobSelector()
	if err != nil {
		return cache.Options{}, err
	}
	co := cache.Options{
		// No controller reads managed fields, and they are often the larger part of
		// a cached object's metadata.
		DefaultTransform: cache.TransformStripManagedFields(),
		ByObject:         map[client.Object]cache.ByObject{&batchv1.Job{}: {Label: jobs}},
	}
	if len(opts.WatchNamespaces) > 0 {
		// The Rook namespaces must stay visible even when users' namespaces are
		// limited: the operator reads CephClusters, mon endpoints and client Secrets
		// there.
		co.DefaultNamespaces = map[string]cache.Config{opts.RookNamespace: {}}
		for _, ns := range slices.Concat(opts.WatchNamespaces, opts.RookNamespaces) {
			co.DefaultNamespaces[ns] = cache.Config{}
		}
	}
	return co, nil
}

// operatorJobSelector selects the Jobs the operator makes, which carry its managed-by
// label: BenchmarkRun stages, the session eviction Jobs of HadoopClusters, and the
// Jobs of StorageBackends, which set a file system's flags or empty a deleted
// backend's root.
func operatorJobSelector() (labels.Selector, error) {
	managed, err := labels.NewRequirement(naming.LabelManagedBy, selection.Equals, []string{naming.ManagedBy})
	if err != nil {
		return nil, err
	}
	return labels.NewSelector().Add(*managed), nil
}

// ErrOptionalAPIInstalled is what the manager stops with when Rook, Multus or the
// Prometheus Operator was installed after it started (see optionalapi.Watcher).
var ErrOptionalAPIInstalled = optionalapi.ErrInstalled

// The manager's HTTPS /metrics endpoint (cmd/main.go) asks the API server whose bearer
// token a scrape carries, and whether that user may get /metrics.
// +kubebuilder:rbac:groups=authentication.k8s.io,resources=tokenreviews,verbs=create
// +kubebuilder:rbac:groups=authorization.k8s.io,resources=subjectaccessreviews,verbs=create

// SetupWithManager registers every reconciler and the field indexes they share.
func SetupWithManager(mgr ctrl.Manager, opts Options) error {
	if err := indexes.Setup(context.Background(), mgr.GetFieldIndexer(), opts.RookNamespace); err != nil {
		return fmt.Errorf("registering field indexes: %w", err)
	}
	// Looked up once for every controller: each sets up its watches from the same answer.
	apis, err := optionalapi.Lookup(mgr.GetRESTMapper())
	if err != nil {
		return fmt.Errorf("looking up the optional APIs: %w", err)
	}
	nameNodes := opts.NameNodes
	if nameNodes == nil {
		nameNodes = hdfs.NewNameNodeClient()
	}
	sb := &storagebackend.Reconciler{
		Client:        mgr.GetClient(),
		APIReader:     mgr.GetAPIReader(),
		Scheme:        mgr.GetScheme(),
		Events:        lifecycle.Events{Recorder: mgr.GetEventRecorder("storagebackend-controller")},
		RookNamespace: opts.RookNamespace,
		HadoopImage:   opts.HadoopImage,
		APIs:          apis,
		NameNodes:     nameNodes,
		MDSNamespaces: rookNamespaces(opts),
	}
	if err := sb.SetupWithManager(mgr); err != nil {
		return fmt.Errorf("setting up the StorageBackend controller: %w", err)
	}
	hc := &hadoopcluster.Reconciler{
		Client:          mgr.GetClient(),
		APIReader:       mgr.GetAPIReader(),
		Scheme:          mgr.GetScheme(),
		Events:          lifecycle.Events{Recorder: mgr.GetEventRecorder("hadoopcluster-controller")},
		RookNamespace:   opts.RookNamespace,
		HadoopImage:     opts.HadoopImage,
		WatchNamespaces: opts.WatchNamespaces,
		OperatorPeer:    opts.OperatorPeer,
		YARN:            opts.YARNNodes,
		APIs:            apis,
	}
	if err := hc.SetupWithManager(mgr); err != nil {
		return fmt.Errorf("setting up the HadoopCluster controller: %w", err)
	}
	yarnApps := opts.YARN
	if yarnApps == nil {
		yarnApps = benchmarkrun.NewResourceManagers(hadoop.ResourceManagerWebURL, clock.RealClock{})
	}
	br := &benchmarkrun.Reconciler{
		Client:        mgr.GetClient(),
		APIReader:     mgr.GetAPIReader(),
		Scheme:        mgr.GetScheme(),
		Events:        lifecycle.Events{Recorder: mgr.GetEventRecorder("benchmarkrun-controller")},
		RookNamespace: opts.RookNamespace,
		HadoopImage:   opts.HadoopImage,
		APIs:          apis,
		YARN:          yarnApps,
	}
	if err := br.SetupWithManager(mgr); err != nil {
		return fmt.Errorf("setting up the BenchmarkRun controller: %w", err)
	}
	if err := optionalapi.AddWatcher(mgr, apis); err != nil {
		return fmt.Errorf("watching for the optional APIs: %w", err)
	}
	return nil
}

// rookNamespaces are the namespaces of Rook's daemons the operator watches: every
// namespace when its cache is not limited, else the Rook namespaces it was given.
func rookNamespaces(opts Options) []string {
	if len(opts.WatchNamespaces) == 0 {
		return nil
	}
	return slices.Compact(slices.Sorted(slices.Values(append([]string{opts.RookNamespace}, opts.RookNamespaces...))))
}
