// Package controllers holds the reconcilers. They stay thin: fetch, call the pure
// builders, apply, and write status.
package controllers

import (
	"context"
	"fmt"

	ctrl "sigs.k8s.io/controller-runtime"
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
}

// SetupWithManager registers every reconciler and the field indexes they share.
func SetupWithManager(mgr ctrl.Manager, opts Options) error {
	if err := setupIndexes(context.Background(), mgr.GetFieldIndexer(), opts.RookNamespace); err != nil {
		return fmt.Errorf("registering field indexes: %w", err)
	}
	sb := &StorageBackendReconciler{
		Client:        mgr.GetClient(),
		APIReader:     mgr.GetAPIReader(),
		Scheme:        mgr.GetScheme(),
		Recorder:      mgr.GetEventRecorder("storagebackend-controller"),
		RookNamespace: opts.RookNamespace,
	}
	if err := sb.SetupWithManager(mgr); err != nil {
		return fmt.Errorf("setting up the StorageBackend controller: %w", err)
	}
	hc := &HadoopClusterReconciler{
		Client:          mgr.GetClient(),
		Scheme:          mgr.GetScheme(),
		Recorder:        mgr.GetEventRecorder("hadoopcluster-controller"),
		RookNamespace:   opts.RookNamespace,
		HadoopImage:     opts.HadoopImage,
		WatchNamespaces: opts.WatchNamespaces,
	}
	if err := hc.SetupWithManager(mgr); err != nil {
		return fmt.Errorf("setting up the HadoopCluster controller: %w", err)
	}
	br := &BenchmarkRunReconciler{
		Client:        mgr.GetClient(),
		APIReader:     mgr.GetAPIReader(),
		Scheme:        mgr.GetScheme(),
		Recorder:      mgr.GetEventRecorder("benchmarkrun-controller"),
		RookNamespace: opts.RookNamespace,
		HadoopImage:   opts.HadoopImage,
	}
	if err := br.SetupWithManager(mgr); err != nil {
		return fmt.Errorf("setting up the BenchmarkRun controller: %w", err)
	}
	return nil
}
