package localcluster

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/netip"
	"path"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/golden"
)

var fakeCredentials = Credentials{
	CA:                []byte("CA"),
	KubeletClientCert: []byte("KUBELET CERT"),
	KubeletClientKey:  []byte("KUBELET KEY"),
	KubeProxyCert:     []byte("PROXY CERT"),
	KubeProxyKey:      []byte("PROXY KEY"),
	AdminCert:         []byte("ADMIN CERT"),
	AdminKey:          []byte("ADMIN KEY"),
}

func TestRenderGolden(t *testing.T) {
	l := testLayout(t, 3)
	files, err := Render(l, testWorker(t, l, "n2"), fakeCredentials)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"cni/net.d/10-hco-pods.conflist",
		"config/containerd.toml",
		"config/crictl.yaml",
		"config/hosts",
		"config/kube-proxy.kubeconfig",
		"config/kube-proxy.yaml",
		"config/kubelet.kubeconfig",
		"config/kubelet.yaml",
	}
	if got := slices.Sorted(maps.Keys(files)); !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	for name, b := range files {
		golden.Assert(t, path.Join("render-n2", name), b)
	}
}

// TestRenderContents reads back what the golden files hold, so that a golden file
// rewritten with -update still has to say these things.
func TestRenderContents(t *testing.T) {
	l := testLayout(t, 3)
	files, err := Render(l, testWorker(t, l, "n2"), fakeCredentials)
	if err != nil {
		t.Fatal(err)
	}

	var kubelet struct {
		Address                  string            `json:"address"`
		CgroupRoot               string            `json:"cgroupRoot"`
		ContainerRuntimeEndpoint string            `json:"containerRuntimeEndpoint"`
		ClusterDNS               []string          `json:"clusterDNS"`
		TLSCertFile              string            `json:"tlsCertFile"`
		SystemReserved           map[string]string `json:"systemReserved"`
	}
	unmarshalYAML(t, files["config/kubelet.yaml"], &kubelet)
	for _, c := range []struct{ field, got, want string }{
		{"address", kubelet.Address, "10.118.1.2"},
		{"cgroupRoot", kubelet.CgroupRoot, "/hco-n2"},
		{"containerRuntimeEndpoint", kubelet.ContainerRuntimeEndpoint, "unix:///run/hco-n2/containerd.sock"},
		{"clusterDNS", strings.Join(kubelet.ClusterDNS, ","), "10.118.0.1"},
		{"tlsCertFile", kubelet.TLSCertFile, "/tmp/c/nodes/n2/pki/kubelet-serving.crt"},
	} {
		if c.got != c.want {
			t.Errorf("kubelet.yaml %s: %q, want %q", c.field, c.got, c.want)
		}
	}
	if kubelet.SystemReserved != nil {
		t.Errorf("kubelet.yaml systemReserved %v without MemoryReservedPerNode", kubelet.SystemReserved)
	}

	var proxy struct {
		ClusterCIDR       string   `json:"clusterCIDR"`
		HostnameOverride  string   `json:"hostnameOverride"`
		NodePortAddresses []string `json:"nodePortAddresses"`
		ClientConnection  struct {
			Kubeconfig string `json:"kubeconfig"`
		} `json:"clientConnection"`
	}
	unmarshalYAML(t, files["config/kube-proxy.yaml"], &proxy)
	for _, c := range []struct{ field, got, want string }{
		{"clusterCIDR", proxy.ClusterCIDR, "10.117.0.0/16"},
		{"hostnameOverride", proxy.HostnameOverride, "n2.hco.test"},
		{"nodePortAddresses", strings.Join(proxy.NodePortAddresses, ","), "10.118.1.2/32"},
		{"clientConnection.kubeconfig", proxy.ClientConnection.Kubeconfig, "/tmp/c/nodes/n2/config/kube-proxy.kubeconfig"},
	} {
		if c.got != c.want {
			t.Errorf("kube-proxy.yaml %s: %q, want %q", c.field, c.got, c.want)
		}
	}

	var cni struct {
		Plugins []struct {
			Type   string `json:"type"`
			Bridge string `json:"bridge"`
			IPAM   struct {
				Ranges [][]struct {
					Subnet string `json:"subnet"`
				} `json:"ranges"`
				Routes []struct {
					Dst string `json:"dst"`
					GW  string `json:"gw"`
				} `json:"routes"`
			} `json:"ipam"`
		} `json:"plugins"`
	}
	if err := json.Unmarshal(files["cni/net.d/10-hco-pods.conflist"], &cni); err != nil {
		t.Fatal(err)
	}
	if len(cni.Plugins) != 1 || cni.Plugins[0].Type != "bridge" || cni.Plugins[0].Bridge != PodBridge {
		t.Fatalf("CNI plugins %+v, want one bridge %s", cni.Plugins, PodBridge)
	}
	ipam := cni.Plugins[0].IPAM
	if len(ipam.Ranges) != 1 || len(ipam.Ranges[0]) != 1 || ipam.Ranges[0][0].Subnet != "10.117.1.0/24" {
		t.Errorf("CNI ranges %+v, want the one subnet 10.117.1.0/24", ipam.Ranges)
	}
	var dsts []string
	for _, r := range ipam.Routes {
		dsts = append(dsts, r.Dst)
	}
	if want := []string{"10.117.0.0/16", "10.118.0.0/16", "10.96.0.0/16"}; !slices.Equal(dsts, want) {
		t.Errorf("CNI routes %q, want %q (and no default route)", dsts, want)
	}

	for _, name := range []string{"config/kubelet.kubeconfig", "config/kube-proxy.kubeconfig"} {
		var kc kubeconfigFile
		unmarshalYAML(t, files[name], &kc)
		if len(kc.Clusters) != 1 || len(kc.Users) != 1 {
			t.Fatalf("%s: clusters %+v users %+v, want one of each", name, kc.Clusters, kc.Users)
		}
		if got := kc.Clusters[0].Cluster.Server; got != "https://10.96.0.1" {
			t.Errorf("%s: server %q, want https://10.96.0.1", name, got)
		}
		if got := string(kc.Clusters[0].Cluster.CA); got != "CA" {
			t.Errorf("%s: CA %q, want the credentials' CA", name, got)
		}
		wantUser, wantCert := "system:node:n2.hco.test", "KUBELET CERT"
		if strings.Contains(name, "proxy") {
			wantUser, wantCert = "system:kube-proxy", "PROXY CERT"
		}
		if u := kc.Users[0]; u.Name != wantUser || string(u.User.Cert) != wantCert {
			t.Errorf("%s: user %q with certificate %q, want %q with %q", name, u.Name, u.User.Cert, wantUser, wantCert)
		}
	}

	containerd := string(files["config/containerd.toml"])
	for _, want := range []string{
		`root = "/tmp/c/nodes/n2/containerd"`,
		`state = "/run/hco-n2/state"`,
		`address = "/run/hco-n2/containerd.sock"`,
		`Root = "/run/hco-n2/runc"`,
		// The node's own directory is bound there inside its mount namespace.
		`conf_dir = "/etc/cni/net.d"`,
		`sandbox_image = "localhost/pause:3.10"`,
	} {
		if !strings.Contains(containerd, want) {
			t.Errorf("containerd.toml lacks %s", want)
		}
	}
}

func TestRenderMemoryReserved(t *testing.T) {
	for _, c := range []struct {
		reserved string
		want     map[string]string
	}{
		{"", nil},
		{"8Gi", map[string]string{"memory": "8Gi"}},
	} {
		t.Run("reserved="+c.reserved, func(t *testing.T) {
			s := DefaultSettings("/tmp/c", "/k8s")
			s.Nodes, s.MemoryReservedPerNode = 2, c.reserved
			files := renderFirstWorker(t, s)
			var cfg map[string]any
			unmarshalYAML(t, files["config/kubelet.yaml"], &cfg)
			got, present := cfg["systemReserved"]
			if c.want == nil {
				if present {
					t.Errorf("systemReserved %v, want the key left out", got)
				}
				return
			}
			var reserved map[string]string
			unmarshalYAML(t, mustYAML(t, got), &reserved)
			if !maps.Equal(reserved, c.want) {
				t.Errorf("systemReserved %v, want %v", reserved, c.want)
			}
		})
	}
}

func TestRenderKubeRouter(t *testing.T) {
	s := DefaultSettings("/tmp/c", "/k8s")
	s.Nodes, s.KubeRouter = 2, "/bin/kube-router"
	files := renderFirstWorker(t, s)
	var kc kubeconfigFile
	unmarshalYAML(t, files["config/kube-router.kubeconfig"], &kc)
	if len(kc.Clusters) != 1 || kc.Clusters[0].Cluster.Server != "https://10.96.0.1" {
		t.Errorf("kube-router clusters %+v, want https://10.96.0.1", kc.Clusters)
	}
	if len(kc.Users) != 1 || kc.Users[0].Name != "hco-admin" || string(kc.Users[0].User.Cert) != "ADMIN CERT" || string(kc.Users[0].User.Key) != "ADMIN KEY" {
		t.Errorf("kube-router users %+v, want hco-admin with the admin credentials", kc.Users)
	}
	if len(files) != 9 {
		t.Errorf("%d files, want the 8 of every node and kube-router's kubeconfig", len(files))
	}
}

// With a registry, containerd reads its hosts directory, which says plain HTTP.
func TestRenderRegistry(t *testing.T) {
	s := DefaultSettings("/tmp/c", "/k8s")
	s.Nodes, s.Registry = 2, "10.118.0.1:5000"
	files := renderFirstWorker(t, s)
	toml := string(files["config/containerd.toml"])
	if want := "[plugins.\"io.containerd.grpc.v1.cri\".registry]\n    config_path = \"/tmp/c/nodes/n2/config/certs.d\"\n"; !strings.Contains(toml, want) {
		t.Errorf("containerd.toml lacks %q:\n%s", want, toml)
	}
	hosts := string(files["config/certs.d/10.118.0.1:5000/hosts.toml"])
	for _, want := range []string{`server = "http://10.118.0.1:5000"`, `[host."http://10.118.0.1:5000"]`, `capabilities = ["pull", "resolve"]`} {
		if !strings.Contains(hosts, want) {
			t.Errorf("hosts.toml lacks %q:\n%s", want, hosts)
		}
	}
	s.Registry = ""
	files = renderFirstWorker(t, s)
	if strings.Contains(string(files["config/containerd.toml"]), "registry") {
		t.Errorf("containerd.toml names a registry though none is set:\n%s", files["config/containerd.toml"])
	}
}

// kubeconfigFile is the part of a rendered kubeconfig the tests read.
type kubeconfigFile struct {
	Clusters []struct {
		Cluster struct {
			Server string `json:"server"`
			CA     []byte `json:"certificate-authority-data"`
		} `json:"cluster"`
	} `json:"clusters"`
	Users []struct {
		Name string `json:"name"`
		User struct {
			Cert []byte `json:"client-certificate-data"`
			Key  []byte `json:"client-key-data"`
		} `json:"user"`
	} `json:"users"`
}

// renderFirstWorker renders worker n2's files with the settings.
func renderFirstWorker(t *testing.T, s Settings) Files {
	t.Helper()
	l, err := NewLayout(s)
	if err != nil {
		t.Fatal(err)
	}
	files, err := Render(l, l.Workers[0], fakeCredentials)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestRenderDeterministic(t *testing.T) {
	l := testLayout(t, 4)
	for _, n := range l.Workers {
		a, err := Render(l, n, fakeCredentials)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Render(l, n, fakeCredentials)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.EqualFunc(a, b, bytes.Equal) {
			for name := range a {
				if !bytes.Equal(a[name], b[name]) {
					t.Errorf("%s: %s differs between two renders", n.Short, name)
				}
			}
		}
	}
}

func unmarshalYAML(t *testing.T, b []byte, into any) {
	t.Helper()
	if len(b) == 0 {
		t.Fatal("no such file rendered")
	}
	if err := yaml.Unmarshal(b, into); err != nil {
		t.Fatal(err)
	}
}

func mustYAML(t *testing.T, v any) []byte {
	t.Helper()
	b, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The cluster DNS answers each worker's name and address, and nothing else of the
// workers' domain.
func TestDNSTemplates(t *testing.T) {
	s := DefaultSettings("/tmp/c", "/k8s")
	s.Nodes = 3
	l, err := NewLayout(s)
	if err != nil {
		t.Fatal(err)
	}
	got := string(DNSTemplates(l, FirstNode{Name: "vm", IP: netip.MustParseAddr("10.118.0.1")}))
	for _, want := range []string{
		"match ^1[.]0[.]118[.]10[.]in-addr[.]arpa[.]$\n    answer \"{{ .Name }} 60 IN PTR vm.\"",
		"match ^n2[.]hco[.]test[.]$\n    answer \"{{ .Name }} 60 IN A 10.118.1.2\"",
		"match ^2[.]2[.]118[.]10[.]in-addr[.]arpa[.]$\n    answer \"{{ .Name }} 60 IN PTR n3.hco.test.\"",
		"template ANY ANY hco.test {\n    rcode NXDOMAIN\n}\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("templates lack %q:\n%s", want, got)
		}
	}
	if !strings.HasSuffix(got, "template ANY ANY hco.test {\n    rcode NXDOMAIN\n}\n") {
		t.Errorf("the catch-all is not last, so it would answer the workers' names:\n%s", got)
	}
	if noFirst := string(DNSTemplates(l, FirstNode{})); strings.Contains(noFirst, "^1[.]0[.]118[.]10") {
		t.Errorf("a zero first node has an answer:\n%s", noFirst)
	}
}
