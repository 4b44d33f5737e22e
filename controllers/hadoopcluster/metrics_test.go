package hadoopcluster

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/optionalapi"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// The reconciler has no client here: touching the API server would panic.
func TestMetricsWithoutThePrometheusOperator(t *testing.T) {
	hc := &v1alpha1.HadoopCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "analytics", Name: "metered", Generation: 1}}
	p := newClusterPass(hc)
	p.built = &hadoop.Objects{PodMonitor: hadoop.PodMonitor(hadoop.Input{Cluster: hc})}
	if p.built.PodMonitor == nil {
		t.Fatal("a cluster with the defaults builds no PodMonitor")
	}
	r := &Reconciler{APIs: optionalapi.Served{PodMonitors: false}}
	if err := r.reconcileMetrics(context.Background(), p); err != nil {
		t.Fatalf("reconcileMetrics: %v, want nothing done and no error", err)
	}
	if len(hc.Status.Conditions) > 0 || p.podMonitorApplied {
		t.Errorf("conditions %v, PodMonitor applied %v: want neither, so Ready does not depend on Prometheus", hc.Status.Conditions, p.podMonitorApplied)
	}
}

func TestMetricsLeaveThePodMonitorWhenNothingWasBuilt(t *testing.T) {
	hc := &v1alpha1.HadoopCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "analytics", Name: "waiting", Generation: 1}}
	r := &Reconciler{APIs: optionalapi.Served{PodMonitors: true}}
	if err := r.reconcileMetrics(context.Background(), newClusterPass(hc)); err != nil {
		t.Fatalf("reconcileMetrics: %v, want nothing done and no error", err)
	}
}

func TestMetricsOffBecause(t *testing.T) {
	off := false
	hc := &v1alpha1.HadoopCluster{}
	hc.Spec.Metrics.Enabled = &off
	if got, want := metricsOffBecause(hc), "spec.metrics.enabled is false"; got != want {
		t.Errorf("metricsOffBecause = %q, want %q", got, want)
	}
	hc.Spec.Metrics.Enabled = nil
	hc.Spec.Config.CoreSite = map[string]string{hadoop.KeyPrometheusEndpoint: "no"}
	if got, want := metricsOffBecause(hc), `spec.config.coreSite sets hadoop.prometheus.endpoint.enabled to "no": the daemons serve no metrics to scrape`; got != want {
		t.Errorf("metricsOffBecause = %q, want %q", got, want)
	}
}
