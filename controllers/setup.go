// Package controllers holds the reconcilers. They stay thin: fetch, call the pure
// builders, apply, and write status.
package controllers

import (
	ctrl "sigs.k8s.io/controller-runtime"
)

// Options configures every reconciler of the operator.
type Options struct {
	// RookNamespace is used when a StorageBackend names no Rook namespace.
	RookNamespace string
}

// SetupWithManager registers every reconciler and the field indexes they share.
func SetupWithManager(mgr ctrl.Manager, opts Options) error {
	return nil
}
