package localcluster

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestNetworkCommands(t *testing.T) {
	l := testLayout(t, 3)
	for _, c := range []struct {
		node string
		want []string
	}{
		{"n2", []string{
			"ip addr replace 10.118.1.1/24 dev hco-n2h",
			"ip link set hco-n2h up",
			"ip -n hco-n2 link set lo up",
			"ip -n hco-n2 addr replace 10.118.1.2/24 dev hco-node0",
			"ip -n hco-n2 link set hco-node0 up",
			"ip route replace 10.117.1.0/24 via 10.118.1.2 dev hco-n2h",
			"ip -n hco-n2 route replace 10.117.0.0/16 via 10.118.1.1 dev hco-node0",
			"ip -n hco-n2 route replace 10.118.0.0/16 via 10.118.1.1 dev hco-node0",
			"ip -n hco-n2 route replace 10.96.0.0/16 via 10.118.1.1 dev hco-node0",
		}},
		{"n3", []string{
			"ip addr replace 10.118.2.1/24 dev hco-n3h",
			"ip link set hco-n3h up",
			"ip -n hco-n3 link set lo up",
			"ip -n hco-n3 addr replace 10.118.2.2/24 dev hco-node0",
			"ip -n hco-n3 link set hco-node0 up",
			"ip route replace 10.117.2.0/24 via 10.118.2.2 dev hco-n3h",
			"ip -n hco-n3 route replace 10.117.0.0/16 via 10.118.2.1 dev hco-node0",
			"ip -n hco-n3 route replace 10.118.0.0/16 via 10.118.2.1 dev hco-node0",
			"ip -n hco-n3 route replace 10.96.0.0/16 via 10.118.2.1 dev hco-node0",
		}},
	} {
		t.Run(c.node, func(t *testing.T) {
			var got []string
			for _, cmd := range NetworkCommands(l.Settings, testWorker(t, l, c.node)) {
				got = append(got, strings.Join(cmd, " "))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("commands:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
			for _, cmd := range got {
				// Nothing a node sends may leave the host.
				if strings.Contains(cmd, "default") {
					t.Errorf("%q has a default route", cmd)
				}
			}
		})
	}
}

func TestForwardGuardRules(t *testing.T) {
	s := DefaultSettings("/tmp/c", "/k8s")
	want := []string{
		"-A HCO-NODES-FORWARD -s 10.117.0.0/16 -o eth0 -j DROP",
		"-A HCO-NODES-FORWARD -d 10.117.0.0/16 -i eth0 -j DROP",
		"-A HCO-NODES-FORWARD -s 10.118.0.0/16 -o eth0 -j DROP",
		"-A HCO-NODES-FORWARD -d 10.118.0.0/16 -i eth0 -j DROP",
	}
	var got []string
	for _, r := range ForwardGuardRules(s, "eth0") {
		got = append(got, strings.Join(r, " "))
	}
	if !slices.Equal(got, want) {
		t.Errorf("rules:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestCgroupHierarchies(t *testing.T) {
	for _, c := range []struct {
		name  string
		dirs  []string
		files []string
		links map[string]string
		want  []string
	}{
		{
			name:  "v1, co-mounted controllers behind links",
			dirs:  []string{"cpu,cpuacct", "memory", "pids", "unified"},
			files: []string{"README"},
			links: map[string]string{"cpu": "cpu,cpuacct", "cpuacct": "cpu,cpuacct"},
			want:  []string{"cpu,cpuacct", "memory", "pids", "unified"},
		},
		{
			name:  "unified",
			dirs:  []string{"system.slice", "user.slice"},
			files: []string{"cgroup.controllers", "cgroup.procs"},
			want:  []string{"."},
		},
		{
			name: "empty",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			for _, d := range c.dirs {
				if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range c.files {
				if err := os.WriteFile(filepath.Join(root, f), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for name, target := range c.links {
				if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
					t.Fatal(err)
				}
			}
			got, err := CgroupHierarchies(root)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, w := range c.want {
				want = append(want, filepath.Join(root, w))
			}
			if !slices.Equal(got, want) {
				t.Errorf("hierarchies %q, want %q", got, want)
			}
		})
	}

	if _, err := CgroupHierarchies(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("no error for a missing root")
	}
}
