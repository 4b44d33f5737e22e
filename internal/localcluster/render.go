package localcluster

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/netip"
	"path/filepath"
	"strings"
	"text/template"

	"sigs.k8s.io/yaml"
)

// Ports inside a node's network namespace: each node has its own loopback, so every
// node uses the same ones.
const (
	KubeletPort            = 10250
	KubeletHealthzPort     = 10248
	KubeProxyHealthzPort   = 10256
	KubeProxyMetricsPort   = 10249
	containerdStreamServer = "127.0.0.1"
)

// Files are the configuration files of one node, by their path below the node's
// directory.
type Files map[string][]byte

// Credentials are the PEM blocks the node's kubeconfigs and serving endpoint use.
type Credentials struct {
	CA                                  []byte
	KubeletClientCert, KubeletClientKey []byte
	KubeProxyCert, KubeProxyKey         []byte
	// Admin is kube-router's identity: it lists pods, namespaces, policies and nodes.
	AdminCert, AdminKey []byte
}

// Render writes every configuration file of a worker. Pure: the same layout and
// credentials give the same bytes, which is how up finds a node whose configuration
// changed.
func Render(l Layout, n Node, c Credentials) (Files, error) {
	f := Files{}
	var err error
	if f["config/kubelet.yaml"], err = kubeletConfig(l.Settings, workerKubelet(l.Settings, n)); err != nil {
		return nil, err
	}
	if f["config/kube-proxy.yaml"], err = kubeProxyConfig(l.Settings, n.Path("config", "kube-proxy.kubeconfig"), n.Name, n.NodeIP); err != nil {
		return nil, err
	}
	// A worker reaches the API server at the kubernetes Service's address, which the
	// host forwards to the API server on its loopback: a worker has a loopback of its own.
	server := "https://" + l.Settings.APIServiceIP.String()
	if f["config/kubelet.kubeconfig"], err = kubeconfig(server, "system:node:"+n.Name, c.CA, c.KubeletClientCert, c.KubeletClientKey); err != nil {
		return nil, err
	}
	if f["config/kube-proxy.kubeconfig"], err = kubeconfig(server, "system:kube-proxy", c.CA, c.KubeProxyCert, c.KubeProxyKey); err != nil {
		return nil, err
	}
	if s := l.Settings; s.KubeRouter != "" {
		if f["config/kube-router.kubeconfig"], err = kubeconfig(server, "hco-admin", c.CA, c.AdminCert, c.AdminKey); err != nil {
			return nil, err
		}
	}
	if f["config/containerd.toml"], err = ContainerdConfig(l.Settings, WorkerContainerd(n)); err != nil {
		return nil, err
	}
	if f["cni/net.d/10-hco-pods.conflist"], err = cniConfig(l.Settings, n.PodCIDR, n.Path("cni", "ipam")); err != nil {
		return nil, err
	}
	if s := l.Settings; s.Registry != "" {
		f["config/certs.d/"+s.Registry+"/hosts.toml"] = RegistryHosts(s.Registry)
	}
	if l.Settings.MultusDir != "" {
		wa, err := whereaboutsFiles(server, c)
		if err != nil {
			return nil, err
		}
		for rel, b := range wa {
			f[filepath.Join("cni", "net.d", rel)] = b
		}
	}
	f["config/hosts"] = HostsFile(l, n)
	f["config/crictl.yaml"] = crictlConfig(n.Socket())
	return f, nil
}

// HostsFile is the node's /etc/hosts: localhost, and every worker's name and short
// name at its address, its own first. A machine of a real cluster resolves its own
// name (Hadoop's daemons resolve theirs when they start, and a host-network pod's host
// name is its node's); the kubelet gives host-network pods this file.
func HostsFile(l Layout, n Node) []byte {
	var b strings.Builder
	b.WriteString("127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n")
	line := func(w Node) { fmt.Fprintf(&b, "%s\t%s %s\n", w.NodeIP, w.Name, w.Short) }
	line(n)
	for _, w := range l.Workers {
		if w.Short != n.Short {
			line(w)
		}
	}
	return []byte(b.String())
}

// FirstNode is the first node's name and address on the nodes' network, which
// hack/cluster/env.sh decides (CLUSTER_NODE_NAME, CLUSTER_NODE_IP).
type FirstNode struct {
	Name string
	IP   netip.Addr
}

// DNSTemplates are CoreDNS template blocks that answer the workers' names (A) and
// addresses (PTR), and the first node's address (PTR), for the first node's Corefile
// (hack/cluster/up.sh): a site's DNS names its machines, and YARN's ResourceManager
// resolves every NodeManager's host on whichever node it runs. A name of the workers'
// domain that is no worker's is NXDOMAIN; another address falls through to the
// kubernetes plugin.
//
// The first node's address needs its own answer: the kubernetes plugin answers it with
// the name of any host-network pod behind a headless Service, a different one from
// one lookup to the next, and a NodeManager registers in YARN under the name its
// address looks up to. Registered under one name and restarted under another, it is a
// new node to YARN, whose containers on the old one count as running until YARN gives
// the old one up as lost, ten minutes later. The first node's name is the host's,
// which its /etc/hosts gives another address, so Java takes the address itself for
// the canonical name: one name, whatever runs on the node. A zero first is left out.
func DNSTemplates(l Layout, first FirstNode) []byte {
	var b strings.Builder
	dots := func(s string) string { return strings.ReplaceAll(s, ".", "[.]") }
	ptr := func(ip netip.Addr, name string) {
		o := ip.As4()
		reverse := fmt.Sprintf("%d.%d.%d.%d.in-addr.arpa", o[3], o[2], o[1], o[0])
		fmt.Fprintf(&b, "template IN PTR in-addr.arpa {\n    match ^%s[.]$\n    answer \"{{ .Name }} 60 IN PTR %s.\"\n    fallthrough\n}\n",
			dots(reverse), name)
	}
	if first.Name != "" && first.IP.Is4() {
		ptr(first.IP, first.Name)
	}
	for _, w := range l.Workers {
		fmt.Fprintf(&b, "template IN A %s {\n    match ^%s[.]$\n    answer \"{{ .Name }} 60 IN A %s\"\n    fallthrough\n}\n",
			l.Settings.Domain, dots(w.Name), w.NodeIP)
		// The name exists without other records (AAAA ...): NOERROR, not NXDOMAIN.
		fmt.Fprintf(&b, "template ANY ANY %s {\n    match ^%s[.]$\n    rcode NOERROR\n    fallthrough\n}\n",
			l.Settings.Domain, dots(w.Name))
		ptr(w.NodeIP, w.Name)
	}
	fmt.Fprintf(&b, "template ANY ANY %s {\n    rcode NXDOMAIN\n}\n", l.Settings.Domain)
	return []byte(b.String())
}

// kubeletParams are what differs between nodes' kubelet configurations.
type kubeletParams struct {
	Address                 netip.Addr
	TLSCertFile, TLSKeyFile string
	ClientCAFile            string
	Socket                  string
	// CgroupRoot is empty for the first node, whose kubelet has the host's cgroups.
	CgroupRoot     string
	PodLogsDir     string
	MemoryReserved string
}

// workerKubelet: a worker has its own cgroup root and reserved memory; its paths are
// its own through its mount namespace (/var/lib/kubelet, /var/log/pods).
func workerKubelet(s Settings, n Node) kubeletParams {
	return kubeletParams{
		Address:        n.NodeIP,
		TLSCertFile:    n.Path("pki", "kubelet-serving.crt"),
		TLSKeyFile:     n.Path("pki", "kubelet-serving.key"),
		ClientCAFile:   n.Path("pki", "ca.crt"),
		Socket:         n.Socket(),
		CgroupRoot:     n.CgroupRoot,
		PodLogsDir:     "/var/log/pods",
		MemoryReserved: s.MemoryReservedPerNode,
	}
}

func kubeletConfig(s Settings, p kubeletParams) ([]byte, error) {
	cfg := map[string]any{
		"apiVersion":         "kubelet.config.k8s.io/v1beta1",
		"kind":               "KubeletConfiguration",
		"address":            p.Address.String(),
		"port":               KubeletPort,
		"readOnlyPort":       0,
		"healthzBindAddress": "127.0.0.1",
		"healthzPort":        KubeletHealthzPort,
		"tlsCertFile":        p.TLSCertFile,
		"tlsPrivateKeyFile":  p.TLSKeyFile,
		"authentication": map[string]any{
			"anonymous": map[string]any{"enabled": false},
			"webhook":   map[string]any{"enabled": true},
			"x509":      map[string]any{"clientCAFile": p.ClientCAFile},
		},
		"authorization":            map[string]any{"mode": "Webhook"},
		"containerRuntimeEndpoint": "unix://" + p.Socket,
		// cgroupfs and failCgroupV1: hosts of this kind have cgroup v1 and no systemd.
		"cgroupDriver":  "cgroupfs",
		"failCgroupV1":  false,
		"failSwapOn":    false,
		"clusterDNS":    []string{s.DNSIP.String()},
		"clusterDomain": s.ClusterDomain,
		"podLogsDir":    p.PodLogsDir,
		// Every node shares the host's disk: eviction would only ever act on the pods of
		// whichever node looks first.
		"evictionHard": map[string]string{
			"memory.available":   "100Mi",
			"nodefs.available":   "1%",
			"nodefs.inodesFree":  "1%",
			"imagefs.available":  "1%",
			"imagefs.inodesFree": "1%",
		},
		// Imported images have no registry to be pulled from again.
		"imageGCHighThresholdPercent": 100,
		"imageGCLowThresholdPercent":  99,
		// Images are both imported and pulled from the cluster's registry, which has no
		// credentials: under the default policy a pod that names an imported image
		// after another pulled the same image is refused with ErrImageNeverPull.
		"imagePullCredentialsVerificationPolicy": "NeverVerify",
	}
	if p.CgroupRoot != "" {
		cfg["cgroupRoot"] = p.CgroupRoot
	}
	if p.MemoryReserved != "" {
		cfg["systemReserved"] = map[string]string{"memory": p.MemoryReserved}
	}
	return yaml.Marshal(cfg)
}

// kubeProxyConfig: in iptables mode, which the kubelet and kube-router use too.
// clusterCIDR: traffic to a Service from outside the pod network (the host and
// host-network pods) is masqueraded, so the answer comes back through the node.
// nodePortAddresses: NodePorts only on the node's address, never on the host's other
// addresses nor on loopback (so route_localnet stays as it is).
func kubeProxyConfig(s Settings, kubeconfigPath, nodeName string, nodeIP netip.Addr) ([]byte, error) {
	return yaml.Marshal(map[string]any{
		"apiVersion": "kubeproxy.config.k8s.io/v1alpha1",
		"kind":       "KubeProxyConfiguration",
		"clientConnection": map[string]any{
			"kubeconfig": kubeconfigPath,
		},
		"hostnameOverride":   nodeName,
		"mode":               "iptables",
		"clusterCIDR":        s.PodsCIDR.String(),
		"detectLocalMode":    "ClusterCIDR",
		"nodePortAddresses":  []string{nodeIP.String() + "/32"},
		"healthzBindAddress": fmt.Sprintf("127.0.0.1:%d", KubeProxyHealthzPort),
		"metricsBindAddress": fmt.Sprintf("127.0.0.1:%d", KubeProxyMetricsPort),
		// The host withholds CAP_SYS_RESOURCE, so a negative score would be refused; the
		// zeros leave the kernel's conntrack settings as they are.
		"oomScoreAdj": 0,
		"conntrack": map[string]any{
			"maxPerCore":            0,
			"tcpEstablishedTimeout": "0s",
			"tcpCloseWaitTimeout":   "0s",
			"udpTimeout":            "0s",
			"udpStreamTimeout":      "0s",
		},
	})
}

// kubeconfig reaches the API server at server with a client certificate.
func kubeconfig(server, user string, ca, cert, key []byte) ([]byte, error) {
	enc := base64.StdEncoding.EncodeToString
	return yaml.Marshal(map[string]any{
		"apiVersion": "v1",
		"kind":       "Config",
		"clusters": []any{map[string]any{
			"name": "hco-local",
			"cluster": map[string]any{
				"server":                     server,
				"certificate-authority-data": enc(ca),
			},
		}},
		"users": []any{map[string]any{
			"name": user,
			"user": map[string]any{
				"client-certificate-data": enc(cert),
				"client-key-data":         enc(key),
			},
		}},
		"contexts": []any{map[string]any{
			"name":    "hco-local",
			"context": map[string]any{"cluster": "hco-local", "user": user},
		}},
		"current-context": "hco-local",
	})
}

// containerd's own root, state, sockets and runc root, so that no two nodes'
// containerds see each other's containers: a kubelet removes sandboxes it does not
// know from its runtime.
var containerdTemplate = template.Must(template.New("containerd").Parse(`version = 2
root = "{{.Root}}"
state = "{{.RunDir}}/state"

[grpc]
  address = "{{.Socket}}"

[ttrpc]
  address = "{{.Socket}}.ttrpc"

[plugins."io.containerd.internal.v1.opt"]
  path = "{{.Root}}/opt"

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "{{.PauseImage}}"
  restrict_oom_score_adj = true
  stream_server_address = "{{.StreamServer}}"

  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"

    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"

      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = "{{.RunDir}}/runc"

  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "{{.CNIBinDir}}"
    conf_dir = "{{.CNIConfDir}}"
{{- if .Registry}}

  [plugins."io.containerd.grpc.v1.cri".registry]
    config_path = "{{.CertsDir}}"
{{- end}}
`))

// ContainerdPaths are where one node's containerd keeps its state and reads its
// configuration.
type ContainerdPaths struct {
	// Root holds the content store and snapshots; RunDir the task state and runc's.
	Root, RunDir, Socket string
	CNIConfDir           string
	// CertsDir is containerd's hosts directory (config_path), read with a registry.
	CertsDir string
}

// WorkerContainerd are a worker's paths.
func WorkerContainerd(n Node) ContainerdPaths {
	return ContainerdPaths{Root: n.Path("containerd"), RunDir: n.RunDir, Socket: n.Socket(),
		CNIConfDir: CNIConfDir, CertsDir: n.Path("config", "certs.d")}
}

// ContainerdConfig is the containerd configuration of a node, the first one's
// (hack/cluster/up.sh, through `local-cluster render containerd`) and the workers'.
func ContainerdConfig(s Settings, p ContainerdPaths) ([]byte, error) {
	var b bytes.Buffer
	err := containerdTemplate.Execute(&b, map[string]string{
		"Root":         p.Root,
		"RunDir":       p.RunDir,
		"Socket":       p.Socket,
		"PauseImage":   s.PauseImage,
		"StreamServer": containerdStreamServer,
		"CNIBinDir":    s.CNIBinDir,
		"CNIConfDir":   p.CNIConfDir,
		"Registry":     s.Registry,
		"CertsDir":     p.CertsDir,
	})
	return b.Bytes(), err
}

// RegistryHosts is the hosts.toml that tells containerd the cluster's registry speaks
// plain HTTP.
func RegistryHosts(registry string) []byte {
	return []byte(fmt.Sprintf("server = \"http://%s\"\n\n[host.\"http://%s\"]\n  capabilities = [\"pull\", \"resolve\"]\n", registry, registry))
}

// cniConfig: a bridge of the node's own with the node's pod /24. Pods have no default
// route: they reach the other nodes' pods, the node links (where the cluster DNS and
// host-network pods listen) and the Services through their node, and nothing beyond.
// hairpinMode: a pod that reaches itself through a Service gets its own connection
// back over the same bridge port. containerd reads it for every new sandbox, so a
// change needs no restart.
func cniConfig(s Settings, podCIDR netip.Prefix, ipamDir string) ([]byte, error) {
	routes := []map[string]string{}
	for _, dst := range []string{s.PodsCIDR.String(), s.NodesCIDR.String(), s.ServiceCIDR.String()} {
		routes = append(routes, map[string]string{"dst": dst})
	}
	b, err := json.MarshalIndent(map[string]any{
		"cniVersion": "1.0.0",
		"name":       "hco-pods",
		"plugins": []any{map[string]any{
			"type":        "bridge",
			"bridge":      PodBridge,
			"isGateway":   true,
			"ipMasq":      false,
			"hairpinMode": true,
			"ipam": map[string]any{
				"type":    "host-local",
				"ranges":  [][]map[string]string{{{"subnet": podCIDR.String()}}},
				"routes":  routes,
				"dataDir": ipamDir,
			},
		}},
	}, "", "  ")
	return append(b, '\n'), err
}

// crictlConfig points crictl at a node's containerd: for people,
// `crictl --config <node>/config/crictl.yaml ps`.
func crictlConfig(socket string) []byte {
	return []byte(fmt.Sprintf("runtime-endpoint: unix://%s\nimage-endpoint: unix://%s\ntimeout: 30\n", socket, socket))
}
