package localcluster

import (
	"fmt"
	"net/netip"
	"path/filepath"
	"strings"
)

// Settings are what the local cluster is made of; the defaults match
// hack/cluster/env.sh, which sets up the control plane and the first node.
type Settings struct {
	// ClusterDir holds the cluster's state: pki/ (the CA the nodes' certificates are
	// signed with), and nodes/<short name>/ for each worker.
	ClusterDir string
	// RunDir is the parent of each worker's runtime directory (sockets, containerd
	// state): short, because a unix socket path is limited to 108 bytes.
	RunDir string
	// K8sBinDir holds kubelet and kube-proxy.
	K8sBinDir string
	// PauseArchive is the pause image's OCI archive, imported into every node's
	// containerd before its kubelet starts.
	PauseArchive string
	PauseImage   string
	// CNIBinDir is every node's CNI binary directory: the reference plugins, and with
	// MultusDir set a directory of the cluster's that adds Multus's shim and
	// whereabouts (multus.go).
	CNIBinDir string
	// MultusDir holds what hack/tools/multus.sh builds: Multus's and whereabouts'
	// binaries and CRDs. Empty leaves Multus out.
	MultusDir string
	// Registry, when set, is the cluster's image registry (host:port), which every
	// node's containerd pulls from over plain HTTP.
	Registry string
	// KubeRouter, when set, is kube-router's binary, run on every worker with only its
	// network-policy controller, as hack/cluster/netpol.sh runs it on the first node.
	KubeRouter string

	// Nodes counts every node, the first (in the host's namespaces) included.
	Nodes int
	// Domain is the DNS suffix of the workers' names: real clusters name nodes with
	// dots (FQDNs), and Rook and the connector must cope.
	Domain string
	// ShortLabelNode is the index of the worker whose kubernetes.io/hostname label is
	// its short name instead of its node name, as on clouds where the two differ; 0 for
	// none.
	ShortLabelNode int

	ClusterDomain string
	ServiceCIDR   netip.Prefix
	// APIServiceIP is the kubernetes Service's address, where a proxy on the host
	// forwards to the API server on loopback; the workers reach the API server there.
	APIServiceIP netip.Addr
	// DNSIP is the cluster DNS, on the first node's address.
	DNSIP netip.Addr
	// PodsCIDR is every node's pods; node i (1-based) gets the (i-1)th /24 of it.
	PodsCIDR netip.Prefix
	// NodesCIDR holds the node links: node i's link is the (i-1)th /24, the host's
	// end .1 and the node's .2. The first node's /24 is hack/cluster's own.
	NodesCIDR netip.Prefix
	// DataCIDR is the data network's (datanet.go): node i has its i-th address, and
	// Multus's attachments on the data network give pods addresses from the rest.
	DataCIDR netip.Prefix
	// CephPublicCIDR is Ceph's public network when Rook puts it on the data network
	// (datanet.go): node i's CephShim has its i-th address, and Rook's daemons get
	// addresses from the rest.
	CephPublicCIDR netip.Prefix

	// MemoryReservedPerNode: the kubelet's systemReserved memory, so that the nodes'
	// allocatable memory together stays near the host's instead of N times it.
	MemoryReservedPerNode string
}

// DefaultSettings are hack/cluster/env.sh's values under clusterDir.
func DefaultSettings(clusterDir, k8sBinDir string) Settings {
	return Settings{
		ClusterDir:            clusterDir,
		RunDir:                "/run",
		K8sBinDir:             k8sBinDir,
		PauseImage:            "localhost/pause:3.10",
		CNIBinDir:             "/usr/lib/cni",
		Nodes:                 1,
		Domain:                "hco.test",
		ShortLabelNode:        3,
		ClusterDomain:         "cluster.local",
		ServiceCIDR:           netip.MustParsePrefix("10.96.0.0/16"),
		APIServiceIP:          netip.MustParseAddr("10.96.0.1"),
		DNSIP:                 netip.MustParseAddr("10.118.0.1"),
		PodsCIDR:              netip.MustParsePrefix("10.117.0.0/16"),
		NodesCIDR:             netip.MustParsePrefix("10.118.0.0/16"),
		DataCIDR:              netip.MustParsePrefix("10.119.0.0/16"),
		CephPublicCIDR:        netip.MustParsePrefix("10.119.48.0/20"),
		MemoryReservedPerNode: "",
	}
}

// Node is one worker: its names, addresses and directories.
type Node struct {
	// Index counts from 1, the first node being hack/cluster's; workers start at 2.
	Index int
	// Short is the name of its namespaces, links and directories ("n2").
	Short string
	// Name is the Node object's name, a dotted one.
	Name string
	// HostnameLabel is its kubernetes.io/hostname label.
	HostnameLabel string

	NetNS string
	// HostLink is the host's end of the node's link; the node's end is NodeLink inside
	// its network namespace.
	HostLink string
	HostIP   netip.Addr
	NodeIP   netip.Addr
	LinkCIDR netip.Prefix
	PodCIDR  netip.Prefix
	// PodGateway is the first address of PodCIDR, on the node's pod bridge.
	PodGateway netip.Addr

	Dir    string
	RunDir string
	// CgroupRoot is the kubelet's cgroupRoot: two kubelets under one cgroup root
	// remove each other's pod cgroups.
	CgroupRoot string
}

// NodeLink is the node's end of its link, inside its network namespace. It has the
// name of the first node's link in the host's namespace (hack/cluster's
// CLUSTER_NODE_LINK), so that every node's NIC on the nodes' network has one name, as
// the data NIC of every machine of a real cluster does: a host-network HadoopCluster's
// spec.network.dataInterface names one interface for all its NodeManagers.
const NodeLink = "hco-node0"

// PodBridge is the bridge the CNI plugin plugs the node's pods into, inside its
// network namespace.
const PodBridge = "hco0"

// Layout is the workers of a cluster.
type Layout struct {
	Settings Settings
	Workers  []Node
}

// NewLayout derives the workers' names, addresses and directories from the settings.
func NewLayout(s Settings) (Layout, error) {
	if s.Nodes < 1 {
		return Layout{}, fmt.Errorf("nodes: %d; a cluster has at least one node", s.Nodes)
	}
	for _, p := range []struct {
		name string
		cidr netip.Prefix
	}{{"pods CIDR", s.PodsCIDR}, {"nodes CIDR", s.NodesCIDR}} {
		if !p.cidr.Addr().Is4() || p.cidr.Bits() > 16 {
			return Layout{}, fmt.Errorf("%s %s: must be an IPv4 prefix of /16 or wider (one /24 per node)", p.name, p.cidr)
		}
	}
	if s.Nodes > 254 {
		return Layout{}, fmt.Errorf("nodes: %d; at most 254 fit the /24s of the pods and nodes CIDRs", s.Nodes)
	}
	if s.ClusterDir == "" || !filepath.IsAbs(s.ClusterDir) {
		return Layout{}, fmt.Errorf("cluster directory %q: must be an absolute path", s.ClusterDir)
	}
	l := Layout{Settings: s}
	for i := 2; i <= s.Nodes; i++ {
		l.Workers = append(l.Workers, newNode(s, i))
	}
	return l, nil
}

func newNode(s Settings, i int) Node {
	short := fmt.Sprintf("n%d", i)
	link := subnet24(s.NodesCIDR, i-1)
	pods := subnet24(s.PodsCIDR, i-1)
	name := short + "." + strings.TrimPrefix(s.Domain, ".")
	label := name
	if i == s.ShortLabelNode {
		label = short
	}
	return Node{
		Index:         i,
		Short:         short,
		Name:          name,
		HostnameLabel: label,
		NetNS:         "hco-" + short,
		HostLink:      "hco-" + short + "h",
		HostIP:        nth(link, 1),
		NodeIP:        nth(link, 2),
		LinkCIDR:      link,
		PodCIDR:       pods,
		PodGateway:    nth(pods, 1),
		Dir:           filepath.Join(s.ClusterDir, "nodes", short),
		RunDir:        filepath.Join(s.RunDir, "hco-"+short),
		CgroupRoot:    "/hco-" + short,
	}
}

// Worker finds a worker by its short name or its node name.
func (l Layout) Worker(name string) (Node, bool) {
	for _, n := range l.Workers {
		if n.Short == name || n.Name == name {
			return n, true
		}
	}
	return Node{}, false
}

// subnet24 is the i-th /24 of a /16 (or wider) prefix.
func subnet24(p netip.Prefix, i int) netip.Prefix {
	a := p.Masked().Addr().As4()
	a[2] += byte(i)
	return netip.PrefixFrom(netip.AddrFrom4(a), 24)
}

// nth is the n-th address of a prefix (0 is the network's own).
func nth(p netip.Prefix, n int) netip.Addr {
	a := p.Masked().Addr().As4()
	a[3] += byte(n)
	return netip.AddrFrom4(a)
}

// Socket is the node's containerd socket, on the host's /run.
func (n Node) Socket() string { return filepath.Join(n.RunDir, "containerd.sock") }

// Path joins parts below the node's state directory.
func (n Node) Path(parts ...string) string {
	return filepath.Join(append([]string{n.Dir}, parts...)...)
}
