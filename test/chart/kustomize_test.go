package chart

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// config/default installs what the chart does as this release in this namespace, the
// ones docs/install.md installs it as, so that a name in the docs holds for either.
const (
	kustomizeRelease   = "hadoop-ceph-operator"
	kustomizeNamespace = "hadoop-ceph-operator"
)

var (
	// What Helm writes on every object and a kustomize install has no counterpart of.
	helmOnlyLabels = []string{"helm.sh/chart", "app.kubernetes.io/managed-by", "app.kubernetes.io/version"}
	// helm uninstall keeps the CRDs (crds.keep); kubectl delete -k deletes what it
	// applied, as a user of it expects.
	helmOnlyAnnotations = []string{"helm.sh/resource-policy"}
)

// The kustomize manifests are a second way to install the same operator, not a second
// operator: every object the chart renders with its default values, config/default
// renders too, with the same spec, rules, bindings and labels: the manager's flags,
// probes, security context, tolerations and resources, and its ClusterRole's rules. A
// change to either that leaves the other behind fails here.
func TestKustomizeMatchesChart(t *testing.T) {
	out, err := helm(t, "template", kustomizeRelease, chartDir(), "--namespace", kustomizeNamespace)
	if err != nil {
		t.Fatalf("helm template: %v", err)
	}
	chart := decode(t, out)
	if chart.find("Deployment", kustomizeNamespace, kustomizeRelease) == nil {
		t.Fatalf("the chart renders no Deployment %s/%s: %s", kustomizeNamespace, kustomizeRelease, chart)
	}
	var kustomized manifests
	for _, m := range kustomize(t, filepath.Join(repoRoot, "config", "default")) {
		// Helm leaves creating the namespace to --create-namespace; config/default
		// makes it, to label it for the restricted Pod Security Standard.
		if m.Kind == "Namespace" {
			ns := decodeAs[corev1.Namespace](t, m)
			if ns.Name != kustomizeNamespace || ns.Labels["pod-security.kubernetes.io/enforce"] != "restricted" {
				t.Errorf("config/default makes Namespace %s labelled %v, want %s enforcing the restricted Pod Security Standard", ns.Name, ns.Labels, kustomizeNamespace)
			}
			continue
		}
		kustomized = append(kustomized, m)
	}

	if diff := cmp.Diff(objectKeys(chart), objectKeys(kustomized)); diff != "" {
		t.Errorf("objects (-chart +config/default):\n%s", diff)
	}
	for _, k := range kustomized {
		c := chart.find(k.Kind, k.Namespace, k.Name)
		if c == nil {
			continue
		}
		if diff := cmp.Diff(withoutHelmMetadata(t, *c), withoutHelmMetadata(t, k)); diff != "" {
			t.Errorf("%s %s/%s (-chart +config/default); change both, or say in config/default/kustomization.yaml why they differ:\n%s",
				k.Kind, k.Namespace, k.Name, diff)
		}
	}
}

// kustomize builds a kustomization with the kubectl of $KUBECTL, as `kubectl apply -k`
// would. A missing kubectl fails the test, as a missing helm does.
func kustomize(t *testing.T, dir string) manifests {
	t.Helper()
	bin := os.Getenv("KUBECTL")
	if bin == "" {
		t.Fatal("KUBECTL must name the kubectl binary: run `make test-chart`, or set KUBECTL=$HOME/.cache/hadoop-ceph-operator/k8s/<KUBERNETES_VERSION>/kubectl after `hack/tools/envtest-assets.sh kubectl`")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("KUBECTL=%s: %v; build it with `hack/tools/envtest-assets.sh kubectl`", bin, err)
	}
	var out, errOut bytes.Buffer
	cmd := exec.Command(bin, "kustomize", dir)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("kubectl kustomize %s: %v: %s", dir, err, strings.TrimSpace(errOut.String()))
	}
	return decode(t, out.String())
}

// objectKeys names each object by kind, namespace and name, sorted.
func objectKeys(ms manifests) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.Kind+" "+m.Namespace+"/"+m.Name)
	}
	slices.Sort(out)
	return out
}

// withoutHelmMetadata is the object as a map, without Helm's own labels and
// annotations.
func withoutHelmMetadata(t *testing.T, m manifest) map[string]any {
	t.Helper()
	u := unstructured.Unstructured{}
	if err := yaml.Unmarshal(m.raw, &u.Object); err != nil {
		t.Fatalf("%s %s/%s: %v", m.Kind, m.Namespace, m.Name, err)
	}
	labels, annotations := u.GetLabels(), u.GetAnnotations()
	for _, k := range helmOnlyLabels {
		delete(labels, k)
	}
	for _, k := range helmOnlyAnnotations {
		delete(annotations, k)
	}
	if len(labels) == 0 {
		labels = nil
	}
	if len(annotations) == 0 {
		annotations = nil
	}
	u.SetLabels(labels)
	u.SetAnnotations(annotations)
	return u.Object
}
