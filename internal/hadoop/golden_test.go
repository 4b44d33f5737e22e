package hadoop

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ from the builders' output")

// goldenCases are the clusters of testdata/<name>/cluster.yaml with the storage and
// defaults the controller would resolve for them.
var goldenCases = []struct {
	name     string
	storage  Storage
	defaults Defaults
}{
	{
		name: "replicated",
		storage: Storage{
			Filesystem:         "hadoopfs",
			RootPath:           "/volumes/hadoop",
			ClientID:           "hadoop-data-cephfs-replicated",
			ClientConfigSecret: "cephfs-replicated-ceph-client",
			ClientConfigHash:   "3f2a9c1d5e7b8a60",
			RookNamespace:      "rook-ceph",
		},
		defaults: Defaults{Image: "registry.example.com/hadoopceph/hadoop:3.4.2"},
	},
	{
		name: "erasure-coded-rdma",
		storage: Storage{
			Filesystem:         "hadoopfs-ec",
			RootPath:           "/volumes/hadoop",
			ClientID:           "hadoop-bench-cephfs-ec",
			ClientConfigSecret: "cephfs-ec-ceph-client",
			ClientConfigHash:   "9b1e04c7d2a5f318",
			RookNamespace:      "rook-ceph",
			PublicNetwork:      &v1alpha1.NetworkAttachment{Name: "public-net", Namespace: "rook-ceph"},
		},
		defaults: Defaults{Image: "registry.example.com/hadoopceph/hadoop:3.4.2"},
	},
	{
		name: "external-hostnetwork",
		storage: Storage{
			Filesystem:         "cephfs",
			RootPath:           "/hadoop",
			ClientID:           "hadoop",
			ClientConfigSecret: "ceph-external-ceph-client",
			ClientConfigHash:   "c0ffee0123456789",
		},
		defaults: Defaults{Image: "registry.example.com/hadoopceph/hadoop:3.4.2"},
	},
}

// TestGolden compares every file and object built for each case with testdata.
func TestGolden(t *testing.T) {
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Cluster: loadCluster(t, tc.name), Storage: tc.storage, Defaults: tc.defaults}
			objs, err := Build(in)
			if err != nil {
				t.Fatalf("Build: %v", err)
			}
			for _, file := range configFiles {
				golden(t, filepath.Join(tc.name, file), []byte(objs.ConfigMap.Data[file]))
			}
			for _, obj := range objs.List() {
				name := strings.ToLower(obj.GetObjectKind().GroupVersionKind().Kind) + "-" + obj.GetName() + ".yaml"
				golden(t, filepath.Join(tc.name, name), toYAML(t, obj))
			}
		})
	}
}

func loadCluster(t *testing.T, name string) *v1alpha1.HadoopCluster {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name, "cluster.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	hc := &v1alpha1.HadoopCluster{}
	if err := yaml.UnmarshalStrict(raw, hc); err != nil {
		t.Fatalf("%s/cluster.yaml: %v", name, err)
	}
	return hc
}

// toYAML renders obj without its status, which the builders never set and which would
// only show zero values.
func toYAML(t *testing.T, obj any) []byte {
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

// golden compares got with testdata/name, or writes it there under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go test ./internal/hadoop -update` to create it)", err)
	}
	if d := firstDifference(string(want), string(got)); d != "" {
		t.Errorf("%s differs from the builders' output at %s\nIf the change is intended, run `go test ./internal/hadoop -update` and review the diff.", path, d)
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
