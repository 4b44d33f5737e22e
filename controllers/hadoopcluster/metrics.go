package hadoopcluster

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// reconcileMetrics applies the cluster's PodMonitor, or deletes it once the daemons
// serve no metrics. It sets no condition, so Ready never depends on it: Prometheus
// watches the cluster, and YARN runs whether or not it is scraped. What becomes of the
// PodMonitor is told in events instead, and a failed request fails the pass, which is
// retried.
//
// Without the Prometheus Operator's API there is nothing to do: the cluster's daemons
// still serve /prom for any other Prometheus, and installing the Prometheus Operator
// restarts the operator (optionalapi.Watcher). Without storage, or with a
// spec it cannot build, the pass changes nothing, the PodMonitor included.
func (r *Reconciler) reconcileMetrics(ctx context.Context, p *clusterPass) error {
	if !r.APIs.PodMonitors || p.built == nil {
		return nil
	}
	desired := p.built.PodMonitor
	if desired == nil {
		return r.removePodMonitor(ctx, p)
	}

	outcome, err := r.applyChild(ctx, p, desired)
	if err != nil {
		r.Events.Record(p.hc, nil, corev1.EventTypeWarning, v1alpha1.ReasonReconcileError, "Apply",
			err.Error()+"; Prometheus does not scrape the cluster's daemons until the operator's retries succeed")
		return err
	}
	switch outcome {
	case childApplied:
		p.podMonitorApplied = true
	case childConflict:
		r.Events.Record(p.hc, nil, corev1.EventTypeWarning, v1alpha1.ReasonChildConflict, "Apply",
			r.describe(desired)+" already exists and is not controlled by this HadoopCluster; it is left untouched, and Prometheus does not scrape the cluster through it: delete it, or give the cluster another name")
	}
	return nil
}

// removePodMonitor deletes the PodMonitor of a cluster whose daemons serve no metrics,
// so that Prometheus does not count failed scrapes.
func (r *Reconciler) removePodMonitor(ctx context.Context, p *clusterPass) error {
	pm := &metav1.PartialObjectMetadata{
		TypeMeta:   metav1.TypeMeta{APIVersion: hadoop.PodMonitorGVK.GroupVersion().String(), Kind: hadoop.PodMonitorGVK.Kind},
		ObjectMeta: metav1.ObjectMeta{Namespace: p.hc.Namespace, Name: hadoop.PodMonitorName(p.hc)},
	}
	return r.removeChildren(ctx, p, metricsOffBecause(p.hc), pm)
}

// metricsOffBecause says why a cluster's daemons serve no metrics.
func metricsOffBecause(hc *v1alpha1.HadoopCluster) string {
	if e := hc.Spec.Metrics.Enabled; e != nil && !*e {
		return "spec.metrics.enabled is false"
	}
	return fmt.Sprintf("spec.config.coreSite sets %s to %q: the daemons serve no metrics to scrape",
		hadoop.KeyPrometheusEndpoint, hc.Spec.Config.CoreSite[hadoop.KeyPrometheusEndpoint])
}
