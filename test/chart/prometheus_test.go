package chart

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	promclient "github.com/prometheus/client_golang/prometheus"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
	"sigs.k8s.io/yaml"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	// The operator's controllers, which register its metrics with controller-runtime's
	// registry, the one the manager serves.
	_ "github.com/hadoopceph/hadoop-ceph-operator/controllers"
	"github.com/hadoopceph/hadoop-ceph-operator/test/dashboards"
)

// prometheusRule is the part of a PrometheusRule the chart writes.
type prometheusRule struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              struct {
		Groups []struct {
			Name  string `json:"name"`
			Rules []struct {
				Alert       string            `json:"alert"`
				Expr        string            `json:"expr"`
				For         string            `json:"for"`
				Labels      map[string]string `json:"labels"`
				Annotations map[string]string `json:"annotations"`
			} `json:"rules"`
		} `json:"groups"`
	} `json:"spec"`
}

func TestPrometheusRule(t *testing.T) {
	t.Run("none by default", func(t *testing.T) {
		if r := render(t).all("PrometheusRule"); len(r) != 0 {
			t.Errorf("rendered %s without metrics.prometheusRule.enabled", r)
		}
		_, err := helm(t, templateArgs(chartDir(), "--set", "metrics.prometheusRule.enabled=true", "--set", "metrics.enabled=false")...)
		if err == nil || !strings.Contains(err.Error(), "metrics.prometheusRule.enabled needs metrics.enabled") {
			t.Errorf("rules without metrics: got %v, want a refusal", err)
		}
	})

	ms := render(t, "--set", "metrics.prometheusRule.enabled=true",
		"--set-string", "metrics.prometheusRule.labels.release=prometheus",
		"--set", "metrics.prometheusRule.alerts.hadoopClusterNotReady.for=30m",
		"--set", "metrics.prometheusRule.alerts.storageBackendNotReady.severity=critical")
	rule := get[prometheusRule](t, ms, "PrometheusRule", namespace, fullname)
	if rule.APIVersion != "monitoring.coreos.com/v1" || rule.Labels["release"] != "prometheus" || rule.Labels[appInstance] != release {
		t.Errorf("%s with labels %v, want monitoring.coreos.com/v1 with the chart's labels and release=prometheus", rule.APIVersion, rule.Labels)
	}
	if len(rule.Spec.Groups) != 1 {
		t.Fatalf("%d rule groups, want 1", len(rule.Spec.Groups))
	}

	type alert struct{ selects, forDuration, severity string }
	want := map[string]alert{
		"HadoopCephBenchmarkRunFailed":     {`hadoopceph_benchmarkrun_phase{phase="` + string(v1alpha1.BenchmarkPhaseFailed) + `"} == 1`, "0m", "warning"},
		"HadoopCephStorageBackendNotReady": {"hadoopceph_storagebackend_ready == 0", "10m", "critical"},
		"HadoopCephHadoopClusterNotReady":  {"hadoopceph_hadoopcluster_ready == 0", "30m", "warning"},
	}
	operator, err := dashboards.DescribedMetrics(metrics.Registry.(promclient.Collector))
	if err != nil {
		t.Fatal(err)
	}
	labelRef := regexp.MustCompile(`\$labels\.([a-zA-Z_][a-zA-Z0-9_]*)`)
	var alerts []string
	for _, r := range rule.Spec.Groups[0].Rules {
		alerts = append(alerts, r.Alert)
		w, ok := want[r.Alert]
		if !ok {
			continue
		}
		if !strings.Contains(r.Expr, w.selects) || r.For != w.forDuration || r.Labels["severity"] != w.severity {
			t.Errorf("%s: expr %q for %q severity %q; want one selecting %s, for %s, severity %s", r.Alert, r.Expr, r.For, r.Labels["severity"], w.selects, w.forDuration, w.severity)
		}
		// Scraped through a ServiceMonitor the object's namespace is exported_namespace;
		// the alert names it namespace again.
		if !strings.Contains(r.Expr, `label_replace(`) || !strings.Contains(r.Expr, `"namespace", "$1", "exported_namespace", "(.+)")`) {
			t.Errorf("%s: expr %q does not give the alert the object's namespace", r.Alert, r.Expr)
		}
		used, err := dashboards.ExprMetrics(r.Expr)
		if err != nil || len(used) == 0 {
			t.Errorf("%s: expr %q: %v, metrics %v", r.Alert, r.Expr, err, used)
			continue
		}
		labels := []string{"exported_namespace"}
		for _, name := range used {
			have, ok := operator[name]
			if !ok {
				t.Errorf("%s: the operator does not register %s", r.Alert, name)
			}
			labels = append(labels, have...)
		}
		if r.Annotations["summary"] == "" || r.Annotations["description"] == "" {
			t.Errorf("%s: annotations %v, want a summary and a description", r.Alert, r.Annotations)
		}
		for _, text := range r.Annotations {
			for _, ref := range labelRef.FindAllStringSubmatch(text, -1) {
				if !slices.Contains(labels, ref[1]) {
					t.Errorf("%s: %q names label %s, which %v lack", r.Alert, text, ref[1], used)
				}
			}
		}
	}
	if diff := cmp.Diff([]string{"HadoopCephBenchmarkRunFailed", "HadoopCephHadoopClusterNotReady", "HadoopCephStorageBackendNotReady"}, sortedCopy(alerts)); diff != "" {
		t.Errorf("alerts (-want +got):\n%s", diff)
	}
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// The ServiceMonitor and the PrometheusRule as the API server would take them: valid
// for the Prometheus Operator's CRDs, with no field it would drop.
func TestMonitoringObjectsFitTheirCRDs(t *testing.T) {
	for name, args := range map[string][]string{
		"self-signed": {"--set", "metrics.serviceMonitor.enabled=true", "--set", "metrics.serviceMonitor.interval=30s",
			"--set", "metrics.prometheusRule.enabled=true"},
		"with a CA": {"--set", "metrics.certSecret=operator-metrics-cert", "--set", "metrics.serviceMonitor.enabled=true",
			"--set", "metrics.serviceMonitor.ca.configMap.name=metrics-ca", "--set", "metrics.serviceMonitor.ca.configMap.key=ca.crt"},
		"plain HTTP": {"--set", "metrics.secure=false", "--set", "metrics.serviceMonitor.enabled=true"},
	} {
		t.Run(name, func(t *testing.T) {
			ms := render(t, args...)
			for kind, file := range map[string]string{
				"ServiceMonitor": "monitoring.coreos.com_servicemonitors.yaml",
				"PrometheusRule": "monitoring.coreos.com_prometheusrules.yaml",
			} {
				for _, m := range ms.all(kind) {
					expectValid(t, prometheusOperatorCRD(t, file), m)
				}
			}
		})
	}
}

// prometheusOperatorCRD reads one of the Prometheus Operator's CRDs from the release
// whose PodMonitor CRD the envtest suite installs: PROMETHEUS_CRDS names that file, or
// hack/prometheus-crds.sh finds it as `make envtest-env` does.
func prometheusOperatorCRD(t *testing.T, file string) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	podMonitors := os.Getenv("PROMETHEUS_CRDS")
	if podMonitors == "" {
		out, err := exec.Command(filepath.Join(repoRoot, "hack", "prometheus-crds.sh")).Output()
		if err != nil {
			t.Fatalf("hack/prometheus-crds.sh: %v; set PROMETHEUS_CRDS as `make -s envtest-env` prints it", err)
		}
		podMonitors = strings.TrimSpace(string(out))
	}
	raw, err := os.ReadFile(filepath.Join(filepath.Dir(podMonitors), file))
	if err != nil {
		t.Fatal(err)
	}
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.Unmarshal(raw, crd); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return crd
}

// expectValid validates a manifest against the schema of its version in crd.
func expectValid(t *testing.T, crd *apiextensionsv1.CustomResourceDefinition, m manifest) {
	t.Helper()
	i := slices.IndexFunc(crd.Spec.Versions, func(v apiextensionsv1.CustomResourceDefinitionVersion) bool {
		return crd.Spec.Group+"/"+v.Name == m.APIVersion
	})
	if i < 0 || crd.Spec.Names.Kind != m.Kind {
		t.Fatalf("%s %s is not a kind of %s", m.APIVersion, m.Kind, crd.Name)
	}
	schema := &apiextensions.JSONSchemaProps{}
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(crd.Spec.Versions[i].Schema.OpenAPIV3Schema, schema, nil); err != nil {
		t.Fatal(err)
	}
	validator, _, err := validation.NewSchemaValidator(schema)
	if err != nil {
		t.Fatal(err)
	}
	structural, err := structuralschema.NewStructural(schema)
	if err != nil {
		t.Fatal(err)
	}
	obj := map[string]any{}
	if err := yaml.Unmarshal(m.raw, &obj); err != nil {
		t.Fatal(err)
	}
	for _, e := range validation.ValidateCustomResource(nil, obj, validator) {
		t.Errorf("%s %s: %v", m.Kind, m.Name, e)
	}
	dropped := pruning.PruneWithOptions(obj, structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	for _, path := range dropped {
		t.Errorf("%s %s: the API server would drop unknown field %s", m.Kind, m.Name, path)
	}
}
