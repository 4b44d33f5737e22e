package hadoop

import (
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// PodMonitorGVK is the Prometheus Operator's PodMonitor. The operator builds it as an
// unstructured object: it sets a handful of fields, and the Prometheus Operator's Go
// module would bring its own dependency tree for them.
var PodMonitorGVK = schema.GroupVersionKind{Group: "monitoring.coreos.com", Version: "v1", Kind: "PodMonitor"}

// Every PodMonitor of the operator carries LabelMetrics: MetricsHadoop, so that one
// Prometheus, whose podMonitorSelector matches that label, scrapes every HadoopCluster
// of every namespace it watches.
const (
	LabelMetrics  = "hadoopceph.io/metrics"
	MetricsHadoop = "hadoop"
)

// MetricsPath is where Hadoop's web server (HttpServer2) serves the Prometheus
// endpoint that KeyPrometheusEndpoint turns on.
const MetricsPath = "/prom"

// metricsPort is the container port every daemon serves its web UI on, and with it
// MetricsPath: each role's port list (ports.go) names its web port so.
const metricsPort = "http"

// Labels the PodMonitor's relabelings put on every series of a cluster's daemons, so
// that dashboards can group one Prometheus' series by namespace, cluster and role.
const (
	SeriesLabelNamespace = "namespace"
	SeriesLabelCluster   = "hadoop_cluster"
	// SeriesLabelComponent holds the Component: resourcemanager, nodemanager or
	// jobhistory.
	SeriesLabelComponent = "component"
)

// scrapedComponents are the daemons with a web server. The list does not follow
// spec.jobHistory.enabled, so switching the JobHistory server off leaves the
// PodMonitor as it is.
var scrapedComponents = []any{string(ResourceManager), string(NodeManager), string(JobHistory)}

// PodMonitor asks the Prometheus Operator to scrape MetricsPath on the web port of the
// cluster's ResourceManager, NodeManagers and JobHistory server. It is nil when the
// daemons do not serve metrics: spec.metrics.enabled is false, or config.coreSite
// switches the endpoint off, and a PodMonitor would only count failed scrapes.
//
// The selector leaves out the benchmark stages' pods, which carry the cluster's
// labels with component client and serve nothing.
func PodMonitor(in Input) *unstructured.Unstructured {
	if !ServesMetrics(in) {
		return nil
	}
	hc := in.Cluster
	spec := hc.Spec.Metrics.PodMonitor

	// The API refuses the operator's prefixes in the user's labels; were one there,
	// the operator's value would still win.
	labels := map[string]any{}
	for k, v := range spec.Labels {
		labels[k] = string(v)
	}
	for k, v := range clusterLabels(hc) {
		labels[k] = v
	}
	labels[LabelMetrics] = MetricsHadoop

	endpoint := map[string]any{
		"port": metricsPort,
		"path": MetricsPath,
		// The Prometheus Operator adds a namespace label of its own; stating it here
		// keeps the dashboards' grouping independent of that default.
		"relabelings": []any{
			relabelTo(SeriesLabelNamespace, "__meta_kubernetes_namespace"),
			relabelTo(SeriesLabelCluster, podLabelMeta(LabelInstance)),
			relabelTo(SeriesLabelComponent, podLabelMeta(LabelComponent)),
		},
	}
	if spec.Interval != "" {
		endpoint["interval"] = spec.Interval
	}

	u := &unstructured.Unstructured{Object: map[string]any{
		"metadata": map[string]any{
			"name":      PodMonitorName(hc),
			"namespace": hc.Namespace,
			"labels":    labels,
		},
		"spec": map[string]any{
			// Without a namespaceSelector a PodMonitor selects pods of its own
			// namespace only, which is the cluster's.
			"selector": map[string]any{
				"matchLabels": map[string]any{LabelName: AppName, LabelInstance: hc.Name},
				"matchExpressions": []any{map[string]any{
					"key":      LabelComponent,
					"operator": "In",
					"values":   scrapedComponents,
				}},
			},
			"podMetricsEndpoints": []any{endpoint},
		},
	}}
	u.SetGroupVersionKind(PodMonitorGVK)
	return u
}

// ServesMetrics reports whether the cluster's daemons serve the Prometheus endpoint:
// spec.metrics.enabled, unless config.coreSite sets KeyPrometheusEndpoint otherwise.
// Hadoop reads the key as a boolean, ignoring case and surrounding space.
func ServesMetrics(in Input) bool {
	return in.metricsEnabled() && strings.EqualFold(strings.TrimSpace(CoreSite(in)[KeyPrometheusEndpoint]), "true")
}

// relabelTo copies a target's metadata label to a label of every series scraped from
// it.
func relabelTo(target, source string) map[string]any {
	return map[string]any{
		"action":       "replace",
		"sourceLabels": []any{source},
		"targetLabel":  target,
	}
}

var notInLabelName = regexp.MustCompile(`[^a-zA-Z0-9_]`)

// podLabelMeta is the metadata label under which Prometheus' Kubernetes discovery
// shows a pod label: its name with every character Prometheus does not allow in a
// label name replaced by '_'.
func podLabelMeta(key string) string {
	return "__meta_kubernetes_pod_label_" + notInLabelName.ReplaceAllString(key, "_")
}
