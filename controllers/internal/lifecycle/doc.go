// Package lifecycle is what the operator's three controllers share of a reconcile
// pass's life: conditions set during the pass, Ready summarised from a kind's own
// conditions, the status patch at the end (conditional on the version the pass read),
// events for condition changes recorded only once that patch is in, the paused check,
// and the gauge of Ready that alerts watch.
// It knows no kind: each controller passes its own object and conditions.
//
// Every kind's Reconcile runs in one order: read the object (a missing one drops its
// gauge), update the gauge, then spec.paused (Paused: a paused object is neither
// changed nor let go, even while it is being deleted), then the finalizer of a kind
// that has one, then the pass, whose phases handle a deletion, with Pass.Finish
// deferred to write the status and set the result.
package lifecycle
