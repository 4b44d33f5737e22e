// Command local-cluster runs the local Kubernetes's worker nodes, each in namespaces
// of its own (internal/localcluster). hack/cluster/up.sh and down.sh call it after
// and before the control plane and the first node.
//
//	local-cluster up --nodes N       start (or keep) workers 2..N, remove the others, wait until Ready
//	local-cluster down [--purge]     remove every worker and put the host back
//	local-cluster stop NODE [--kill] stop a worker; --kill ends it all at once, as a lost machine
//	local-cluster start NODE         start a stopped worker again and wait until it is Ready
//	local-cluster list               the workers: name, hostname label, address, pod range, state
//	local-cluster node-run FILE      a node's first process, inside its namespaces (run by up)
//	local-cluster render containerd|registry-hosts|dns ...
//	                                 the first node's containerd.toml and hosts.toml (hack/cluster/up.sh)
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
		return errors.New("usage: local-cluster up|down|stop|start|list|node-run (see the package comment)")
	}
	if args[0] == "render" {
		return render(args[1:])
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
	layout, err := localcluster.NewLayout(s)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	c, err := localcluster.Open(layout, self)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	switch args[0] {
	case "up":
		if o.k8sBin == "" {
			return fmt.Errorf("up: --k8s-bin is required")
		}
		return c.Up(ctx, o.timeout)
	case "down":
		return c.Down(ctx, o.purge)
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
	case "list":
		w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "NAME\tHOSTNAME LABEL\tADDRESS\tPODS\tNETNS\tRUNNING")
		for _, n := range layout.Workers {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%v\n", n.Name, n.HostnameLabel, n.NodeIP, n.PodCIDR, n.NetNS, c.Running(n))
		}
		return w.Flush()
	}
	return fmt.Errorf("unknown command %q (up, down, stop, start, list)", args[0])
}

type options struct {
	clusterDir, k8sBin, pause, pauseImage, kubeRouter, memory, registry string
	nodes                                                               int
	timeout                                                             time.Duration
	purge, kill                                                         bool
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
	fs.DurationVar(&o.timeout, "timeout", 3*time.Minute, "how long to wait for Ready nodes")
	fs.BoolVar(&o.purge, "purge", false, "down: also remove the workers' image stores and logs")
	fs.BoolVar(&o.kill, "kill", false, "stop: end the node at once, as a machine that loses power")
	return fs
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

// render prints a configuration file of the first node, which hack/cluster/up.sh
// writes: the same code renders the workers' own.
func render(args []string) error {
	if len(args) == 0 {
		return errors.New("usage: local-cluster render containerd|registry-hosts|dns [flags]")
	}
	fs := flag.NewFlagSet("render "+args[0], flag.ContinueOnError)
	var p localcluster.ContainerdPaths
	s := localcluster.DefaultSettings("/", "")
	fs.StringVar(&p.Root, "root", "", "containerd's root")
	fs.StringVar(&p.RunDir, "run-dir", "", "containerd's state and runc's root are below it")
	fs.StringVar(&p.Socket, "socket", "", "containerd's socket")
	fs.StringVar(&p.CNIConfDir, "cni-conf-dir", "", "the CNI configuration directory")
	fs.StringVar(&p.CertsDir, "certs-dir", "", "containerd's hosts directory")
	fs.StringVar(&s.PauseImage, "pause-image", s.PauseImage, "the sandbox image")
	fs.StringVar(&s.Registry, "registry", "", "the cluster's registry (host:port)")
	fs.IntVar(&s.Nodes, "nodes", 1, "dns: nodes in the cluster, the first included")
	var first localcluster.FirstNode
	var firstIP string
	fs.StringVar(&first.Name, "first-node-name", "", "dns: the first node's name, which its address looks up to")
	fs.StringVar(&firstIP, "first-node-ip", "", "dns: the first node's address on the nodes' network")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if firstIP != "" {
		ip, err := netip.ParseAddr(firstIP)
		if err != nil {
			return fmt.Errorf("render dns: --first-node-ip: %w", err)
		}
		first.IP = ip
	}
	var (
		b   []byte
		err error
	)
	switch args[0] {
	case "containerd":
		if p.Root == "" || p.RunDir == "" || p.Socket == "" || p.CNIConfDir == "" {
			return errors.New("render containerd: --root, --run-dir, --socket and --cni-conf-dir are required")
		}
		b, err = localcluster.ContainerdConfig(s, p)
	case "registry-hosts":
		if s.Registry == "" {
			return errors.New("render registry-hosts: --registry is required")
		}
		b = localcluster.RegistryHosts(s.Registry)
	case "dns":
		var l localcluster.Layout
		if l, err = localcluster.NewLayout(s); err == nil {
			b = localcluster.DNSTemplates(l, first)
		}
	default:
		return fmt.Errorf("render: unknown file %q (containerd, registry-hosts, dns)", args[0])
	}
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(b)
	return err
}
