package localcluster

import (
	"net/netip"
	"strings"
	"testing"
)

func testLayout(t *testing.T, nodes int) Layout {
	t.Helper()
	s := DefaultSettings("/tmp/c", "/k8s")
	s.Nodes = nodes
	l, err := NewLayout(s)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func testWorker(t *testing.T, l Layout, name string) Node {
	t.Helper()
	n, ok := l.Worker(name)
	if !ok {
		t.Fatalf("no worker %q in %d nodes", name, l.Settings.Nodes)
	}
	return n
}

func TestNewLayoutWorkers(t *testing.T) {
	if l := testLayout(t, 1); len(l.Workers) != 0 {
		t.Errorf("1 node: workers %v, want none (the first node is hack/cluster's)", l.Workers)
	}

	l := testLayout(t, 3)
	want := []Node{
		{
			Index:         2,
			Short:         "n2",
			Name:          "n2.hco.test",
			HostnameLabel: "n2.hco.test",
			NetNS:         "hco-n2",
			HostLink:      "hco-n2h",
			HostIP:        netip.MustParseAddr("10.118.1.1"),
			NodeIP:        netip.MustParseAddr("10.118.1.2"),
			LinkCIDR:      netip.MustParsePrefix("10.118.1.0/24"),
			PodCIDR:       netip.MustParsePrefix("10.117.1.0/24"),
			PodGateway:    netip.MustParseAddr("10.117.1.1"),
			Dir:           "/tmp/c/nodes/n2",
			RunDir:        "/run/hco-n2",
			CgroupRoot:    "/hco-n2",
		},
		{
			Index: 3,
			Short: "n3",
			Name:  "n3.hco.test",
			// ShortLabelNode is 3 in the defaults.
			HostnameLabel: "n3",
			NetNS:         "hco-n3",
			HostLink:      "hco-n3h",
			HostIP:        netip.MustParseAddr("10.118.2.1"),
			NodeIP:        netip.MustParseAddr("10.118.2.2"),
			LinkCIDR:      netip.MustParsePrefix("10.118.2.0/24"),
			PodCIDR:       netip.MustParsePrefix("10.117.2.0/24"),
			PodGateway:    netip.MustParseAddr("10.117.2.1"),
			Dir:           "/tmp/c/nodes/n3",
			RunDir:        "/run/hco-n3",
			CgroupRoot:    "/hco-n3",
		},
	}
	if len(l.Workers) != len(want) {
		t.Fatalf("3 nodes: %d workers, want %d", len(l.Workers), len(want))
	}
	for i, w := range want {
		if got := l.Workers[i]; got != w {
			t.Errorf("worker %d:\n got  %+v\n want %+v", i, got, w)
		}
	}

	n2 := l.Workers[0]
	for _, c := range []struct{ got, want string }{
		{n2.Socket(), "/run/hco-n2/containerd.sock"},
		{n2.Path("config", "kubelet.yaml"), "/tmp/c/nodes/n2/config/kubelet.yaml"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestNewLayoutRefuses(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(*Settings)
		want   string
	}{
		{"no nodes", func(s *Settings) { s.Nodes = 0 }, "nodes: 0"},
		{"too many nodes", func(s *Settings) { s.Nodes = 255 }, "nodes: 255"},
		{"pods /24", func(s *Settings) { s.PodsCIDR = netip.MustParsePrefix("10.117.0.0/24") }, "pods CIDR 10.117.0.0/24"},
		{"nodes IPv6", func(s *Settings) { s.NodesCIDR = netip.MustParsePrefix("fd00::/16") }, "nodes CIDR fd00::/16"},
		{"relative cluster dir", func(s *Settings) { s.ClusterDir = "c" }, `cluster directory "c"`},
		{"no cluster dir", func(s *Settings) { s.ClusterDir = "" }, `cluster directory ""`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := DefaultSettings("/tmp/c", "/k8s")
			s.Nodes = 3
			c.change(&s)
			l, err := NewLayout(s)
			if err == nil {
				t.Fatalf("no error; layout %+v", l)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not name %q", err, c.want)
			}
		})
	}
}

func TestLayoutWorker(t *testing.T) {
	l := testLayout(t, 3)
	for _, c := range []struct {
		name      string
		wantShort string
	}{
		{"n2", "n2"},
		{"n3.hco.test", "n3"},
		{"n1", ""},
		{"n4", ""},
		{"n3", "n3"},
		{"hco-n2", ""},
		{"", ""},
	} {
		n, ok := l.Worker(c.name)
		if ok != (c.wantShort != "") || n.Short != c.wantShort {
			t.Errorf("Worker(%q) = %q, %v; want %q", c.name, n.Short, ok, c.wantShort)
		}
	}
}
