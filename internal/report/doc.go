// Package report lines up finished BenchmarkRuns of one workload side by side, the
// first as the reference, and renders the comparison for people: an aligned text
// table for a terminal, Markdown and an HTML page for documents, and bar charts of
// stage times and throughputs as SVG and PNG.
//
// It is pure: callers fetch the runs (the kubectl plugin's compare and report
// commands do) and pass them in, so every figure can be tested from fixtures. The
// figures are the operator's own: medians from status.summary, throughput text as
// the operator formats it, ratios rounded as status.baseline rounds them, and the
// same comparability rules as a run's baseline, so that a report never disagrees
// with kubectl get.
package report
