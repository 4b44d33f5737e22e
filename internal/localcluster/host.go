package localcluster

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// run runs a command and returns its error with what it printed.
func run(argv ...string) error {
	out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %w: %s", strings.Join(argv, " "), err, bytes.TrimSpace(out))
	}
	return nil
}

func output(argv ...string) (string, error) {
	out, err := exec.Command(argv[0], argv[1:]...).Output()
	if err != nil {
		return "", fmt.Errorf("%s: %w", strings.Join(argv, " "), err)
	}
	return string(out), nil
}

// NetworkCommands are the ip(8) commands that give a worker its link and routes, each
// idempotent: its namespace, a veth pair whose node end is NodeLink, the host's route to
// the node's pods, and the node's routes to every other node's pods, to the node links
// and to the Services through the host. No default route: nothing a node sends leaves
// the host.
func NetworkCommands(s Settings, n Node) [][]string {
	ns := []string{"ip", "-n", n.NetNS}
	via := n.HostIP.String()
	cmds := [][]string{
		{"ip", "addr", "replace", n.HostIP.String() + "/24", "dev", n.HostLink},
		{"ip", "link", "set", n.HostLink, "up"},
		append(slices.Clone(ns), "link", "set", "lo", "up"),
		append(slices.Clone(ns), "addr", "replace", n.NodeIP.String()+"/24", "dev", NodeLink),
		append(slices.Clone(ns), "link", "set", NodeLink, "up"),
		{"ip", "route", "replace", n.PodCIDR.String(), "via", n.NodeIP.String(), "dev", n.HostLink},
	}
	for _, dst := range []string{s.PodsCIDR.String(), s.NodesCIDR.String(), s.ServiceCIDR.String()} {
		cmds = append(cmds, append(slices.Clone(ns), "route", "replace", dst, "via", via, "dev", NodeLink))
	}
	return cmds
}

func netnsExists(name string) bool {
	_, err := os.Stat(filepath.Join("/run/netns", name))
	return err == nil
}

func linkExists(name string) bool {
	_, err := os.Stat(filepath.Join("/sys/class/net", name))
	return err == nil
}

// setUpNetwork makes the worker's namespace and link and its routes.
func setUpNetwork(s Settings, n Node) error {
	if !netnsExists(n.NetNS) {
		if err := run("ip", "netns", "add", n.NetNS); err != nil {
			return err
		}
	}
	if !linkExists(n.HostLink) {
		if err := run("ip", "link", "add", n.HostLink, "type", "veth", "peer", "name", NodeLink, "netns", n.NetNS); err != nil {
			return err
		}
	}
	for _, c := range NetworkCommands(s, n) {
		if err := run(c...); err != nil {
			return err
		}
	}
	if err := setUpDataLink(s, n.Index, n.NetNS); err != nil {
		return err
	}
	return setUpCephShim(s, n.Index, n.NetNS)
}

// tearDownNetwork deletes the namespace, which deletes the pair, its addresses and
// routes, and the pod bridge inside it.
func tearDownNetwork(n Node) error {
	if netnsExists(n.NetNS) {
		if err := run("ip", "netns", "delete", n.NetNS); err != nil {
			return err
		}
	}
	// The kernel deletes the pair with the namespace a moment later: a link still
	// there, or gone under the command, is fine.
	if linkExists(n.HostLink) {
		if err := run("ip", "link", "delete", n.HostLink); err != nil && linkExists(n.HostLink) {
			return err
		}
	}
	return nil
}

// ForwardGuardChain is the host's iptables chain that keeps forwarded traffic of the
// nodes and pods on the host: with forwarding on, nothing from those ranges may leave
// through, or enter from, the interface of the host's default route.
const ForwardGuardChain = "HCO-NODES-FORWARD"

// ForwardGuardRules are the chain's rules for the default route's interface.
func ForwardGuardRules(s Settings, defaultDev string) [][]string {
	var rules [][]string
	for _, cidr := range []string{s.PodsCIDR.String(), s.NodesCIDR.String()} {
		rules = append(rules,
			[]string{"-A", ForwardGuardChain, "-s", cidr, "-o", defaultDev, "-j", "DROP"},
			[]string{"-A", ForwardGuardChain, "-d", cidr, "-i", defaultDev, "-j", "DROP"})
	}
	return rules
}

func defaultRouteDev() (string, error) {
	out, err := output("ip", "-4", "route", "show", "default")
	if err != nil {
		return "", err
	}
	f := strings.Fields(out)
	for i := 0; i+1 < len(f); i++ {
		if f[i] == "dev" {
			return f[i+1], nil
		}
	}
	return "", nil
}

// enableForwarding turns on the host's IPv4 forwarding, which traffic between nodes
// needs (the host routes between their links), behind the guard chain.
func enableForwarding(s Settings, ledger *Ledger) error {
	dev, err := defaultRouteDev()
	if err != nil {
		return err
	}
	if dev != "" {
		if err := ledger.Update(func(l *Ledger) { l.ForwardChain = true }); err != nil {
			return err
		}
		_ = run("iptables", "-w", "-N", ForwardGuardChain)
		if err := run("iptables", "-w", "-F", ForwardGuardChain); err != nil {
			return err
		}
		for _, r := range ForwardGuardRules(s, dev) {
			if err := run(append([]string{"iptables", "-w"}, r...)...); err != nil {
				return err
			}
		}
		if run("iptables", "-w", "-C", "FORWARD", "-j", ForwardGuardChain) != nil {
			if err := run("iptables", "-w", "-I", "FORWARD", "1", "-j", ForwardGuardChain); err != nil {
				return err
			}
		}
	}
	return setSysctl(ledger, "net.ipv4.ip_forward", "1")
}

func removeForwardGuard() error {
	for run("iptables", "-w", "-D", "FORWARD", "-j", ForwardGuardChain) == nil {
	}
	if run("iptables", "-w", "-L", ForwardGuardChain, "-n") != nil {
		return nil
	}
	if err := run("iptables", "-w", "-F", ForwardGuardChain); err != nil {
		return err
	}
	return run("iptables", "-w", "-X", ForwardGuardChain)
}

func sysctlPath(key string) string {
	return filepath.Join("/proc/sys", strings.ReplaceAll(key, ".", "/"))
}

// setSysctl records the host's value in the ledger, then sets the new one.
func setSysctl(ledger *Ledger, key, value string) error {
	old, err := os.ReadFile(sysctlPath(key))
	if err != nil {
		return err
	}
	if strings.TrimSpace(string(old)) == value {
		if _, recorded := ledger.Snapshot().Sysctls[key]; !recorded {
			return nil
		}
	}
	if err := ledger.RecordSysctl(key, strings.TrimSpace(string(old))); err != nil {
		return err
	}
	return os.WriteFile(sysctlPath(key), []byte(value), 0o644)
}

// ensureHostDir creates a mount point on the host, recording it when it is new.
func ensureHostDir(ledger *Ledger, dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := ledger.RecordDir(dir); err != nil {
		return err
	}
	return os.MkdirAll(dir, 0o755)
}

// CgroupHierarchies are the mounted cgroup hierarchies under root (symbolic links to
// co-mounted ones left out); on a host with the unified hierarchy only, root itself.
func CgroupHierarchies(root string) ([]string, error) {
	if _, err := os.Stat(filepath.Join(root, "cgroup.controllers")); err == nil {
		return []string{root}, nil
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && e.Type()&fs.ModeSymlink == 0 {
			out = append(out, filepath.Join(root, e.Name()))
		}
	}
	return out, nil
}

// makeCgroupRoot creates the node's cgroup root in every hierarchy. cpuset needs its
// CPUs and memory nodes set before anything can join it.
func makeCgroupRoot(root, name string) error {
	hs, err := CgroupHierarchies(root)
	if err != nil {
		return err
	}
	for _, h := range hs {
		dir := filepath.Join(h, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for _, f := range []string{"cpuset.cpus", "cpuset.mems"} {
			parent, err := os.ReadFile(filepath.Join(h, f))
			if err != nil {
				continue
			}
			mine, _ := os.ReadFile(filepath.Join(dir, f))
			if len(bytes.TrimSpace(mine)) == 0 {
				if err := os.WriteFile(filepath.Join(dir, f), parent, 0o644); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// removeCgroupRoot kills what still runs below the node's cgroup root (a node killed
// with its pods) and removes the cgroups, deepest first.
func removeCgroupRoot(root, name string) error {
	hs, err := CgroupHierarchies(root)
	if err != nil {
		return err
	}
	var errs []error
	for _, h := range hs {
		top := filepath.Join(h, name)
		var dirs []string
		_ = filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				dirs = append(dirs, p)
			}
			return nil
		})
		for _, d := range dirs {
			killCgroup(d)
		}
		for i := len(dirs) - 1; i >= 0; i-- {
			if err := os.Remove(dirs[i]); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

func killCgroup(dir string) {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		return
	}
	for _, f := range strings.Fields(string(b)) {
		var pid int
		if _, err := fmt.Sscan(f, &pid); err == nil && pid > 1 {
			if p, err := os.FindProcess(pid); err == nil {
				_ = p.Kill()
			}
		}
	}
}
