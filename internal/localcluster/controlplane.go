package localcluster

import (
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
)

// ControlPlane is the first node: the control plane's servers (etcd, the API server,
// the controller manager, the scheduler, CoreDNS, the registry and the proxy that
// serves the kubernetes Service) and a kubelet with containerd and kube-proxy, all in
// the host's own namespaces. Its values are hack/cluster/env.sh's CLUSTER_* settings.
type ControlPlane struct {
	// Settings are the cluster's: its directory, ranges, registry and pause image.
	Settings Settings
	// NodeName is the first node's name: the host's name, lower-cased, as the kubelet
	// registers it.
	NodeName string
	// NodeIP is the first node's address, on the host's end of a veth pair whose other
	// end (PeerIP) is in a network namespace of the cluster's: a real interface's
	// address, which the kubelet takes for a --node-ip, that no packet leaves the host for.
	NodeIP, PeerIP netip.Addr
	// PodCIDR is the first /24 of Settings.PodsCIDR.
	PodCIDR netip.Prefix
	// RunDir holds containerd's sockets and state: short, for the 108 bytes of a unix
	// socket's path.
	RunDir string
	// RegistryDir is the registry's storage, which outlives the cluster.
	RegistryDir string
	// LegacyDNS is the loopback address the dnsmasq of an older cluster answered on,
	// which its pods still have in their resolv.conf: CoreDNS answers there too while
	// that cluster lives. Invalid when there is none.
	LegacyDNS netip.Addr
	Ports     ControlPlanePorts
}

// ControlPlanePorts are the control plane's ports on loopback; the kubelet's and
// kube-proxy's are every node's (KubeletPort ...).
type ControlPlanePorts struct {
	API, EtcdClient, EtcdPeer, ControllerManager, Scheduler int
	// DNSReady is CoreDNS's readiness (its ready plugin).
	DNSReady int
}

// The first node's network: its address's link and the namespace of the link's
// other end, and the CNI network and bridge of its pods.
const (
	FirstNodeNetNS    = "hco-node"
	FirstNodeLink     = NodeLink
	FirstNodePeerLink = "hco-node1"
	CNINetwork        = "hco-pods"
	// CoreDNSUser is CoreDNS's user name towards the API server (its client
	// certificate's CN).
	CoreDNSUser = "hco-coredns"
)

// DefaultControlPlane is env.sh's first node of a cluster with settings s.
func DefaultControlPlane(s Settings, nodeName string) ControlPlane {
	return ControlPlane{
		Settings:    s,
		NodeName:    strings.ToLower(nodeName),
		NodeIP:      nth(s.NodesCIDR, 1),
		PeerIP:      nth(s.NodesCIDR, 2),
		PodCIDR:     subnet24(s.PodsCIDR, 0),
		RunDir:      "/run/hco-containerd",
		RegistryDir: filepath.Join(filepath.Dir(s.ClusterDir), "registry"),
		Ports: ControlPlanePorts{
			API: 6443, EtcdClient: 12379, EtcdPeer: 12380,
			ControllerManager: 10257, Scheduler: 10259, DNSReady: 18181,
		},
	}
}

// Validate says what of the first node cannot work.
func (cp ControlPlane) Validate() error {
	switch {
	case cp.NodeName == "":
		return fmt.Errorf("node name: empty")
	case !cp.NodeIP.Is4() || !cp.PeerIP.Is4():
		return fmt.Errorf("node address %s and peer %s: must be IPv4 addresses", cp.NodeIP, cp.PeerIP)
	case !cp.Settings.NodesCIDR.Contains(cp.NodeIP):
		return fmt.Errorf("node address %s: must be in the nodes' range %s", cp.NodeIP, cp.Settings.NodesCIDR)
	case !cp.Settings.PodsCIDR.Contains(cp.PodCIDR.Addr()):
		return fmt.Errorf("pod range %s: must be in the pods' range %s", cp.PodCIDR, cp.Settings.PodsCIDR)
	case cp.RunDir == "" || !filepath.IsAbs(cp.RunDir):
		return fmt.Errorf("run directory %q: must be an absolute path", cp.RunDir)
	}
	return nil
}

// Path joins parts below the cluster's directory.
func (cp ControlPlane) Path(parts ...string) string {
	return filepath.Join(append([]string{cp.Settings.ClusterDir}, parts...)...)
}

// Socket is containerd's.
func (cp ControlPlane) Socket() string { return filepath.Join(cp.RunDir, "containerd.sock") }

// APIServer is the API server's URL on loopback, where the host's clients reach it.
func (cp ControlPlane) APIServer() string { return fmt.Sprintf("https://127.0.0.1:%d", cp.Ports.API) }

// Kubeconfig is the administrator's kubeconfig, which the scripts and the suite use.
func (cp ControlPlane) Kubeconfig() string { return cp.Path("kubeconfig") }

// Registry is the cluster's registry, on the first node's address.
func (cp ControlPlane) Registry() string { return cp.NodeIP.String() + ":5000" }

// DNSAddresses are where CoreDNS answers.
func (cp ControlPlane) DNSAddresses() []netip.Addr {
	if cp.LegacyDNS.IsValid() {
		return []netip.Addr{cp.NodeIP, cp.LegacyDNS}
	}
	return []netip.Addr{cp.NodeIP}
}

// LegacyDNSAddress is the address an older cluster's dnsmasq answered on
// (config/dnsmasq.conf's listen-address), invalid when there is none.
func LegacyDNSAddress(clusterDir string) netip.Addr {
	b, err := os.ReadFile(filepath.Join(clusterDir, "config", "dnsmasq.conf"))
	if err != nil {
		return netip.Addr{}
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "listen-address="); ok {
			a, _ := netip.ParseAddr(strings.TrimSpace(v))
			return a
		}
	}
	return netip.Addr{}
}

// processes are the pids of the first node's processes called name: their command
// lines name the cluster's directory (the containerd shims, containerd's socket), and
// not a worker's directory, which names the workers' own.
func (cp ControlPlane) processes(name string) []int {
	procs, err := ReadProcs()
	if err != nil {
		return nil
	}
	marker := cp.Settings.ClusterDir + "/"
	if name == "containerd-shim-runc-v2" {
		marker = cp.Socket()
	}
	return OwnProcesses(procs, name, marker, cp.Path("nodes")+"/")
}

// crictl is crictl's command line for the first node's containerd, with explicit
// endpoints: its default is the system containerd's.
func (cp ControlPlane) crictl(bin string) []string {
	sock := "unix://" + cp.Socket()
	return []string{bin, "--config", "/dev/null", "--runtime-endpoint", sock, "--image-endpoint", sock, "--timeout", "30s"}
}
