package localcluster

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/golden"
)

func multusSettings() Settings {
	s := DefaultSettings("/tmp/c", "/k8s")
	s.MultusDir, s.CNIBinDir = "/cache/multus", "/tmp/c/cni-bin"
	return s
}

func TestMultusManifest(t *testing.T) {
	b, err := MultusManifest(multusSettings(), "10.118.0.1:5000/multus-daemon@sha256:0123")
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "multus.yaml", b)

	docs := bytes.Split(b, []byte("\n---\n"))
	var ds appsv1.DaemonSet
	var cm corev1.ConfigMap
	for _, d := range docs {
		switch {
		case bytes.Contains(d, []byte("kind: DaemonSet")):
			if err := yaml.UnmarshalStrict(d, &ds); err != nil {
				t.Fatalf("DaemonSet: %v", err)
			}
		case bytes.Contains(d, []byte("kind: ConfigMap")):
			if err := yaml.UnmarshalStrict(d, &cm); err != nil {
				t.Fatalf("ConfigMap: %v", err)
			}
		}
	}
	// The daemon's configuration is JSON, and tells the shim where the socket is.
	var conf map[string]any
	if err := json.Unmarshal([]byte(cm.Data["daemon-config.json"]), &conf); err != nil {
		t.Fatalf("daemon-config.json: %v", err)
	}
	if conf["socketDir"] != "/host/run/multus/daemon" || conf["daemonSocketDir"] != "/run/multus/daemon" || conf["binDir"] != "/tmp/c/cni-bin" {
		t.Errorf("daemon config %v", conf)
	}
	// HostToContainer only where the node's mount is shared: the pods' namespaces.
	c := ds.Spec.Template.Spec.Containers[0]
	propagated := map[string]bool{}
	for _, m := range c.VolumeMounts {
		if m.MountPropagation != nil && *m.MountPropagation == corev1.MountPropagationHostToContainer {
			propagated[m.MountPath] = true
		}
	}
	if len(propagated) != 2 || !propagated["/run/netns"] || !propagated["/hostroot/run/netns"] {
		t.Errorf("mounts with HostToContainer: %v, want /run/netns and /hostroot/run/netns", propagated)
	}
	if c.Image != "10.118.0.1:5000/multus-daemon@sha256:0123" {
		t.Errorf("image %q", c.Image)
	}
}

func TestCNIBinaries(t *testing.T) {
	got := CNIBinaries([]string{"bridge", "macvlan"}, "/usr/lib/cni", "/cache/multus")
	want := map[string]string{
		"bridge": "/usr/lib/cni/bridge", "macvlan": "/usr/lib/cni/macvlan",
		"multus-shim": "/cache/multus/multus-shim", "whereabouts": "/cache/multus/whereabouts",
	}
	if len(got) != len(want) {
		t.Fatalf("%v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
}

func TestEnsureCNIBinDir(t *testing.T) {
	dir := t.TempDir()
	host, multus := filepath.Join(dir, "host"), filepath.Join(dir, "multus")
	for _, f := range []string{filepath.Join(host, "bridge"), filepath.Join(multus, "multus-shim"), filepath.Join(multus, "whereabouts")} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(filepath.Base(f)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s := DefaultSettings(dir, "/k8s")
	s.MultusDir, s.CNIBinDir = multus, filepath.Join(dir, "bin")
	if err := os.MkdirAll(s.CNIBinDir, 0o755); err != nil {
		t.Fatal(err)
	}
	// A plugin no longer among the sources goes.
	if err := os.WriteFile(filepath.Join(s.CNIBinDir, "stale"), nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := EnsureCNIBinDir(s, host); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(s.CNIBinDir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
		// Copies: the Multus daemon's container has the directory alone.
		if e.Type()&os.ModeSymlink != 0 {
			t.Errorf("%s is a link", e.Name())
		}
	}
	if strings.Join(names, " ") != "bridge multus-shim whereabouts" {
		t.Errorf("directory holds %v", names)
	}
	if b, _ := os.ReadFile(filepath.Join(s.CNIBinDir, "whereabouts")); string(b) != "whereabouts" {
		t.Errorf("whereabouts copy holds %q", b)
	}
	// Multus's binaries missing: a message that names the script that builds them.
	s.MultusDir = filepath.Join(dir, "none")
	if err := EnsureCNIBinDir(s, host); err == nil || !strings.Contains(err.Error(), "hack/tools/multus.sh") {
		t.Errorf("missing Multus directory: %v", err)
	}
}

func TestRenderWhereabouts(t *testing.T) {
	s := multusSettings()
	l, err := NewLayout(withNodes(s, 2))
	if err != nil {
		t.Fatal(err)
	}
	files, err := Render(l, l.Workers[0], Credentials{CA: []byte("CA"), AdminCert: []byte("ADMIN CERT"), AdminKey: []byte("ADMIN KEY")})
	if err != nil {
		t.Fatal(err)
	}
	var conf struct {
		Datastore  string            `json:"datastore"`
		Kubernetes map[string]string `json:"kubernetes"`
	}
	if err := json.Unmarshal(files["cni/net.d/whereabouts.d/whereabouts.conf"], &conf); err != nil {
		t.Fatal(err)
	}
	// The path as the plugin sees it on the node, where its directory is bound.
	if conf.Datastore != "kubernetes" || conf.Kubernetes["kubeconfig"] != "/etc/cni/net.d/whereabouts.d/whereabouts.kubeconfig" {
		t.Errorf("whereabouts.conf %+v", conf)
	}
	if kc := string(files["cni/net.d/whereabouts.d/whereabouts.kubeconfig"]); !strings.Contains(kc, "https://10.96.0.1") {
		t.Errorf("whereabouts' kubeconfig does not reach the API server at the kubernetes Service: %s", kc)
	}
	// Without Multus, no whereabouts.
	l.Settings.MultusDir = ""
	files, err = Render(l, l.Workers[0], Credentials{CA: []byte("CA")})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := files["cni/net.d/whereabouts.d/whereabouts.conf"]; ok {
		t.Error("whereabouts.conf rendered without Multus")
	}
}

func withNodes(s Settings, n int) Settings {
	s.Nodes = n
	return s
}

func TestCNIConfDirContent(t *testing.T) {
	dir := t.TempDir()
	// Missing or empty: the bind hides nothing.
	if err := cniConfDirContent(filepath.Join(dir, "none")); err != nil {
		t.Errorf("missing directory: %v", err)
	}
	if err := cniConfDirContent(dir); err != nil {
		t.Errorf("empty directory: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "10-flannel.conflist"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := cniConfDirContent(dir); err == nil || !strings.Contains(err.Error(), "10-flannel.conflist") {
		t.Errorf("a host's configuration: %v, want an error naming the file", err)
	}
}
