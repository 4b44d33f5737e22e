// Package chart tests the Helm chart in charts/hadoop-ceph-operator by rendering it with
// the helm binary named by $HELM and reading the result as Kubernetes objects, and
// compares it with the kustomize manifests in config/default, which the kubectl named by
// $KUBECTL builds.
package chart

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/repo"
)

const (
	release   = "hco"
	namespace = "hco-system"
	// fullname is what the chart names its objects for release hco.
	fullname = "hco-hadoop-ceph-operator"
)

// repoRoot is the repository's root directory, wherever go test runs from.
var repoRoot = func() string {
	root, err := repo.Root()
	if err != nil {
		panic(err)
	}
	return root
}()

func chartDir() string { return filepath.Join(repoRoot, "charts", "hadoop-ceph-operator") }

// helm runs the helm binary of $HELM. A missing helm fails the test rather than
// skipping it, so that a run without helm cannot pass for a tested chart.
func helm(t *testing.T, args ...string) (stdout string, err error) {
	t.Helper()
	bin := os.Getenv("HELM")
	if bin == "" {
		t.Fatal("HELM must name the helm binary: run `make test-chart`, or set HELM=$HOME/.cache/hadoop-ceph-operator/bin/helm after `hack/tools/install.sh helm`")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("HELM=%s: %v; build it with `hack/tools/install.sh helm`", bin, err)
	}
	var out, errOut bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return out.String(), errors.New(strings.TrimSpace(errOut.String()))
	}
	return out.String(), nil
}

// render runs helm template on the chart with the given extra arguments and fails the
// test if helm refuses them.
func render(t *testing.T, args ...string) manifests {
	t.Helper()
	out, err := helm(t, templateArgs(chartDir(), args...)...)
	if err != nil {
		t.Fatalf("helm template %s: %v", strings.Join(args, " "), err)
	}
	return decode(t, out)
}

func templateArgs(chart string, args ...string) []string {
	return append([]string{"template", release, chart, "--namespace", namespace}, args...)
}

// manifests are the rendered objects, each kept as the YAML helm printed.
type manifests []manifest

type manifest struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	raw []byte
}

func decode(t *testing.T, out string) manifests {
	t.Helper()
	var ms manifests
	reader := utilyaml.NewYAMLReader(bufio.NewReader(strings.NewReader(out)))
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return ms
		}
		if err != nil {
			t.Fatalf("reading helm's output: %v", err)
		}
		var head struct {
			metav1.TypeMeta   `json:",inline"`
			metav1.ObjectMeta `json:"metadata"`
		}
		if err := yaml.Unmarshal(doc, &head); err != nil {
			t.Fatalf("decoding %s: %v", doc, err)
		}
		if head.Kind == "" {
			continue
		}
		ms = append(ms, manifest{TypeMeta: head.TypeMeta, ObjectMeta: head.ObjectMeta, raw: doc})
	}
}

// all returns the manifests of one kind.
func (ms manifests) all(kind string) manifests {
	var out manifests
	for _, m := range ms {
		if m.Kind == kind {
			out = append(out, m)
		}
	}
	return out
}

// find returns the manifest of a kind, namespace and name, or nil.
func (ms manifests) find(kind, namespace, name string) *manifest {
	for i, m := range ms {
		if m.Kind == kind && m.Namespace == namespace && m.Name == name {
			return &ms[i]
		}
	}
	return nil
}

// get decodes the manifest of a kind, namespace and name into a typed object, strictly:
// a field the API does not know fails the test, as the API server would refuse it.
func get[T any](t *testing.T, ms manifests, kind, namespace, name string) *T {
	t.Helper()
	m := ms.find(kind, namespace, name)
	if m == nil {
		t.Fatalf("no %s %s/%s rendered; rendered: %s", kind, namespace, name, ms)
	}
	return decodeAs[T](t, *m)
}

func decodeAs[T any](t *testing.T, m manifest) *T {
	t.Helper()
	obj := new(T)
	if err := yaml.UnmarshalStrict(m.raw, obj); err != nil {
		t.Fatalf("%s %s/%s: %v\n%s", m.Kind, m.Namespace, m.Name, err, m.raw)
	}
	return obj
}

// names returns the manifests' names, sorted.
func (ms manifests) names() []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.Name)
	}
	slices.Sort(out)
	return out
}

func (ms manifests) String() string {
	names := make([]string, 0, len(ms))
	for _, m := range ms {
		names = append(names, m.Kind+" "+m.Namespace+"/"+m.Name)
	}
	return strings.Join(names, ", ")
}

// readFile reads a file of the repository.
func readFile(t *testing.T, path ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(append([]string{repoRoot}, path...)...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
