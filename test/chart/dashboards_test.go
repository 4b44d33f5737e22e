package chart

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
)

// dashboardFiles are the dashboards the chart ships, by ConfigMap data key.
func dashboardFiles(t *testing.T) map[string]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(chartDir(), "files", "dashboards", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no dashboards in files/dashboards: %v", err)
	}
	files := map[string]string{}
	for _, p := range paths {
		files[filepath.Base(p)] = string(readFile(t, "charts", "hadoop-ceph-operator", "files", "dashboards", filepath.Base(p)))
	}
	return files
}

func dashboardConfigMaps(ms manifests) manifests {
	var out manifests
	for _, m := range ms.all("ConfigMap") {
		if strings.HasPrefix(m.Name, fullname+"-dashboard-") {
			out = append(out, m)
		}
	}
	return out
}

func TestDashboards(t *testing.T) {
	t.Run("none by default", func(t *testing.T) {
		if cms := dashboardConfigMaps(render(t)); len(cms) != 0 {
			t.Errorf("rendered %s without dashboards.enabled", cms)
		}
	})

	t.Run("one ConfigMap per dashboard for Grafana's sidecar", func(t *testing.T) {
		files := dashboardFiles(t)
		ms := render(t, "--set", "dashboards.enabled=true")
		if cms := dashboardConfigMaps(ms); len(cms) != len(files) {
			t.Fatalf("rendered %s, want one ConfigMap for each of the %d dashboards", cms, len(files))
		}
		cm := get[corev1.ConfigMap](t, ms, "ConfigMap", namespace, fullname+"-dashboard-yarn")
		if cm.Labels["grafana_dashboard"] != "1" || cm.Labels[appInstance] != release || cm.Labels["app.kubernetes.io/component"] != "dashboard" {
			t.Errorf("labels %v, want grafana_dashboard=1, the chart's labels and component dashboard", cm.Labels)
		}
		if len(cm.Annotations) != 0 {
			t.Errorf("annotations %v without dashboards.annotations", cm.Annotations)
		}
		for file, want := range map[string][2]string{
			"yarn.json":     {"hadoopceph-yarn", "Hadoop on Ceph / YARN"},
			"operator.json": {"hadoopceph-operator", "Hadoop on Ceph / Operator"},
		} {
			name := strings.TrimSuffix(file, ".json")
			data := get[corev1.ConfigMap](t, ms, "ConfigMap", namespace, fullname+"-dashboard-"+name).Data[file]
			// Byte for byte: the sidecar writes the value to a file Grafana provisions.
			if diff := cmp.Diff(files[file], data); diff != "" {
				t.Errorf("%s differs from files/dashboards/%s (-file +ConfigMap):\n%s", file, file, diff)
			}
			var d struct {
				UID   string `json:"uid"`
				Title string `json:"title"`
			}
			if err := json.Unmarshal([]byte(data), &d); err != nil {
				t.Fatalf("%s is not JSON: %v", file, err)
			}
			if d.UID != want[0] || d.Title != want[1] {
				t.Errorf("%s: uid %q, title %q; want %s, %s", file, d.UID, d.Title, want[0], want[1])
			}
		}
	})

	t.Run("namespace, labels and annotations", func(t *testing.T) {
		ms := render(t, "--set", "dashboards.enabled=true",
			"--set", "dashboards.namespace=monitoring",
			"--set", "dashboards.labels.grafana_dashboard=null",
			"--set-string", "dashboards.labels.team=platform",
			"--set-string", `dashboards.annotations.k8s-sidecar-target-directory=Hadoop on Ceph`)
		cm := get[corev1.ConfigMap](t, ms, "ConfigMap", "monitoring", fullname+"-dashboard-yarn")
		if _, ok := cm.Labels["grafana_dashboard"]; ok || cm.Labels["team"] != "platform" {
			t.Errorf("labels %v, want team=platform and no grafana_dashboard", cm.Labels)
		}
		if diff := cmp.Diff(map[string]string{"k8s-sidecar-target-directory": "Hadoop on Ceph"}, cm.Annotations); diff != "" {
			t.Errorf("annotations (-want +got):\n%s", diff)
		}
	})

	// kubectl apply and GitOps tools that apply client-side keep the whole object in
	// the last-applied-configuration annotation, which holds at most 256 KiB.
	t.Run("small enough to apply client-side", func(t *testing.T) {
		for name, content := range dashboardFiles(t) {
			if len(content) > 200*1024 {
				t.Errorf("%s has %d bytes; a ConfigMap holding it may not apply client-side", name, len(content))
			}
		}
	})
}
