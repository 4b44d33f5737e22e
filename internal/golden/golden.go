// Package golden compares the builders' output with files under testdata/, for the
// unit tests of the packages that build Kubernetes objects and Hadoop files.
package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ from the code's output")

// YAML renders obj as YAML without its status: golden files describe what a builder
// asks for, and status belongs to the API server and the controllers.
func YAML(t testing.TB, obj any) []byte {
	t.Helper()
	raw, err := yaml.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := yaml.Unmarshal(raw, &fields); err != nil {
		t.Fatal(err)
	}
	delete(fields, "status")
	out, err := yaml.Marshal(fields)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Assert compares got with testdata/name, or writes it there when the test binary
// runs with -update.
func Assert(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go test <package> -update` to create it)", err)
	}
	if d := firstDifference(string(want), string(got)); d != "" {
		t.Errorf("%s differs at %s\nIf the change is intended, run `go test <package> -update` and review the diff.", path, d)
	}
}

// firstDifference describes the first line where want and got differ, or is "" when
// they are equal.
func firstDifference(want, got string) string {
	if want == got {
		return ""
	}
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl || i >= len(w) || i >= len(g) {
			return fmt.Sprintf("line %d:\n  want: %q\n  got:  %q", i+1, wl, gl)
		}
	}
	return "the end of the file"
}
