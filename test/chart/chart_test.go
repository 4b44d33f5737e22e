package chart

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"
)

const watchedValues = "testdata/watched-values.yaml"

func TestLint(t *testing.T) {
	for name, args := range map[string][]string{
		"default values":     nil,
		"watched namespaces": {"--values", watchedValues},
		"dashboards":         {"--set", "dashboards.enabled=true"},
		"monitoring with a certificate": {
			"--set", "metrics.certSecret=operator-metrics-cert", "--set", "metrics.serviceMonitor.enabled=true",
			"--set", "metrics.serviceMonitor.ca.secret.name=operator-metrics-cert", "--set", "metrics.serviceMonitor.ca.secret.key=ca.crt",
			"--set", "metrics.prometheusRule.enabled=true",
		},
	} {
		t.Run(name, func(t *testing.T) {
			if out, err := helm(t, append([]string{"lint", "--strict", chartDir()}, args...)...); err != nil {
				t.Fatalf("helm lint --strict: %v\n%s", err, out)
			}
		})
	}
}

// The chart installs the CRDs config/crd/bases holds, as templates, so helm upgrade
// updates them, kept on uninstall: a chart whose copies went stale after an API change
// fails here.
func TestCRDsAreTheGeneratedOnes(t *testing.T) {
	bases, err := filepath.Glob(filepath.Join(repoRoot, "config", "crd", "bases", "*.yaml"))
	if err != nil || len(bases) == 0 {
		t.Fatalf("no generated CRDs in config/crd/bases: %v", err)
	}
	copies, err := filepath.Glob(filepath.Join(chartDir(), "files", "crds", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(baseNames(bases), baseNames(copies)); diff != "" {
		t.Errorf("charts/hadoop-ceph-operator/files/crds/ holds other files than config/crd/bases/ (-generated +chart); run hack/sync-chart.sh:\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(chartDir(), "crds")); err == nil {
		t.Error("the chart has a crds/ folder, which helm upgrade never updates")
	}
	out, err := helm(t, templateArgs(chartDir())...)
	if err != nil {
		t.Fatalf("helm template: %v", err)
	}
	rendered := decode(t, out).all("CustomResourceDefinition")
	if len(rendered) != len(bases) {
		t.Errorf("rendered %d CustomResourceDefinitions, want the %d of config/crd/bases: %s", len(rendered), len(bases), rendered)
	}
	for _, base := range bases {
		raw, err := os.ReadFile(base)
		if err != nil {
			t.Fatal(err)
		}
		generated := decodeAs[apiextensionsv1.CustomResourceDefinition](t, decode(t, string(raw))[0])
		m := rendered.find("CustomResourceDefinition", "", generated.Name)
		if m == nil {
			t.Errorf("the chart does not render %s", generated.Name)
			continue
		}
		crd := decodeAs[apiextensionsv1.CustomResourceDefinition](t, *m)
		if diff := cmp.Diff(generated.Spec, crd.Spec); diff != "" {
			t.Errorf("%s differs from config/crd/bases (-generated +rendered); run hack/sync-chart.sh:\n%s", generated.Name, diff)
		}
		if crd.Annotations["helm.sh/resource-policy"] != "keep" {
			t.Errorf("%s lacks helm.sh/resource-policy: keep, so helm uninstall would delete every object of its kind", crd.Name)
		}
		if crd.Labels["app.kubernetes.io/managed-by"] != "Helm" {
			t.Errorf("%s labels %v lack the release's", crd.Name, crd.Labels)
		}
	}
}

func TestCRDValues(t *testing.T) {
	out, err := helm(t, templateArgs(chartDir(), "--set", "crds.install=false")...)
	if err != nil {
		t.Fatal(err)
	}
	if crds := decode(t, out).all("CustomResourceDefinition"); len(crds) != 0 {
		t.Errorf("crds.install=false rendered %d CustomResourceDefinitions", len(crds))
	}
	out, err = helm(t, templateArgs(chartDir(), "--set", "crds.keep=false")...)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range decode(t, out).all("CustomResourceDefinition") {
		if _, kept := m.Annotations["helm.sh/resource-policy"]; kept {
			t.Errorf("crds.keep=false still keeps %s", m.Name)
		}
	}
}

func baseNames(paths []string) []string {
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = filepath.Base(p)
	}
	return names
}

func TestDeploymentArgs(t *testing.T) {
	defaultHadoopImage := chartValues(t)["hadoopImage"].(string)
	cases := []struct {
		name    string
		args    []string
		want    []string
		missing []string
	}{{
		name: "defaults",
		want: []string{
			"--health-probe-bind-address=:8081", "--metrics-bind-address=:8080", "--metrics-secure=true", "--leader-elect",
			"--rook-namespace=rook-ceph", "--hadoop-image=" + defaultHadoopImage,
			"--operator-namespace=" + namespace,
			"--operator-pod-selector=app.kubernetes.io/name=hadoop-ceph-operator,app.kubernetes.io/instance=" + release,
		},
		missing: []string{"--watch-namespaces", "--rook-namespaces", "--metrics-cert-dir"},
	}, {
		name: "watched namespaces, two replicas without leaderElection.enabled",
		args: []string{"--values", watchedValues},
		want: []string{
			"--leader-elect", "--watch-namespaces=team-a,team-b", "--rook-namespace=rook-ceph",
			"--rook-namespaces=rook-archive", "--hadoop-image=registry.example.com/hadoop:3.4.2-site",
			"--zap-log-level=debug",
		},
	}, {
		name:    "one replica without leader election",
		args:    []string{"--set", "leaderElection.enabled=false"},
		missing: []string{"--leader-elect"},
	}, {
		name:    "no default Hadoop image",
		args:    []string{"--set", "hadoopImage="},
		missing: []string{"--hadoop-image"},
	}, {
		name:    "metrics off",
		args:    []string{"--set", "metrics.enabled=false"},
		want:    []string{"--metrics-bind-address=0"},
		missing: []string{"--metrics-bind-address=:", "--metrics-secure"},
	}, {
		name: "plain HTTP metrics",
		args: []string{"--set", "metrics.secure=false"},
		want: []string{"--metrics-bind-address=:8080", "--metrics-secure=false"},
	}, {
		name: "a metrics certificate",
		args: []string{"--set", "metrics.certSecret=operator-metrics-cert"},
		want: []string{"--metrics-secure=true", "--metrics-cert-dir=/etc/hadoop-ceph-operator/metrics-cert"},
	}, {
		name: "other ports",
		args: []string{"--set", "metrics.port=9443", "--set", "healthProbe.port=9444"},
		want: []string{"--metrics-bind-address=:9443", "--health-probe-bind-address=:9444"},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := manager(t, render(t, c.args...)).Args
			for _, want := range c.want {
				if !slices.Contains(args, want) {
					t.Errorf("args %q lack %s", args, want)
				}
			}
			for _, prefix := range c.missing {
				if i := slices.IndexFunc(args, func(a string) bool { return strings.HasPrefix(a, prefix) }); i >= 0 {
					t.Errorf("args %q have %s", args, args[i])
				}
			}
		})
	}
}

// The leader election Role exists exactly when the manager elects a leader.
func TestLeaderElectionRole(t *testing.T) {
	for name, c := range map[string]struct {
		args []string
		want bool
	}{
		"default":                {want: true},
		"disabled, one replica":  {args: []string{"--set", "leaderElection.enabled=false"}},
		"disabled, two replicas": {args: []string{"--set", "leaderElection.enabled=false", "--set", "replicaCount=2"}, want: true},
	} {
		t.Run(name, func(t *testing.T) {
			ms := render(t, c.args...)
			elects := slices.Contains(manager(t, ms).Args, "--leader-elect")
			role := ms.find("Role", namespace, fullname+"-leader-election") != nil
			binding := ms.find("RoleBinding", namespace, fullname+"-leader-election") != nil
			if elects != c.want || role != c.want || binding != c.want {
				t.Errorf("--leader-elect %v, Role %v, RoleBinding %v; want all %v", elects, role, binding, c.want)
			}
		})
	}
}

func TestRestrictedSecurityContext(t *testing.T) {
	for name, args := range map[string][]string{
		"defaults":           nil,
		"watched namespaces": {"--values", watchedValues},
		"host network":       {"--set", "hostNetwork=true"},
	} {
		t.Run(name, func(t *testing.T) {
			pod := deployment(t, render(t, args...)).Spec.Template.Spec
			if diff := cmp.Diff(&corev1.PodSecurityContext{
				RunAsNonRoot:   ptr.To(true),
				SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
			}, pod.SecurityContext); diff != "" {
				t.Errorf("pod security context (-want +got):\n%s", diff)
			}
			for _, c := range slices.Concat(pod.InitContainers, pod.Containers) {
				if diff := cmp.Diff(&corev1.SecurityContext{
					AllowPrivilegeEscalation: ptr.To(false),
					ReadOnlyRootFilesystem:   ptr.To(true),
					Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
				}, c.SecurityContext); diff != "" {
					t.Errorf("container %s security context (-want +got):\n%s", c.Name, diff)
				}
			}
		})
	}
}

func TestProbes(t *testing.T) {
	c := manager(t, render(t, "--set", "healthProbe.port=9444"))
	port := slices.IndexFunc(c.Ports, func(p corev1.ContainerPort) bool { return p.Name == "probes" })
	if port < 0 || c.Ports[port].ContainerPort != 9444 {
		t.Fatalf("ports %+v lack probes: 9444", c.Ports)
	}
	for path, probe := range map[string]*corev1.Probe{"/healthz": c.LivenessProbe, "/readyz": c.ReadinessProbe} {
		if probe == nil || probe.HTTPGet == nil || probe.HTTPGet.Path != path || probe.HTTPGet.Port != intstr.FromString("probes") {
			t.Errorf("want an HTTP probe of %s on port probes, got %+v", path, probe)
		}
	}
}

func TestDeploymentValues(t *testing.T) {
	ms := render(t, "--values", watchedValues)
	d := deployment(t, ms)
	pod := d.Spec.Template.Spec
	c := manager(t, ms)
	checks := map[string][2]any{
		"replicas":           {ptr.To[int32](2), d.Spec.Replicas},
		"image":              {"registry.example.com/hadoop-ceph-operator:1.2.3", c.Image},
		"imagePullPolicy":    {corev1.PullAlways, c.ImagePullPolicy},
		"imagePullSecrets":   {[]corev1.LocalObjectReference{{Name: "registry-credentials"}}, pod.ImagePullSecrets},
		"serviceAccountName": {"hco", pod.ServiceAccountName},
		"priorityClassName":  {"system-cluster-critical", pod.PriorityClassName},
		"nodeSelector":       {map[string]string{"node-role.kubernetes.io/control-plane": ""}, pod.NodeSelector},
		"tolerations": {[]corev1.Toleration{{
			Key: "node-role.kubernetes.io/control-plane", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule,
		}}, pod.Tolerations},
		"podAnnotations":  {"platform", d.Spec.Template.Annotations["example.com/team"]},
		"affinity":        {"kubernetes.io/os", pod.Affinity.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].Preference.MatchExpressions[0].Key},
		"pod labels":      {d.Spec.Selector.MatchLabels[appInstance], d.Spec.Template.Labels[appInstance]},
		"selector":        {release, d.Spec.Selector.MatchLabels[appInstance]},
		"hostNetwork":     {false, pod.HostNetwork},
		"dnsPolicy":       {corev1.DNSPolicy(""), pod.DNSPolicy},
		"resource limits": {"256Mi", c.Resources.Limits.Memory().String()},
	}
	for name, c := range checks {
		if diff := cmp.Diff(c[0], c[1]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
	sa := get[corev1.ServiceAccount](t, ms, "ServiceAccount", namespace, "hco")
	if sa.Annotations["example.com/owner"] != "platform" {
		t.Errorf("ServiceAccount annotations %v lack serviceAccount.annotations", sa.Annotations)
	}

	if sa := render(t, "--set", "serviceAccount.create=false", "--set", "serviceAccount.name=existing").all("ServiceAccount"); len(sa) != 0 {
		t.Errorf("serviceAccount.create=false rendered %s", sa)
	}
	if _, err := helm(t, templateArgs(chartDir(), "--set", "serviceAccount.create=false")...); err == nil || !strings.Contains(err.Error(), "serviceAccount.name") {
		t.Errorf("serviceAccount.create=false without a name: got %v, want an error naming serviceAccount.name", err)
	}
}

const appInstance = "app.kubernetes.io/instance"

// A single-node cluster whose API server listens on the host's loopback runs the
// manager on the host network and points it at the API server by environment.
func TestHostNetwork(t *testing.T) {
	ms := render(t, "--set", "hostNetwork=true",
		"--set", "extraEnv[0].name=KUBERNETES_SERVICE_HOST", "--set-string", "extraEnv[0].value=127.0.0.1",
		"--set", "extraEnv[1].name=KUBERNETES_SERVICE_PORT", "--set-string", "extraEnv[1].value=6443")
	d := deployment(t, ms)
	pod := d.Spec.Template.Spec
	if !pod.HostNetwork || pod.DNSPolicy != corev1.DNSClusterFirstWithHostNet {
		t.Errorf("hostNetwork %v, dnsPolicy %q; want true, ClusterFirstWithHostNet", pod.HostNetwork, pod.DNSPolicy)
	}
	// A surge pod would wait forever for the host ports the old pod holds.
	if d.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
		t.Errorf("strategy %q, want Recreate", d.Spec.Strategy.Type)
	}
	if s := deployment(t, render(t)).Spec.Strategy.Type; s != "" {
		t.Errorf("strategy without hostNetwork %q, want the default rolling update", s)
	}
	want := []corev1.EnvVar{{Name: "KUBERNETES_SERVICE_HOST", Value: "127.0.0.1"}, {Name: "KUBERNETES_SERVICE_PORT", Value: "6443"}}
	if diff := cmp.Diff(want, manager(t, ms).Env); diff != "" {
		t.Errorf("env (-want +got):\n%s", diff)
	}
}

func TestMetrics(t *testing.T) {
	t.Run("Service, no ServiceMonitor by default", func(t *testing.T) {
		ms := render(t)
		svc := get[corev1.Service](t, ms, "Service", namespace, fullname+"-metrics")
		if len(svc.Spec.Ports) != 1 || svc.Spec.Ports[0].Port != 8080 || svc.Spec.Ports[0].TargetPort != intstr.FromString("metrics") {
			t.Errorf("metrics Service ports %+v, want 8080 to the metrics port", svc.Spec.Ports)
		}
		pod := deployment(t, ms).Spec.Template
		for k, v := range svc.Spec.Selector {
			if pod.Labels[k] != v {
				t.Errorf("metrics Service selects %s=%s, which the manager pod lacks: %v", k, v, pod.Labels)
			}
		}
		if sm := ms.all("ServiceMonitor"); len(sm) != 0 {
			t.Errorf("rendered %s without metrics.serviceMonitor.enabled", sm)
		}
	})
	t.Run("ServiceMonitor when enabled", func(t *testing.T) {
		ms := render(t, "--values", watchedValues)
		sm := get[unstructured.Unstructured](t, ms, "ServiceMonitor", namespace, fullname)
		if sm.GetAPIVersion() != "monitoring.coreos.com/v1" || sm.GetLabels()["release"] != "prometheus" {
			t.Errorf("ServiceMonitor %s with labels %v, want monitoring.coreos.com/v1 with release=prometheus", sm.GetAPIVersion(), sm.GetLabels())
		}
		endpoints, _, _ := unstructured.NestedSlice(sm.Object, "spec", "endpoints")
		want := []any{map[string]any{
			"port": "metrics", "path": "/metrics", "interval": "30s", "scheme": "https",
			"bearerTokenFile": "/var/run/secrets/kubernetes.io/serviceaccount/token",
			"tlsConfig":       map[string]any{"insecureSkipVerify": true},
		}}
		if diff := cmp.Diff(want, endpoints); diff != "" {
			t.Errorf("endpoints (-want +got):\n%s", diff)
		}
		selector, _, _ := unstructured.NestedStringMap(sm.Object, "spec", "selector", "matchLabels")
		svc := get[corev1.Service](t, ms, "Service", namespace, fullname+"-metrics")
		for k, v := range selector {
			if svc.Labels[k] != v {
				t.Errorf("ServiceMonitor selects %s=%s, which the metrics Service lacks: %v", k, v, svc.Labels)
			}
		}
	})
	t.Run("HTTPS with a certificate Prometheus checks", func(t *testing.T) {
		ms := render(t, "--set", "metrics.certSecret=operator-metrics-cert", "--set", "metrics.serviceMonitor.enabled=true",
			"--set", "metrics.serviceMonitor.ca.secret.name=operator-metrics-cert", "--set", "metrics.serviceMonitor.ca.secret.key=ca.crt")
		pod := deployment(t, ms).Spec.Template.Spec
		wantVolumes := []corev1.Volume{{Name: "metrics-cert", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "operator-metrics-cert"}}}}
		if diff := cmp.Diff(wantVolumes, pod.Volumes); diff != "" {
			t.Errorf("volumes (-want +got):\n%s", diff)
		}
		wantMounts := []corev1.VolumeMount{{Name: "metrics-cert", MountPath: "/etc/hadoop-ceph-operator/metrics-cert", ReadOnly: true}}
		if diff := cmp.Diff(wantMounts, manager(t, ms).VolumeMounts); diff != "" {
			t.Errorf("volume mounts (-want +got):\n%s", diff)
		}
		sm := get[unstructured.Unstructured](t, ms, "ServiceMonitor", namespace, fullname)
		endpoints, _, _ := unstructured.NestedSlice(sm.Object, "spec", "endpoints")
		want := map[string]any{
			"ca":         map[string]any{"secret": map[string]any{"name": "operator-metrics-cert", "key": "ca.crt"}},
			"serverName": fullname + "-metrics." + namespace + ".svc",
		}
		if diff := cmp.Diff(want, endpoints[0].(map[string]any)["tlsConfig"]); diff != "" {
			t.Errorf("tlsConfig (-want +got):\n%s", diff)
		}
		_, err := helm(t, templateArgs(chartDir(), "--set", "metrics.certSecret=operator-metrics-cert", "--set", "metrics.secure=false")...)
		if err == nil || !strings.Contains(err.Error(), "metrics.certSecret needs metrics.secure") {
			t.Errorf("a certificate for plain HTTP: got %v, want a refusal", err)
		}
	})
	t.Run("plain HTTP for anyone", func(t *testing.T) {
		ms := render(t, "--set", "metrics.secure=false", "--set", "metrics.serviceMonitor.enabled=true")
		sm := get[unstructured.Unstructured](t, ms, "ServiceMonitor", namespace, fullname)
		endpoints, _, _ := unstructured.NestedSlice(sm.Object, "spec", "endpoints")
		if diff := cmp.Diff([]any{map[string]any{"port": "metrics", "path": "/metrics"}}, endpoints); diff != "" {
			t.Errorf("endpoints (-want +got):\n%s", diff)
		}
		if r := ms.find("ClusterRole", "", fullname+"-metrics-reader"); r != nil {
			t.Error("a metrics reader ClusterRole for an endpoint that reads no token")
		}
	})
	t.Run("a ClusterRole for scrapers", func(t *testing.T) {
		role := get[rbacv1.ClusterRole](t, render(t), "ClusterRole", "", fullname+"-metrics-reader")
		if diff := cmp.Diff([]rbacv1.PolicyRule{{NonResourceURLs: []string{"/metrics"}, Verbs: []string{"get"}}}, role.Rules); diff != "" {
			t.Errorf("rules (-want +got):\n%s", diff)
		}
	})
	t.Run("nothing when disabled", func(t *testing.T) {
		ms := render(t, "--set", "metrics.enabled=false")
		if svc := ms.all("Service"); len(svc) != 0 {
			t.Errorf("rendered %s with metrics.enabled=false", svc)
		}
		if r := ms.find("ClusterRole", "", fullname+"-metrics-reader"); r != nil {
			t.Error("rendered a metrics reader ClusterRole with metrics.enabled=false")
		}
		if slices.ContainsFunc(manager(t, ms).Ports, func(p corev1.ContainerPort) bool { return p.Name == "metrics" }) {
			t.Error("the manager exposes a metrics port with metrics.enabled=false")
		}
		_, err := helm(t, templateArgs(chartDir(), "--set", "metrics.enabled=false", "--set", "metrics.serviceMonitor.enabled=true")...)
		if err == nil || !strings.Contains(err.Error(), "metrics.serviceMonitor.enabled needs metrics.enabled") {
			t.Errorf("a ServiceMonitor without metrics: got %v, want a refusal", err)
		}
	})
}

// A misspelt or mistyped value fails the install with a message naming it, instead of
// being ignored.
func TestSchemaRefusesBadValues(t *testing.T) {
	for name, c := range map[string]struct {
		set  []string
		want string
	}{
		"unknown top-level key":  {[]string{"--set", "watchNamespace={team-a}"}, "'watchNamespace' not allowed"},
		"unknown nested key":     {[]string{"--set", "metrics.serviceMonitor.enable=true"}, "at '/metrics/serviceMonitor': additional properties 'enable' not allowed"},
		"wrong type":             {[]string{"--set", "replicaCount=two"}, "at '/replicaCount': got string, want integer"},
		"boolean as string":      {[]string{"--set-string", "hostNetwork=true"}, "at '/hostNetwork': got string, want boolean"},
		"pull policy":            {[]string{"--set", "image.pullPolicy=Sometimes"}, "at '/image/pullPolicy': value must be one of"},
		"namespace name":         {[]string{"--set", "watchNamespaces={Team_A}"}, "at '/watchNamespaces/0'"},
		"repeated namespace":     {[]string{"--set", "watchNamespaces={a,a}"}, "at '/watchNamespaces'"},
		"empty Rook namespace":   {[]string{"--set", "rookNamespace="}, "at '/rookNamespace'"},
		"env var field":          {[]string{"--set", "extraEnv[0].name=A", "--set", "extraEnv[0].vaule=b"}, "at '/extraEnv/0': additional properties 'vaule' not allowed"},
		"argument without flag":  {[]string{"--set", "extraArgs={debug}"}, "at '/extraArgs/0'"},
		"port out of range":      {[]string{"--set", "metrics.port=70000"}, "at '/metrics/port'"},
		"scrape interval":        {[]string{"--set", "metrics.serviceMonitor.interval=30"}, "at '/metrics/serviceMonitor/interval'"},
		"resources field":        {[]string{"--set", "resources.limit.memory=1Gi"}, "at '/resources': additional properties 'limit' not allowed"},
		"leader election object": {[]string{"--set", "leaderElection=true"}, "at '/leaderElection': got boolean, want object"},
		"dashboard label number": {[]string{"--set", "dashboards.labels.grafana_dashboard=1"}, "at '/dashboards/labels/grafana_dashboard': got number, want string"},
		"dashboards namespace":   {[]string{"--set", "dashboards.namespace=Monitoring"}, "at '/dashboards/namespace'"},
		"unknown dashboards key": {[]string{"--set", "dashboards.folder=Hadoop"}, "at '/dashboards': additional properties 'folder' not allowed"},
		"secure as string":       {[]string{"--set-string", "metrics.secure=true"}, "at '/metrics/secure': got string, want boolean"},
		"certificate Secret":     {[]string{"--set", "metrics.certSecret=Metrics_Cert"}, "at '/metrics/certSecret'"},
		"CA in two places": {[]string{"--set", "metrics.serviceMonitor.ca.secret.name=a", "--set", "metrics.serviceMonitor.ca.secret.key=ca.crt",
			"--set", "metrics.serviceMonitor.ca.configMap.name=b", "--set", "metrics.serviceMonitor.ca.configMap.key=ca.crt"}, "at '/metrics/serviceMonitor/ca'"},
		"CA without key":    {[]string{"--set", "metrics.serviceMonitor.ca.secret.name=a"}, "at '/metrics/serviceMonitor/ca/secret'"},
		"alert duration":    {[]string{"--set", "metrics.prometheusRule.alerts.hadoopClusterNotReady.for=10 minutes"}, "at '/metrics/prometheusRule/alerts/hadoopClusterNotReady/for'"},
		"unknown alert":     {[]string{"--set", "metrics.prometheusRule.alerts.clusterDown.for=5m"}, "at '/metrics/prometheusRule/alerts': additional properties 'clusterDown' not allowed"},
		"rule label number": {[]string{"--set", "metrics.prometheusRule.labels.release=1"}, "at '/metrics/prometheusRule/labels/release': got number, want string"},
	} {
		t.Run(name, func(t *testing.T) {
			for _, cmd := range []string{"template", "lint"} {
				args := templateArgs(chartDir(), c.set...)
				if cmd == "lint" {
					args = append([]string{"lint", "--strict", chartDir()}, c.set...)
				}
				out, err := helm(t, args...)
				msg := out
				if err != nil {
					msg += err.Error()
				}
				if err == nil || !strings.Contains(msg, c.want) {
					t.Errorf("helm %s %s: got error %v, want one containing %q", cmd, strings.Join(c.set, " "), err, c.want)
				}
			}
		})
	}
}

// The values the local cluster installs the chart with pass its schema and give the
// manager the images of hack/images/images.env in the cluster's registry, by digest
// (as hack/local/up.sh names them and hack/local/install-operator.sh splits them), and
// otherwise the chart's defaults: the pod network, IfNotPresent, and the API server
// where Kubernetes says it is (no address of its own).
func TestLocalClusterValues(t *testing.T) {
	const (
		registry = "10.118.0.1:5000/"
		digest   = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	)
	images := imagesEnv(t)
	operator := registry + strings.TrimPrefix(images["OPERATOR_IMAGE"], "localhost/")
	hadoop := registry + strings.TrimPrefix(images["HADOOP_IMAGE"], "localhost/") + "@" + digest
	ms := render(t, "--values", filepath.Join(repoRoot, "hack", "local", "operator-values.yaml"),
		"--set-string", "image.repository="+imageRepository(operator),
		"--set-string", "image.tag="+imageTag(operator)+"@"+digest,
		"--set-string", "hadoopImage="+hadoop)
	d := deployment(t, ms)
	c := manager(t, ms)
	if want := operator + "@" + digest; c.Image != want || c.ImagePullPolicy != corev1.PullIfNotPresent {
		t.Errorf("image %s pulled %s, want %s, IfNotPresent", c.Image, c.ImagePullPolicy, want)
	}
	if !slices.Contains(c.Args, "--hadoop-image="+hadoop) {
		t.Errorf("args %q lack the registry's Hadoop image", c.Args)
	}
	if d.Spec.Template.Spec.HostNetwork {
		t.Error("the manager is on the host network, want the pod network")
	}
	if slices.ContainsFunc(c.Env, func(e corev1.EnvVar) bool { return e.Name == "KUBERNETES_SERVICE_HOST" }) {
		t.Errorf("env %+v overrides KUBERNETES_SERVICE_HOST", c.Env)
	}
}

func TestNotes(t *testing.T) {
	for name, c := range map[string]struct {
		args        []string
		want, avoid []string
	}{
		"defaults": {
			want: []string{"in every namespace", "StorageBackend", "HadoopCluster", "BenchmarkRun", "kubectl get -n <namespace> storagebackends,hadoopclusters,benchmarkruns", "rollout status deployment/" + fullname,
				"Metrics: https://" + fullname + "-metrics." + namespace + ".svc:8080/metrics", "ClusterRole " + fullname + "-metrics-reader"},
			// The project has no public address: NOTES point at paths of its repository.
			avoid: []string{"WARNING", "github.com"},
		},
		"no Hadoop image": {
			args: []string{"--set", "hadoopImage="},
			want: []string{"WARNING: hadoopImage is empty", "InvalidSpec"},
		},
		"watched namespaces": {
			args: []string{"--values", watchedValues},
			want: []string{"in: team-a, team-b.", "Rook's objects in: rook-ceph, rook-archive."},
		},
		"plain HTTP metrics": {
			args:  []string{"--set", "metrics.secure=false"},
			want:  []string{"Metrics: http://" + fullname + "-metrics." + namespace + ".svc:8080/metrics"},
			avoid: []string{"metrics-reader"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			notes := renderNotes(t, c.args...)
			for _, want := range c.want {
				if !strings.Contains(notes, want) {
					t.Errorf("NOTES lack %q:\n%s", want, notes)
				}
			}
			for _, avoid := range c.avoid {
				if strings.Contains(notes, avoid) {
					t.Errorf("NOTES contain %q:\n%s", avoid, notes)
				}
			}
		})
	}
}

// renderNotes renders NOTES.txt, which helm template leaves out: a copy of the chart
// renders it into a ConfigMap through tpl, with the chart's own helpers.
func renderNotes(t *testing.T, args ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "hadoop-ceph-operator")
	if err := os.CopyFS(dir, os.DirFS(chartDir())); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(dir, "templates", "NOTES.txt")
	if err := os.Rename(notes, filepath.Join(dir, "files", "NOTES.txt")); err != nil {
		t.Fatal(err)
	}
	const probe = `apiVersion: v1
kind: ConfigMap
metadata:
  name: notes
data:
  notes: {{ tpl (.Files.Get "files/NOTES.txt") . | toJson }}
`
	if err := os.WriteFile(filepath.Join(dir, "templates", "notes.yaml"), []byte(probe), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := helm(t, templateArgs(dir, append(args, "--show-only", "templates/notes.yaml")...)...)
	if err != nil {
		t.Fatalf("rendering NOTES.txt: %v", err)
	}
	return decodeAs[corev1.ConfigMap](t, decode(t, out)[0]).Data["notes"]
}

func chartValues(t *testing.T) map[string]any {
	t.Helper()
	values := map[string]any{}
	if err := yaml.Unmarshal(readFile(t, "charts", "hadoop-ceph-operator", "values.yaml"), &values); err != nil {
		t.Fatal(err)
	}
	return values
}

func deployment(t *testing.T, ms manifests) *appsv1.Deployment {
	t.Helper()
	if d := ms.all("Deployment"); len(d) != 1 {
		t.Fatalf("want one Deployment, rendered %s", d)
	}
	return get[appsv1.Deployment](t, ms, "Deployment", namespace, fullname)
}

func manager(t *testing.T, ms manifests) corev1.Container {
	t.Helper()
	pod := deployment(t, ms).Spec.Template.Spec
	if len(pod.Containers) != 1 || pod.Containers[0].Name != "manager" {
		t.Fatalf("want one container named manager, got %+v", pod.Containers)
	}
	return pod.Containers[0]
}

// By default the manager's pod leaves a lost node after 30 s, not Kubernetes' 300: it
// is what fences that node's pods.
func TestDefaultTolerations(t *testing.T) {
	pod := deployment(t, render(t)).Spec.Template.Spec
	want := []corev1.Toleration{
		{Key: corev1.TaintNodeUnreachable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr.To[int64](30)},
		{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr.To[int64](30)},
	}
	if diff := cmp.Diff(want, pod.Tolerations); diff != "" {
		t.Errorf("tolerations (-want +got):\n%s", diff)
	}
}
