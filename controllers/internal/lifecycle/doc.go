// Package lifecycle is what the operator's three controllers share of a reconcile
// pass's life: conditions set during the pass, Ready summarised from a kind's own
// conditions, the status patch at the end (conditional on the version the pass read),
// events for condition changes recorded only once that patch is in, the paused check,
// the gauge of Ready that alerts watch, and the optional APIs (Rook, Multus, the
// Prometheus Operator) looked up once when the controllers are set up.
// It knows no kind: each controller passes its own object and conditions.
package lifecycle
