package lifecycle

import (
	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// ReadyGauge publishes, for every object of one kind, whether its Ready condition is
// True (1) or not (0), labelled with the object's namespace and name. Alerts watch
// Ready because it summarises the kind's other conditions. An object's series goes
// with the object, so that a deleted object neither alerts nor stays in memory.
//
// The status a gauge shows is the one the API server holds: controllers record it
// from the object a pass read and again once the pass's status patch is in.
type ReadyGauge struct {
	*prometheus.GaugeVec
}

// NewReadyGauge is a ReadyGauge named name; register it with the metrics registry.
func NewReadyGauge(name, help string) ReadyGauge {
	return ReadyGauge{prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, []string{"namespace", "name"})}
}

// Record publishes the Ready condition among the conditions of the object at key. An
// object without one, which no pass has written a status for yet, is not Ready.
func (g ReadyGauge) Record(key client.ObjectKey, conditions []metav1.Condition) {
	ready := 0.0
	if meta.IsStatusConditionTrue(conditions, v1alpha1.ConditionReady) {
		ready = 1
	}
	g.WithLabelValues(key.Namespace, key.Name).Set(ready)
}

// Forget removes the series of the object at key, once the object is gone.
func (g ReadyGauge) Forget(key client.ObjectKey) {
	g.DeleteLabelValues(key.Namespace, key.Name)
}
