package localcluster

import (
	"bufio"
	"crypto/x509"
	"encoding/pem"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/golden"
)

func testControlPlane(t *testing.T, nodes int) (ControlPlane, Layout) {
	t.Helper()
	l := testLayout(t, nodes)
	l.Settings.Registry = "10.118.0.1:5000"
	cp := DefaultControlPlane(l.Settings, "VM")
	cp.RegistryDir = "/tmp/registry"
	if err := cp.Validate(); err != nil {
		t.Fatal(err)
	}
	return cp, l
}

var testBinaries = Binaries{K8sBinDir: "/k8s", Containerd: "/usr/bin/containerd", Socat: "/usr/bin/socat",
	CoreDNS: "/cache/coredns", Registry: "/cache/registry", Crictl: "/cache/crictl"}

func TestDefaultControlPlane(t *testing.T) {
	cp, _ := testControlPlane(t, 3)
	for _, c := range []struct{ what, got, want string }{
		{"node name, lower-cased as the kubelet registers it", cp.NodeName, "vm"},
		{"node address", cp.NodeIP.String(), "10.118.0.1"},
		{"peer address", cp.PeerIP.String(), "10.118.0.2"},
		{"pod range, the first /24", cp.PodCIDR.String(), "10.117.0.0/24"},
		{"the cluster DNS is on the node's address", cp.Settings.DNSIP.String(), cp.NodeIP.String()},
		{"socket", cp.Socket(), "/run/hco-containerd/containerd.sock"},
		{"API server", cp.APIServer(), "https://127.0.0.1:6443"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.what, c.got, c.want)
		}
	}
	bad := cp
	bad.NodeIP = netip.MustParseAddr("192.168.1.1")
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "nodes' range") {
		t.Errorf("an address outside the nodes' range: %v", err)
	}
}

func TestControlPlaneProcessesGolden(t *testing.T) {
	cp, _ := testControlPlane(t, 3)
	procs := ControlPlaneProcesses(cp, testBinaries)
	golden.Assert(t, "controlplane/processes.yaml", golden.YAML(t, map[string]any{"processes": procs}))
	var names []string
	for _, p := range procs {
		names = append(names, p.Name)
		// A process is known as the cluster's by its command line naming the cluster's
		// directory; an argv[0] outside it must name the directory in an argument.
		if !strings.Contains(strings.Join(p.Argv, " "), cp.Settings.ClusterDir+"/") {
			t.Errorf("%s's command line does not name the cluster's directory: %q", p.Name, p.Argv)
		}
		if filepath.Base(p.Argv[0]) != p.Name {
			t.Errorf("%s runs %s: its name must be its binary's, which OwnProcesses matches", p.Name, p.Argv[0])
		}
	}
	want := []string{"etcd", "kube-apiserver", "kubernetes-service-proxy", "kube-controller-manager", "kube-scheduler",
		"registry", "containerd", "kubelet", "kube-proxy", "coredns"}
	if !slices.Equal(names, want) {
		t.Errorf("processes %q, want %q", names, want)
	}
	for link, target := range LinkedBinaries(cp, testBinaries) {
		if !strings.HasPrefix(link, cp.Path("bin")+"/") || target == "" {
			t.Errorf("link %s -> %s", link, target)
		}
	}
}

func TestRenderControlPlane(t *testing.T) {
	cp, l := testControlPlane(t, 3)
	cp.LegacyDNS = netip.MustParseAddr("127.0.0.53")
	p := fakePKI()
	files, err := RenderControlPlane(cp, l, p)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]ControlPlaneFile{}
	for _, f := range files {
		byPath[f.Path] = f
		golden.Assert(t, filepath.Join("controlplane", "files", f.Path), f.Data)
	}
	// Every file a process reads at its start restarts it when it changes.
	for path, users := range map[string][]string{
		"config/kubelet.yaml":                  {"kubelet"},
		"config/kubelet.kubeconfig":            {"kubelet"},
		"config/kube-proxy.yaml":               {"kube-proxy"},
		"config/Corefile":                      {"coredns"},
		"config/coredns.kubeconfig":            {"coredns"},
		"config/containerd.toml":               {"containerd"},
		"config/registry.yml":                  {"registry"},
		"config/controller-manager.kubeconfig": {"kube-controller-manager"},
		"config/scheduler.kubeconfig":          {"kube-scheduler"},
		"kubeconfig":                           nil,
		"cni/net.d/10-hco-pods.conflist":       nil,
	} {
		f, ok := byPath[path]
		if !ok {
			t.Errorf("no %s", path)
			continue
		}
		if !slices.Equal(f.Users, users) {
			t.Errorf("%s restarts %q, want %q", path, f.Users, users)
		}
	}
	for _, path := range []string{"kubeconfig", "config/kubelet.kubeconfig"} {
		if !byPath[path].Secret {
			t.Errorf("%s holds a key and must be written 0600", path)
		}
	}
	var kubelet struct {
		Address    string `json:"address"`
		CgroupRoot string `json:"cgroupRoot"`
		PodLogsDir string `json:"podLogsDir"`
	}
	unmarshalYAML(t, byPath["config/kubelet.yaml"].Data, &kubelet)
	if kubelet.Address != "10.118.0.1" || kubelet.CgroupRoot != "" || kubelet.PodLogsDir != "/tmp/c/logs/pods" {
		t.Errorf("the first node's kubelet: %+v; want its address, the host's cgroups and the cluster's pod logs", kubelet)
	}
	var kc struct {
		Clusters []struct {
			Cluster struct {
				Server string `json:"server"`
			} `json:"cluster"`
		} `json:"clusters"`
	}
	unmarshalYAML(t, byPath["config/kubelet.kubeconfig"].Data, &kc)
	if len(kc.Clusters) != 1 || kc.Clusters[0].Cluster.Server != "https://127.0.0.1:6443" {
		t.Errorf("the first node reaches the API server on loopback: %+v", kc)
	}
	corefile := string(byPath["config/Corefile"].Data)
	for _, want := range []string{
		"bind 10.118.0.1 127.0.0.53\n",
		"n2[.]hco[.]test[.]$",
		"kubeconfig /tmp/c/config/coredns.kubeconfig",
		"ready 127.0.0.1:18181",
		"rcode NXDOMAIN",
	} {
		if !strings.Contains(corefile, want) {
			t.Errorf("the Corefile lacks %q:\n%s", want, corefile)
		}
	}
}

func fakePKI() PKI {
	p := PKI{CA: CA{CertPEM: []byte("CA")}, Certs: map[string]KeyPair{}}
	for _, c := range []string{"admin", "controller-manager", "scheduler", "kubelet", "kube-proxy", "coredns"} {
		p.Certs[c] = KeyPair{Cert: []byte(strings.ToUpper(c) + " CERT"), Key: []byte(strings.ToUpper(c) + " KEY")}
	}
	return p
}

func TestEnsurePKI(t *testing.T) {
	cp, _ := testControlPlane(t, 1)
	dir := t.TempDir()
	now := time.Now()
	p, restart, err := EnsurePKI(dir, cp, now)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(restart, "kube-apiserver") || !slices.Contains(restart, "kubelet") {
		t.Errorf("a new PKI restarts %q; want the API server and the kubelet among them", restart)
	}
	for _, c := range ControlPlaneCerts(cp) {
		pair := p.Certs[c.Name]
		if !CertMatches(p.CA, pair.Cert, pair.Key, c.Request, now) {
			t.Errorf("certificate %s does not name what it should", c.Name)
		}
	}
	for _, f := range []string{"ca.crt", "ca.key", "sa.key", "sa.pub"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if info, _ := os.Stat(filepath.Join(dir, "ca.key")); info == nil || info.Mode().Perm() != 0o600 {
		t.Errorf("ca.key mode %v, want 0600", info.Mode())
	}
	block, _ := pem.Decode(p.CA.CertPEM)
	ca, err := x509.ParseCertificate(block.Bytes)
	if err != nil || !ca.IsCA || ca.KeyUsage&x509.KeyUsageCertSign == 0 {
		t.Errorf("the CA: %v, IsCA %v", err, ca != nil && ca.IsCA)
	}

	// Run again: everything is kept.
	again, restart, err := EnsurePKI(dir, cp, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(restart) != 0 || string(again.Certs["apiserver"].Cert) != string(p.Certs["apiserver"].Cert) {
		t.Errorf("an unchanged PKI restarts %q", restart)
	}

	// The node's address changes: its serving certificate alone is issued again.
	cp.NodeIP = netip.MustParseAddr("10.118.0.5")
	moved, restart, err := EnsurePKI(dir, cp, now)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(restart, []string{"kubelet"}) {
		t.Errorf("a new node address restarts %q, want only the kubelet", restart)
	}
	if string(moved.Certs["kubelet-serving"].Cert) == string(p.Certs["kubelet-serving"].Cert) {
		t.Error("the kubelet's serving certificate still names the old address")
	}
	if string(moved.CA.CertPEM) != string(p.CA.CertPEM) {
		t.Error("the CA changed")
	}

	// A CA certificate without its key is refused rather than replaced.
	if err := os.Remove(filepath.Join(dir, "ca.key")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := EnsurePKI(dir, cp, now); err == nil || !strings.Contains(err.Error(), "ca.key") {
		t.Errorf("a CA without its key: %v", err)
	}
}

func TestOwnProcesses(t *testing.T) {
	procs := []ProcInfo{
		{PID: 10, PPID: 1, Argv: []string{"/k8s/etcd", "--data-dir=/tmp/c/etcd"}},
		// Another etcd on the host is not the cluster's.
		{PID: 11, PPID: 1, Argv: []string{"/usr/bin/etcd", "--data-dir=/var/lib/etcd"}},
		// A worker's kubelet names its node's directory.
		{PID: 12, PPID: 1, Argv: []string{"/k8s/kubelet", "--config=/tmp/c/nodes/n2/config/kubelet.yaml"}},
		{PID: 13, PPID: 1, Argv: []string{"/k8s/kubelet", "--config=/tmp/c/config/kubelet.yaml"}},
		// A connection of the service proxy ends with its parent.
		{PID: 14, PPID: 1, Argv: []string{"/tmp/c/bin/kubernetes-service-proxy", "TCP-LISTEN:443"}},
		{PID: 15, PPID: 14, Argv: []string{"/tmp/c/bin/kubernetes-service-proxy", "TCP-LISTEN:443"}},
	}
	for _, c := range []struct {
		name string
		want []int
	}{{"etcd", []int{10}}, {"kubelet", []int{13}}, {"kubernetes-service-proxy", []int{14}}, {"coredns", nil}} {
		if got := OwnProcesses(procs, c.name, "/tmp/c/", "/tmp/c/nodes/"); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestParseStat(t *testing.T) {
	ppid, state := parseStat([]byte("4242 (a (weird) name) S 17 4242 4242 0 -1 4194560"))
	if ppid != 17 || state != "S" {
		t.Errorf("ppid %d, state %q; want 17, S", ppid, state)
	}
}

func TestListensIn(t *testing.T) {
	tcp := `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1A0B 00000000:0000 0A 00000000:00000000 00:00:00 00000000     0        0 1 1 0 100 0 0 10 0
   1: 0100760A:2A9A 00000000:0000 0A 00000000:00000000 00:00:00 00000000     0        0 2 1 0 100 0 0 10 0
   2: 00000000:0035 00000000:0000 0A 00000000:00000000 00:00:00 00000000     0        0 3 1 0 100 0 0 10 0
   3: 0100007F:1F90 0100007F:C000 01 00000000:00000000 00:00:00 00000000     0        0 4 1 0 100 0 0 10 0
`
	for _, c := range []struct {
		ap   string
		want bool
	}{
		{"127.0.0.1:6667", true},    // 0x1A0B on loopback
		{"10.118.0.1:10906", true},  // 0x2A9A on 10.118.0.1
		{"10.118.0.2:10906", false}, // another address
		{"10.96.0.1:53", true},      // the wildcard
		{"127.0.0.1:8080", false},   // an established connection, not a listener
	} {
		sc := bufio.NewScanner(strings.NewReader(tcp))
		if got := listensIn(sc, "0A", netip.MustParseAddrPort(c.ap)); got != c.want {
			t.Errorf("%s: %v, want %v", c.ap, got, c.want)
		}
	}
	six, err := parseProcAddr("0000000000000000FFFF00000100007F:0035")
	if err != nil || six.Addr().Unmap() != netip.MustParseAddr("127.0.0.1") || six.Port() != 53 {
		t.Errorf("a v4-mapped IPv6 address: %v %v", six, err)
	}
}

func TestFirstNodeNetworkCommands(t *testing.T) {
	cp, _ := testControlPlane(t, 1)
	var lines []string
	for _, c := range FirstNodeNetworkCommands(cp) {
		lines = append(lines, strings.Join(c, " "))
	}
	golden.Assert(t, "controlplane/network.txt", []byte(strings.Join(lines, "\n")+"\n"))
}
