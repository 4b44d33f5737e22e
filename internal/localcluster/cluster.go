package localcluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// CgroupFS is where the host's cgroup hierarchies are mounted.
const CgroupFS = "/sys/fs/cgroup"

// Cluster acts on the workers of a layout.
type Cluster struct {
	Layout Layout
	// Self is this program's path, which each node runs as its first process.
	Self   string
	ledger *Ledger
	client kubernetes.Interface
}

// Open loads the ledger and connects to the API server with the admin kubeconfig.
func Open(l Layout, self string) (*Cluster, error) {
	ledger, err := LoadLedger(filepath.Join(l.Settings.ClusterDir, "nodes", "ledger.json"))
	if err != nil {
		return nil, err
	}
	c := &Cluster{Layout: l, Self: self, ledger: ledger}
	cfg, err := clientcmd.BuildConfigFromFlags("", filepath.Join(l.Settings.ClusterDir, "kubeconfig"))
	if err == nil {
		cfg.Timeout = 15 * time.Second
		c.client, err = kubernetes.NewForConfig(cfg)
	}
	if err != nil {
		log("no API server client (%v): nodes are neither awaited nor deleted", err)
	}
	return c, nil
}

// Up makes every worker of the layout run with its current configuration, removes
// workers beyond it, and waits until every worker is Ready. Idempotent: a worker
// whose files did not change keeps running.
func (c *Cluster) Up(ctx context.Context, timeout time.Duration) error {
	s := c.Layout.Settings
	for _, short := range c.ledger.Snapshot().Workers {
		if _, ok := c.Layout.Worker(short); !ok {
			log("removing worker %s, beyond the %d nodes asked for", short, s.Nodes)
			if err := c.removeWorker(ctx, newNode(s, indexOf(short))); err != nil {
				return err
			}
		}
	}
	if len(c.Layout.Workers) == 0 {
		// One node: the host needs nothing of the workers' any more.
		return c.Down(ctx, false)
	}
	ca, creds, err := c.credentials()
	if err != nil {
		return err
	}
	if err := enableForwarding(s, c.ledger); err != nil {
		return fmt.Errorf("host forwarding: %w", err)
	}
	for _, dir := range []string{"/var/lib/kubelet", "/var/lib/cni", "/var/log/pods", "/var/log/containers"} {
		if err := ensureHostDir(c.ledger, dir); err != nil {
			return err
		}
	}
	errs := make(chan error, len(c.Layout.Workers))
	for _, n := range c.Layout.Workers {
		go func() { errs <- c.upWorker(n, ca, creds) }()
	}
	var all []error
	for range c.Layout.Workers {
		all = append(all, <-errs)
	}
	if err := errors.Join(all...); err != nil {
		return err
	}
	return c.awaitReady(ctx, timeout)
}

func indexOf(short string) int {
	i, _ := strconv.Atoi(strings.TrimPrefix(short, "n"))
	return i
}

func (c *Cluster) credentials() (CA, Credentials, error) {
	pki := filepath.Join(c.Layout.Settings.ClusterDir, "pki")
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(pki, name))
		if err != nil {
			return nil
		}
		return b
	}
	ca, err := ParseCA(read("ca.crt"), read("ca.key"))
	if err != nil {
		return CA{}, Credentials{}, fmt.Errorf("%s (made by hack/cluster/up.sh): %w", pki, err)
	}
	creds := Credentials{CA: ca.CertPEM, KubeProxyCert: read("kube-proxy.crt"), KubeProxyKey: read("kube-proxy.key"),
		AdminCert: read("admin.crt"), AdminKey: read("admin.key")}
	if creds.KubeProxyCert == nil || creds.KubeProxyKey == nil || creds.AdminCert == nil || creds.AdminKey == nil {
		return CA{}, Credentials{}, fmt.Errorf("%s lacks kube-proxy.crt/key or admin.crt/key (made by hack/cluster/up.sh)", pki)
	}
	return ca, creds, nil
}

// certificate keeps a node's certificate while it names what r asks for.
func certificate(ca CA, dir, name string, r CertRequest) (certPEM, keyPEM []byte, err error) {
	crt, key := filepath.Join(dir, name+".crt"), filepath.Join(dir, name+".key")
	certPEM, errC := os.ReadFile(crt)
	keyPEM, errK := os.ReadFile(key)
	if errC == nil && errK == nil && CertMatches(ca, certPEM, keyPEM, r, time.Now()) {
		return certPEM, keyPEM, nil
	}
	if certPEM, keyPEM, err = ca.Issue(r, time.Now()); err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, err
	}
	if err := os.WriteFile(key, keyPEM, 0o600); err != nil {
		return nil, nil, err
	}
	return certPEM, keyPEM, os.WriteFile(crt, certPEM, 0o644)
}

// writeIfChanged writes b to path unless it holds b already, and says whether it wrote.
func writeIfChanged(path string, b []byte, mode os.FileMode) (bool, error) {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, b) {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, mode); err != nil {
		return false, err
	}
	return true, os.Rename(tmp, path)
}

func (c *Cluster) upWorker(n Node, ca CA, creds Credentials) error {
	s := c.Layout.Settings
	if err := c.ledger.RecordWorker(n.Short); err != nil {
		return err
	}
	pki := n.Path("pki")
	var err error
	if creds.KubeletClientCert, creds.KubeletClientKey, err = certificate(ca, pki, "kubelet", KubeletClient(n)); err != nil {
		return err
	}
	if _, _, err = certificate(ca, pki, "kubelet-serving", KubeletServing(n)); err != nil {
		return err
	}
	files, err := Render(c.Layout, n, creds)
	if err != nil {
		return err
	}
	files["pki/ca.crt"] = ca.CertPEM
	cfg, err := json.MarshalIndent(NodeConfigFor(s, n, KubeletArgv(s, n), KubeProxyArgv(s, n)), "", "  ")
	if err != nil {
		return err
	}
	files["node.json"] = cfg
	changed := false
	for rel, b := range files {
		wrote, err := writeIfChanged(n.Path(rel), b, 0o600)
		if err != nil {
			return err
		}
		changed = changed || wrote
	}
	if err := setUpNetwork(s, n); err != nil {
		return fmt.Errorf("node %s network: %w", n.Name, err)
	}
	if err := makeCgroupRoot(CgroupFS, n.CgroupRoot); err != nil {
		return fmt.Errorf("node %s cgroups: %w", n.Name, err)
	}
	pid := c.nodePID(n)
	if pid != 0 && !changed {
		return nil
	}
	if pid != 0 {
		log("restarting node %s: its configuration changed", n.Name)
		if err := c.stopNode(n, false); err != nil {
			return err
		}
	}
	return c.startNode(n)
}

// StartNode starts a worker whose files up wrote before (a node that comes back after
// a loss).
func (c *Cluster) StartNode(ctx context.Context, name string, timeout time.Duration) error {
	n, ok := c.Layout.Worker(name)
	if !ok {
		return fmt.Errorf("no worker %q in a cluster of %d nodes", name, c.Layout.Settings.Nodes)
	}
	if c.nodePID(n) == 0 {
		if err := c.startNode(n); err != nil {
			return err
		}
	}
	return c.awaitReady(ctx, timeout, n)
}

// StopNode stops a worker: gracefully, or, with kill, all at once as when a machine
// loses power: its kubelet, containerd, kube-proxy and every container end together.
func (c *Cluster) StopNode(name string, kill bool) error {
	n, ok := c.Layout.Worker(name)
	if !ok {
		return fmt.Errorf("no worker %q in a cluster of %d nodes", name, c.Layout.Settings.Nodes)
	}
	return c.stopNode(n, kill)
}

func (c *Cluster) startNode(n Node) error {
	// A node that starts again finds /run empty, as after a reboot.
	if err := os.RemoveAll(n.RunDir); err != nil {
		return err
	}
	for _, d := range []string{n.RunDir, n.Path("logs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	logf, err := os.OpenFile(n.Path("logs", "node.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close()
	// unshare forks the node's first process into new PID, mount, UTS and IPC
	// namespaces; --kill-child ends that process, and with it the whole PID namespace,
	// when unshare itself dies.
	cmd := exec.Command("nsenter", "--net=/run/netns/"+n.NetNS, "--",
		"unshare", "--mount", "--uts", "--ipc", "--pid", "--fork", "--mount-proc", "--propagation", "private",
		"--kill-child", "--", c.Self, "node-run", n.Path("node.json"))
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	log("started node %s (pid %d, log %s)", n.Name, cmd.Process.Pid, n.Path("logs", "node.log"))
	if err := os.WriteFile(n.Path("pid"), []byte(strconv.Itoa(cmd.Process.Pid)), 0o644); err != nil {
		return err
	}
	// Not waited for: the node outlives this command; its exit status is in node.log.
	return cmd.Process.Release()
}

// nodePID is the pid of the unshare process that holds the node, or 0 when the node
// does not run. The command line must name the node's configuration, so a recycled
// pid is never taken for the node.
func (c *Cluster) nodePID(n Node) int {
	b, err := os.ReadFile(n.Path("pid"))
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || !bytes.Contains(cmdline, []byte(n.Path("node.json"))) {
		return 0
	}
	if st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		if f := strings.Fields(string(st[bytes.LastIndexByte(st, ')')+1:])); len(f) > 0 && f[0] == "Z" {
			return 0
		}
	}
	return pid
}

// stopNode: TERM to the node's first process lets it stop its daemons in order; KILL
// to unshare ends the whole PID namespace at once.
func (c *Cluster) stopNode(n Node, kill bool) error {
	pid := c.nodePID(n)
	if pid == 0 {
		return nil
	}
	if !kill {
		if child := firstChild(pid); child != 0 {
			log("stopping node %s", n.Name)
			_ = syscall.Kill(child, syscall.SIGTERM)
			if waitGone(pid, 45*time.Second) {
				return nil
			}
			log("node %s still running after 45 s: killing it", n.Name)
		}
	} else {
		log("killing node %s", n.Name)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	if !waitGone(pid, 30*time.Second) {
		return fmt.Errorf("node %s (pid %d) did not end", n.Name, pid)
	}
	return nil
}

func firstChild(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	child, _ := strconv.Atoi(f[0])
	return child
}

// waitGone waits for a process to exit (its parent, this program or init, reaps it).
func waitGone(pid int, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return true
		}
		if f := strings.Fields(string(st[bytes.LastIndexByte(st, ')')+1:])); len(f) > 0 && f[0] == "Z" {
			return true
		}
		time.Sleep(200 * time.Millisecond)
	}
	return false
}

func (c *Cluster) awaitReady(ctx context.Context, timeout time.Duration, only ...Node) error {
	if c.client == nil {
		return nil
	}
	nodes := only
	if len(nodes) == 0 {
		nodes = c.Layout.Workers
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for _, n := range nodes {
		gone := 0
		for {
			node, err := c.client.CoreV1().Nodes().Get(ctx, n.Name, metav1.GetOptions{})
			if err == nil && nodeReady(node) {
				break
			}
			// Two looks a second apart: while nsenter execs unshare, the process's command
			// line reads empty for a moment, which a single look takes for a stopped node.
			if c.nodePID(n) == 0 {
				if gone++; gone > 1 {
					return fmt.Errorf("node %s stopped (log: %s)", n.Name, n.Path("logs", "node.log"))
				}
			} else {
				gone = 0
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("node %s not Ready after %s (logs: %s)", n.Name, timeout, n.Path("logs"))
			case <-time.After(time.Second):
			}
		}
		log("node %s is Ready", n.Name)
	}
	return nil
}

func nodeReady(n *corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// Down removes every worker the ledger knows and puts the host back: namespaces,
// cgroups, the forwarding guard and sysctls, the mount points it created. The
// workers' image stores and logs stay unless purge.
func (c *Cluster) Down(ctx context.Context, purge bool) error {
	var errs []error
	for _, short := range c.ledger.Snapshot().Workers {
		n := newNode(c.Layout.Settings, indexOf(short))
		if err := c.removeWorker(ctx, n); err != nil {
			errs = append(errs, err)
			continue
		}
		if purge {
			errs = append(errs, os.RemoveAll(n.Dir))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	snap := c.ledger.Snapshot()
	if snap.ForwardChain {
		if err := removeForwardGuard(); err != nil {
			return err
		}
	}
	for key, value := range snap.Sysctls {
		if err := os.WriteFile(sysctlPath(key), []byte(value), 0o644); err != nil {
			return fmt.Errorf("restoring %s=%s: %w", key, value, err)
		}
	}
	for i := len(snap.Dirs) - 1; i >= 0; i-- {
		_ = os.Remove(snap.Dirs[i]) // only when empty: something else may use it now
	}
	err := os.Remove(c.ledger.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

func (c *Cluster) removeWorker(ctx context.Context, n Node) error {
	if err := c.stopNode(n, false); err != nil {
		return err
	}
	var err error
	for range 10 {
		if err = removeCgroupRoot(CgroupFS, n.CgroupRoot); err == nil {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if err != nil {
		return fmt.Errorf("node %s cgroups: %w", n.Name, err)
	}
	if err := tearDownNetwork(n); err != nil {
		return fmt.Errorf("node %s network: %w", n.Name, err)
	}
	if c.client != nil {
		err := c.client.CoreV1().Nodes().Delete(ctx, n.Name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			log("node %s: Node object not deleted: %v", n.Name, err)
		}
	}
	// State that belongs to this run of the node; the image store (containerd/) and
	// the logs stay for the next start and for a look.
	for _, p := range []string{"kubelet", "cni", "config", "pki", "sys", "pid", "node.json"} {
		if err := os.RemoveAll(n.Path(p)); err != nil {
			return err
		}
	}
	if err := os.RemoveAll(n.RunDir); err != nil {
		return err
	}
	return c.ledger.ForgetWorker(n.Short)
}

// Running tells whether a worker's node process runs.
func (c *Cluster) Running(n Node) bool { return c.nodePID(n) != 0 }
