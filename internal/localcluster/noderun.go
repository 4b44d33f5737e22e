package localcluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// NodeConfig is what a node's first process needs inside its namespaces; up writes
// it as node.json in the node's directory.
type NodeConfig struct {
	Name string `json:"name"`
	Dir  string `json:"dir"`
	// Binds are host directories bound over fixed paths inside the node: the kubelet's
	// device-plugin socket, CNI's cache and the pod logs live at paths that no flag
	// moves, and only a mount namespace per node keeps them apart.
	Binds []Bind `json:"binds"`
	// Sysctls are set inside the node's network namespace.
	Sysctls map[string]string `json:"sysctls"`
	// Socket is containerd's; PauseArchive is imported into it before the kubelet starts.
	Socket       string `json:"socket"`
	PauseArchive string `json:"pauseArchive,omitempty"`
	// Daemons start in order and stop in reverse order.
	Daemons []Daemon `json:"daemons"`
}

// Bind mounts Source over Target.
type Bind struct {
	Source string `json:"source"`
	Target string `json:"target"`
	// Shared makes the bind a shared mount, whose mounts below reach the node's
	// containers that mount it with HostToContainer propagation.
	Shared bool `json:"shared,omitempty"`
}

// Daemon is one long-running process of the node.
type Daemon struct {
	Name string   `json:"name"`
	Argv []string `json:"argv"`
	// Restart starts the daemon again when it exits, as systemd's Restart=always
	// would; a daemon without it that exits fails the node.
	Restart bool `json:"restart,omitempty"`
}

// NodeConfigFor builds the node's first process's configuration.
func NodeConfigFor(s Settings, n Node, kubelet, kubeProxy []string) NodeConfig {
	cfg := NodeConfig{
		Name: n.Name,
		Dir:  n.Dir,
		Binds: []Bind{
			{Source: n.Path("kubelet"), Target: "/var/lib/kubelet"},
			{Source: n.Path("cni", "state"), Target: "/var/lib/cni"},
			{Source: n.Path("logs", "pods"), Target: "/var/log/pods"},
			{Source: n.Path("logs", "containers"), Target: "/var/log/containers"},
			{Source: n.Path("config", "hosts"), Target: "/etc/hosts"},
			// The node's CNI configuration and Multus daemon's socket, at the paths the
			// Multus DaemonSet mounts on every node (multus.go).
			{Source: n.Path("cni", "net.d"), Target: CNIConfDir},
			{Source: filepath.Join(n.RunDir, "multus"), Target: MultusSocketDir},
			// The pods' network namespaces, where containerd puts them by default and
			// the Multus daemon opens them, as on a real node.
			{Source: filepath.Join(n.RunDir, "netns"), Target: NetNSDir, Shared: true},
		},
		Sysctls: map[string]string{
			// Between the node's link and its pod bridge.
			"net.ipv4.ip_forward": "1",
			// Bridged pod traffic passes iptables, for Services between pods of one node and
			// for NetworkPolicy.
			"net.bridge.bridge-nf-call-iptables": "1",
		},
		Socket:       n.Socket(),
		PauseArchive: s.PauseArchive,
		Daemons: []Daemon{
			{Name: "containerd", Argv: []string{"containerd", "--config", n.Path("config", "containerd.toml")}},
			{Name: "kubelet", Argv: kubelet},
			{Name: "kube-proxy", Argv: kubeProxy},
		},
	}
	if s.KubeRouter != "" {
		// It exits while its Node is not registered yet.
		cfg.Daemons = append(cfg.Daemons, Daemon{Name: "kube-router", Argv: KubeRouterArgv(s, n), Restart: true})
	}
	return cfg
}

// KubeRouterArgv runs kube-router's network-policy controller alone: the bridge CNI
// plugin enforces no NetworkPolicy. --hostname-override names the Node whose
// InternalIP tells the node's own pods; --health-port=0 keeps it off every address.
func KubeRouterArgv(s Settings, n Node) []string {
	return []string{s.KubeRouter, "--run-firewall=true", "--run-router=false", "--run-service-proxy=false",
		"--enable-cni=false", "--kubeconfig=" + n.Path("config", "kube-router.kubeconfig"),
		"--hostname-override=" + n.Name, "--service-cluster-ip-range=" + s.ServiceCIDR.String(),
		"--health-port=0", "--v=1"}
}

// KubeletArgv is the worker's kubelet command line.
func KubeletArgv(s Settings, n Node) []string {
	argv := []string{
		filepath.Join(s.K8sBinDir, "kubelet"),
		"--config=" + n.Path("config", "kubelet.yaml"),
		"--kubeconfig=" + n.Path("config", "kubelet.kubeconfig"),
		"--root-dir=/var/lib/kubelet",
		"--hostname-override=" + n.Name,
		"--node-ip=" + n.NodeIP.String(),
	}
	if n.HostnameLabel != n.Name {
		argv = append(argv, "--node-labels=kubernetes.io/hostname="+n.HostnameLabel)
	}
	return argv
}

// KubeProxyArgv is the worker's kube-proxy command line.
func KubeProxyArgv(s Settings, n Node) []string {
	return []string{filepath.Join(s.K8sBinDir, "kube-proxy"), "--config=" + n.Path("config", "kube-proxy.yaml")}
}

// RunNode is the node's first process, PID 1 of its PID namespace: it prepares the
// mount namespace, starts the daemons, reaps every orphan (containerd's shims are
// re-parented to it), and on SIGTERM stops the daemons in reverse order and returns,
// upon which the kernel ends whatever else runs in the node.
func RunNode(ctx context.Context, cfg NodeConfig) error {
	if err := unix.Sethostname([]byte(cfg.Name)); err != nil {
		return fmt.Errorf("hostname: %w", err)
	}
	if err := prepareMounts(cfg); err != nil {
		return err
	}
	for k, v := range cfg.Sysctls {
		if err := os.WriteFile(sysctlPath(k), []byte(v), 0o644); err != nil {
			return fmt.Errorf("sysctl %s: %w", k, err)
		}
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	sup := newSupervisor(filepath.Join(cfg.Dir, "logs"))
	quit := make(chan struct{})
	go sup.reap(quit)
	defer close(quit)
	defer sup.stopAll()
	for _, d := range cfg.Daemons {
		if err := sup.start(d); err != nil {
			return err
		}
		if d.Name == "containerd" {
			if err := waitSocket(ctx, cfg.Socket, time.Minute); err != nil {
				return err
			}
			if cfg.PauseArchive != "" {
				if err := sup.runOnce(Daemon{Name: "import-pause", Argv: []string{"ctr", "--address", cfg.Socket, "-n", "k8s.io", "images", "import", cfg.PauseArchive}}); err != nil {
					return err
				}
			}
		}
	}
	log("node %s: %d daemons running", cfg.Name, len(cfg.Daemons))
	select {
	case <-ctx.Done():
		log("node %s: stopping", cfg.Name)
		return nil
	case d := <-sup.failed:
		return fmt.Errorf("node %s: %s exited (log: %s)", cfg.Name, d, filepath.Join(cfg.Dir, "logs", d+".log"))
	}
}

// Log writes a line of the launcher's on its standard error.
func Log(format string, a ...any) { log(format, a...) }

func log(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "%s local-cluster: %s\n", time.Now().UTC().Format(time.RFC3339), fmt.Sprintf(format, a...))
}

// prepareMounts: private propagation first (a shared / would carry the node's mounts
// back to the host), then the binds, then the network part of a fresh sysfs over the
// host's, so the kubelet and the CNI plugins see this node's interfaces; the host's
// /sys/fs/cgroup stays.
func prepareMounts(cfg NodeConfig) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making / private: %w", err)
	}
	for _, b := range cfg.Binds {
		if err := bindSource(b.Source); err != nil {
			return err
		}
		if b.Shared {
			// The host's mount there (ip-netns's) goes, with what is below it: a
			// container runtime asks whether the first mount it finds at the target is
			// shared, not the topmost.
			if err := unix.Unmount(b.Target, unix.MNT_DETACH); err != nil && !errors.Is(err, unix.EINVAL) {
				return fmt.Errorf("unmounting the host's %s: %w", b.Target, err)
			}
		}
		if err := unix.Mount(b.Source, b.Target, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("bind %s over %s: %w", b.Source, b.Target, err)
		}
		if b.Shared {
			if err := unix.Mount("", b.Target, "", unix.MS_SHARED, ""); err != nil {
				return fmt.Errorf("making %s shared: %w", b.Target, err)
			}
		}
	}
	sys := filepath.Join(cfg.Dir, "sys")
	if err := os.MkdirAll(sys, 0o755); err != nil {
		return err
	}
	if err := unix.Mount("sysfs", sys, "sysfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("sysfs: %w", err)
	}
	for _, p := range []string{"class/net", "devices/virtual/net"} {
		if err := unix.Mount(filepath.Join(sys, p), filepath.Join("/sys", p), "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("bind sysfs %s: %w", p, err)
		}
	}
	return nil
}

// bindSource makes a directory to bind that does not exist yet; a file (the node's
// /etc/hosts) is bound as it is.
func bindSource(path string) error {
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
		return nil
	}
	return os.MkdirAll(path, 0o755)
}

func waitSocket(ctx context.Context, path string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		c, err := net.Dial("unix", path)
		if err == nil {
			return c.Close()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("containerd's socket %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// ReadNodeConfig reads node.json.
func ReadNodeConfig(path string) (NodeConfig, error) {
	var cfg NodeConfig
	b, err := os.ReadFile(path)
	if err != nil {
		return cfg, err
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		return cfg, fmt.Errorf("%s: %w", path, err)
	}
	if cfg.Name == "" || cfg.Dir == "" || len(cfg.Daemons) == 0 {
		return cfg, errors.New(path + ": name, dir and daemons are required")
	}
	return cfg, nil
}
