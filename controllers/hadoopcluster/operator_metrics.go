package hadoopcluster

import (
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
)

// The operator's own metrics about HadoopClusters, served on its /metrics; metrics.go
// is about the clusters' Hadoop metrics and their PodMonitors.

// readiness is what alerts watch: a cluster that is not Ready runs no jobs, or fewer
// than it should.
var readiness = lifecycle.NewReadyGauge("hadoopceph_hadoopcluster_ready",
	"Whether the HadoopCluster's Ready condition is True (1) or not (0).")

func init() {
	metrics.Registry.MustRegister(readiness)
}

// recordReadiness publishes hc's Ready condition.
func recordReadiness(hc *v1alpha1.HadoopCluster) {
	readiness.Record(client.ObjectKeyFromObject(hc), hc.Status.Conditions)
}

// forgetReadiness removes the series of a deleted cluster.
func forgetReadiness(key client.ObjectKey) {
	readiness.Forget(key)
}
