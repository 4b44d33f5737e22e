package hadoop

import (
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
)

func TestMetricsSwitchTheEndpointAndThePodMonitor(t *testing.T) {
	for _, tc := range []struct {
		name     string
		enabled  *bool
		override map[string]string
		// key is the value of KeyPrometheusEndpoint in core-site.xml, "" for none.
		key        string
		podMonitor bool
	}{
		{name: "unset, as from a Go client that skipped the default", key: "true", podMonitor: true},
		{name: "enabled", enabled: ptr.To(true), key: "true", podMonitor: true},
		{name: "disabled", enabled: ptr.To(false)},
		{name: "enabled, and switched off in coreSite", enabled: ptr.To(true), override: map[string]string{KeyPrometheusEndpoint: "false"}, key: "false"},
		{name: "enabled, and switched on in coreSite as Hadoop parses it", enabled: ptr.To(true), override: map[string]string{KeyPrometheusEndpoint: " TRUE "}, key: " TRUE ", podMonitor: true},
		{name: "disabled, and switched on in coreSite", enabled: ptr.To(false), override: map[string]string{KeyPrometheusEndpoint: "true"}, key: "true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := replicatedInput(t)
			in.Cluster.Spec.Metrics.Enabled = tc.enabled
			in.Cluster.Spec.Config.CoreSite = tc.override
			objs := build(t, in)

			key, ok := CoreSite(in)[KeyPrometheusEndpoint]
			if key != tc.key || ok != (tc.key != "") {
				t.Errorf("core-site.xml has %s = %q (set: %v), want %q", KeyPrometheusEndpoint, key, ok, tc.key)
			}
			if got := objs.PodMonitor != nil; got != tc.podMonitor {
				t.Errorf("a PodMonitor is built: %v, want %v", got, tc.podMonitor)
			}
		})
	}
}

// podMonitorSelector is the pod selector of a built PodMonitor.
func podMonitorSelector(t *testing.T, pm *unstructured.Unstructured) labels.Selector {
	t.Helper()
	raw, _, err := unstructured.NestedMap(pm.Object, "spec", "selector")
	if err != nil {
		t.Fatal(err)
	}
	ls := &metav1.LabelSelector{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(raw, ls); err != nil {
		t.Fatal(err)
	}
	s, err := metav1.LabelSelectorAsSelector(ls)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestPodMonitorScrapesTheDaemonsOfItsClusterOnly(t *testing.T) {
	in := replicatedInput(t)
	objs := build(t, in)
	selector := podMonitorSelector(t, objs.PodMonitor)

	for _, sts := range []struct {
		name     string
		template map[string]string
		ports    []string
	}{
		{"ResourceManager", objs.ResourceManager.Spec.Template.Labels, portNames(objs.ResourceManager.Spec.Template.Spec.Containers[0].Ports)},
		{"NodeManager", objs.NodeManagers.Spec.Template.Labels, portNames(objs.NodeManagers.Spec.Template.Spec.Containers[0].Ports)},
		{"JobHistory", objs.JobHistory.Spec.Template.Labels, portNames(objs.JobHistory.Spec.Template.Spec.Containers[0].Ports)},
	} {
		if !selector.Matches(labels.Set(sts.template)) {
			t.Errorf("the PodMonitor's selector %s misses the %s pods %v", selector, sts.name, sts.template)
		}
		if !slices.Contains(sts.ports, metricsPort) {
			t.Errorf("the %s container has no port %q for the PodMonitor to scrape: %v", sts.name, metricsPort, sts.ports)
		}
	}

	other := in.Cluster.DeepCopy()
	other.Name = "reporting"
	for name, l := range map[string]map[string]string{
		"a benchmark stage's pod":       Labels(in.Cluster, Client),
		"another cluster's NodeManager": SelectorLabels(other, NodeManager),
	} {
		if selector.Matches(labels.Set(l)) {
			t.Errorf("the PodMonitor's selector %s matches %s: %v", selector, name, l)
		}
	}
}

func TestPodMonitorLabels(t *testing.T) {
	in := replicatedInput(t)
	// Labels the API would refuse, to show that the operator's win.
	in.Cluster.Spec.Metrics.PodMonitor.Labels = v1alpha1.Labels{
		"release":     "prometheus",
		LabelMetrics:  "mine",
		LabelInstance: "someone-else",
	}
	got := build(t, in).PodMonitor.GetLabels()
	want := map[string]string{
		"release":             "prometheus",
		LabelMetrics:          MetricsHadoop,
		LabelName:             AppName,
		LabelInstance:         "analytics",
		naming.LabelManagedBy: naming.ManagedBy,
	}
	if len(got) != len(want) {
		t.Fatalf("labels = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("label %s = %q, want %q", k, got[k], v)
		}
	}
}

func TestPodLabelMeta(t *testing.T) {
	for key, want := range map[string]string{
		LabelInstance:  "__meta_kubernetes_pod_label_app_kubernetes_io_instance",
		LabelComponent: "__meta_kubernetes_pod_label_app_kubernetes_io_component",
		"team":         "__meta_kubernetes_pod_label_team",
	} {
		if got := podLabelMeta(key); got != want {
			t.Errorf("podLabelMeta(%q) = %q, want %q", key, got, want)
		}
	}
}

func portNames(ports []corev1.ContainerPort) []string {
	var out []string
	for _, p := range ports {
		out = append(out, p.Name)
	}
	return out
}
