package report

import "github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"

// runLabels name the runs in tables, legends and messages: by name when they share a
// namespace, else as namespace/name, since runs of one name in two namespaces (one
// team's nightly against another's) would otherwise read as one run.
func runLabels(runs []v1alpha1.BenchmarkRun) []string {
	labels := make([]string, len(runs))
	qualify := false
	for i := range runs {
		if runs[i].Namespace != runs[0].Namespace {
			qualify = true
		}
	}
	for i := range runs {
		labels[i] = runs[i].Name
		if qualify {
			labels[i] = runs[i].Namespace + "/" + runs[i].Name
		}
	}
	return labels
}
