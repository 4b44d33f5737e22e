package storagebackend

import (
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
)

// readiness is what alerts watch: a backend that is not Ready gives its HadoopClusters
// no storage to start on.
var readiness = lifecycle.NewReadyGauge("hadoopceph_storagebackend_ready",
	"Whether the StorageBackend's Ready condition is True (1) or not (0).")

func init() {
	metrics.Registry.MustRegister(readiness)
}

// recordReadiness publishes sb's Ready condition.
func recordReadiness(sb *v1alpha1.StorageBackend) {
	readiness.Record(client.ObjectKeyFromObject(sb), sb.Status.Conditions)
}

// forgetReadiness removes the series of a deleted backend.
func forgetReadiness(key client.ObjectKey) {
	readiness.Forget(key)
}
