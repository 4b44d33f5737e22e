// Command local-cluster runs the local Kubernetes (internal/localcluster): the control
// plane and the first node in the host's namespaces, and the worker nodes, each in
// namespaces of its own. hack/cluster/up.sh installs the tools and calls up;
// down.sh calls down before it stops the first node.
//
//	local-cluster up --nodes N       start (or keep) the control plane, the first node and workers 2..N,
//	                                 remove the other workers, wait until every node is Ready
//	local-cluster down [--purge]     stop every node and the control plane, remove what up made, put the host back
//	local-cluster stop NODE [--kill] stop a worker; --kill ends it all at once, as a lost machine
//	local-cluster start NODE         start a stopped worker again and wait until it is Ready
//	local-cluster list               the workers: name, hostname label, address, pod range, state
//	local-cluster multus --image REF install Multus's daemon (its image pushed to the cluster's registry)
//	local-cluster data-rate RATE     limit what each node receives on the data network (1gbit, 10gbit; "unlimited" lifts it)
//	local-cluster node-run FILE      a node's first process, inside its namespaces (run by up)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/localcluster"
)

func main() {
	// A descriptor inherited from the caller (the cluster scripts' lock) must not
	// reach the nodes, which outlive the caller.
	_ = unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC)
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "local-cluster: error:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New("usage: local-cluster up|down|stop|start|list|multus|data-rate|node-run (see the package comment)")
	}
	if args[0] == "node-run" {
		if len(args) != 2 {
			return fmt.Errorf("usage: local-cluster node-run FILE")
		}
		cfg, err := localcluster.ReadNodeConfig(args[1])
		if err != nil {
			return err
		}
		return localcluster.RunNode(context.Background(), cfg)
	}

	var o options
	fs := newFlagSet(args[0], &o)
	flagArgs, positional := splitArgs(fs, args[1:])
	err := fs.Parse(flagArgs)
	if err != nil {
		return err
	}
	if args[0] != "up" && !isSet(fs, "nodes") {
		// The cluster as up left it.
		if o.nodes, err = localcluster.LedgerNodes(o.clusterDir); err != nil {
			return err
		}
	}
	s := localcluster.DefaultSettings(o.clusterDir, o.k8sBin)
	s.Nodes, s.PauseArchive, s.PauseImage, s.MemoryReservedPerNode = o.nodes, o.pause, o.pauseImage, o.memory
	s.KubeRouter, s.Registry = o.kubeRouter, o.registry
	if o.multusDir != "" {
		// The reference plugins and Multus's binaries in one directory of the cluster's.
		s.MultusDir, s.CNIBinDir = o.multusDir, filepath.Join(o.clusterDir, "cni-bin")
	}
	if o.nodeIP != "" {
		// The cluster DNS answers on the first node's address.
		if s.DNSIP, err = netip.ParseAddr(o.nodeIP); err != nil {
			return fmt.Errorf("--node-ip: %w", err)
		}
	}
	layout, err := localcluster.NewLayout(s)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if args[0] == "multus" {
		if o.k8sBin == "" || o.multusDir == "" {
			return fmt.Errorf("multus: --k8s-bin and --multus-dir are required")
		}
		return localcluster.InstallMultus(s, filepath.Join(o.k8sBin, "kubectl"),
			filepath.Join(o.clusterDir, "kubeconfig"), o.multusImage, o.timeout)
	}
	if args[0] == "up" {
		if o.k8sBin == "" {
			return fmt.Errorf("up: --k8s-bin is required")
		}
		if s.MultusDir != "" {
			if err := localcluster.EnsureCNIBinDir(s, o.cniPlugins); err != nil {
				return err
			}
		}
		// The first node before the workers' client: its start writes the kubeconfig
		// the workers are awaited with.
		if err := upFirstNode(ctx, o, layout); err != nil {
			return err
		}
	}
	c, err := localcluster.Open(layout, self)
	if err != nil {
		return err
	}

	switch args[0] {
	case "up":
		return c.Up(ctx, o.timeout)
	case "down":
		// The workers first, while the API server still answers (their Node objects go).
		if err := c.Down(ctx, o.purge); err != nil {
			return err
		}
		cp, err := firstNode(o, layout)
		if err != nil {
			return err
		}
		return (&localcluster.FirstNodeDown{CP: cp, Crictl: o.bins.Crictl, Purge: o.purge}).Down()
	case "stop":
		if len(positional) != 1 {
			return fmt.Errorf("usage: local-cluster stop NODE [--kill] --nodes N")
		}
		return c.StopNode(positional[0], o.kill)
	case "start":
		if len(positional) != 1 {
			return fmt.Errorf("usage: local-cluster start NODE --nodes N")
		}
		return c.StartNode(ctx, positional[0], o.timeout)
	case "data-rate":
		if len(positional) != 1 {
			return fmt.Errorf("usage: local-cluster data-rate RATE|unlimited")
		}
		rate := positional[0]
		if rate == "unlimited" {
			rate = ""
		}
		return localcluster.SetDataRate(o.nodes, rate)
	case "list":
		w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "NAME\tHOSTNAME LABEL\tADDRESS\tPODS\tNETNS\tRUNNING")
		for _, n := range layout.Workers {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%v\n", n.Name, n.HostnameLabel, n.NodeIP, n.PodCIDR, n.NetNS, c.Running(n))
		}
		return w.Flush()
	}
	return fmt.Errorf("unknown command %q (up, down, stop, start, list, multus, data-rate)", args[0])
}

type options struct {
	clusterDir, k8sBin, pause, pauseImage, kubeRouter, memory, registry string
	multusDir, multusImage, cniPlugins                                  string
	nodes                                                               int
	timeout                                                             time.Duration
	purge, kill                                                         bool

	// The first node's.
	nodeName, nodeIP, peerIP, registryDir string
	etcdPort, etcdPeerPort                int
	bins                                  localcluster.Binaries
}

func newFlagSet(name string, o *options) *flag.FlagSet {
	home, _ := os.UserHomeDir()
	cache := envOr("HCO_CACHE", filepath.Join(home, ".cache", "hadoop-ceph-operator"))
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.StringVar(&o.clusterDir, "cluster-dir", envOr("HCO_CLUSTER_DIR", filepath.Join(cache, "cluster")), "the local cluster's state directory")
	fs.StringVar(&o.k8sBin, "k8s-bin", "", "directory of kubelet and kube-proxy (required for up)")
	fs.StringVar(&o.pause, "pause-archive", "", "the pause image's OCI archive, imported into each node")
	fs.StringVar(&o.pauseImage, "pause-image", "localhost/pause:3.10", "the sandbox image's reference")
	fs.IntVar(&o.nodes, "nodes", 1, "nodes in the cluster, the first (hack/cluster's) included")
	fs.StringVar(&o.registry, "registry", "", "the cluster's image registry (host:port), which the workers pull from over HTTP")
	fs.StringVar(&o.kubeRouter, "kube-router", "", "kube-router's binary: enforce NetworkPolicy on the workers")
	fs.StringVar(&o.memory, "memory-reserved", "", "memory each worker's kubelet reserves (systemReserved), e.g. 16Gi")
	fs.StringVar(&o.multusDir, "multus-dir", "", "Multus's and whereabouts' binaries and CRDs (hack/tools/multus.sh): every node gets them")
	fs.StringVar(&o.multusImage, "image", "", "multus: the Multus daemon's image, as the nodes pull it")
	fs.StringVar(&o.cniPlugins, "cni-plugins", "/usr/lib/cni", "up: the reference CNI plugins (Debian's containernetworking-plugins)")
	fs.DurationVar(&o.timeout, "timeout", 3*time.Minute, "how long to wait for Ready nodes")
	fs.BoolVar(&o.purge, "purge", false, "down: also remove the workers' image stores and logs")
	fs.BoolVar(&o.kill, "kill", false, "stop: end the node at once, as a machine that loses power")
	hostname, _ := os.Hostname()
	fs.StringVar(&o.nodeName, "node-name", hostname, "up: the first node's name (lower-cased)")
	fs.StringVar(&o.nodeIP, "node-ip", "", "up: the first node's address (default: the nodes' range's first)")
	fs.StringVar(&o.peerIP, "peer-ip", "", "up: the address of the first node's link's other end (default: the range's second)")
	fs.IntVar(&o.etcdPort, "etcd-port", 12379, "up: etcd's client port, on loopback")
	fs.IntVar(&o.etcdPeerPort, "etcd-peer-port", 12380, "up: etcd's peer port, on loopback")
	fs.StringVar(&o.registryDir, "registry-dir", filepath.Join(cache, "registry"), "up: the registry's storage")
	fs.StringVar(&o.bins.Containerd, "containerd", "/usr/bin/containerd", "up: containerd's binary")
	fs.StringVar(&o.bins.Socat, "socat", "/usr/bin/socat", "up: socat's binary, the kubernetes Service's proxy")
	fs.StringVar(&o.bins.CoreDNS, "coredns", "", "up: CoreDNS's binary (hack/tools/coredns.sh)")
	fs.StringVar(&o.bins.Registry, "registry-bin", "", "up: the registry's binary (hack/tools/registry.sh)")
	fs.StringVar(&o.bins.Crictl, "crictl", "", "up: crictl's binary")
	return fs
}

// firstNode is the control plane and first node the flags describe.
func firstNode(o options, l localcluster.Layout) (localcluster.ControlPlane, error) {
	cp := localcluster.DefaultControlPlane(l.Settings, o.nodeName)
	for _, a := range []struct {
		flag, value string
		to          *netip.Addr
	}{{"node-ip", o.nodeIP, &cp.NodeIP}, {"peer-ip", o.peerIP, &cp.PeerIP}} {
		if a.value == "" {
			continue
		}
		ip, err := netip.ParseAddr(a.value)
		if err != nil {
			return cp, fmt.Errorf("--%s: %w", a.flag, err)
		}
		*a.to = ip
	}
	cp.Ports.EtcdClient, cp.Ports.EtcdPeer = o.etcdPort, o.etcdPeerPort
	cp.RegistryDir = o.registryDir
	cp.LegacyDNS = localcluster.LegacyDNSAddress(l.Settings.ClusterDir)
	return cp, cp.Validate()
}

// upFirstNode starts (or keeps) the control plane and the first node.
func upFirstNode(ctx context.Context, o options, l localcluster.Layout) error {
	if o.bins.CoreDNS == "" {
		return errors.New("up: --coredns is required")
	}
	if l.Settings.Registry != "" && o.bins.Registry == "" {
		return errors.New("up: --registry-bin is required with --registry")
	}
	cp, err := firstNode(o, l)
	if err != nil {
		return fmt.Errorf("up: %w", err)
	}
	o.bins.K8sBinDir = o.k8sBin
	u := &localcluster.FirstNodeUp{CP: cp, Layout: l, Binaries: o.bins, PauseArchive: o.pause}
	start := time.Now()
	if err := u.Up(ctx); err != nil {
		return err
	}
	if len(u.Started) == 0 {
		localcluster.Log("the control plane and node %s were already up (%s)", cp.NodeName, time.Since(start).Round(time.Second))
	} else {
		localcluster.Log("the control plane and node %s up in %s (started %s)", cp.NodeName, time.Since(start).Round(time.Second), strings.Join(u.Started, " "))
	}
	return nil
}

// splitArgs lets flags follow a positional argument (stop n2 --kill); after "--"
// everything is positional.
func splitArgs(fs *flag.FlagSet, args []string) (flags, positional []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return flags, append(positional, args[i+1:]...)
		case len(a) > 1 && a[0] == '-':
			flags = append(flags, a)
			if !strings.Contains(a, "=") && takesValue(fs, a) && i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
		default:
			positional = append(positional, a)
		}
	}
	return flags, positional
}

// takesValue: a flag the set knows that is not boolean. An unknown one is left for
// the FlagSet to refuse.
func takesValue(fs *flag.FlagSet, a string) bool {
	f := fs.Lookup(strings.TrimLeft(a, "-"))
	if f == nil {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
