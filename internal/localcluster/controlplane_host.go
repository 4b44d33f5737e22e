package localcluster

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// What the first node changes on the host, and the records down reads to undo it.

// hostPaths lists the directories at fixed paths that the kubelet, containerd's shims
// and the CNI plugins create when missing, and that this cluster created, for down to
// remove (host-paths, one per line).
func (u *FirstNodeUp) hostPaths(context.Context) error {
	file := u.CP.Path("host-paths")
	listed := map[string]bool{}
	if b, err := os.ReadFile(file); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			listed[l] = true
		}
	}
	var add []string
	for _, p := range []string{"/var/lib/kubelet", "/var/log/containers", "/var/lib/cni", "/run/containerd", "/etc/cni", MultusSocketDir} {
		if !exists(p) && !listed[p] {
			add = append(add, p+"\n")
		}
	}
	if len(add) == 0 {
		return nil
	}
	f, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString(strings.Join(add, ""))
	return err
}

// cniConfDir binds the first node's CNI configuration over CNIConfDir, where the
// Multus DaemonSet finds every node's (a worker binds its own there inside its mount
// namespace), and makes Multus's socket directory. A CNIConfDir with files of the
// host's own is left alone, and up stops.
func (u *FirstNodeUp) cniConfDir(context.Context) error {
	own := u.CP.Path("cni", "net.d")
	if sameFile(own, CNIConfDir) {
		return sharedMount(NetNSDir)
	}
	if err := cniConfDirContent(CNIConfDir); err != nil {
		return err
	}
	for _, dir := range []string{own, CNIConfDir, MultusSocketDir} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	if err := unix.Mount(own, CNIConfDir, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind %s over %s: %w", own, CNIConfDir, err)
	}
	return sharedMount(NetNSDir)
}

// sharedMount makes dir a shared mount, bound over itself first unless it is a mount
// point already (ip-netns makes NetNSDir one, shared).
func sharedMount(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if unix.Mount("", dir, "", unix.MS_SHARED, "") == nil {
		return nil
	}
	if err := unix.Mount(dir, dir, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind %s over itself: %w", dir, err)
	}
	return unix.Mount("", dir, "", unix.MS_SHARED, "")
}

// sameFile: a and b are one file or directory, as a bind mount makes them.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// network gives the first node its address: one end of a veth pair whose other end
// is in a network namespace of the cluster's. The kubernetes Service's address sits on
// the same link, and so does the route to the rest of the Service range: kube-proxy
// rewrites a connection to a Service before it is routed, and one to an address or
// port no Service has ends in that namespace instead of taking the host's default
// route out. Host clients of a Service thereby speak from the node's address.
func (u *FirstNodeUp) network() error {
	cp := u.CP
	if !netnsExists(FirstNodeNetNS) {
		if err := run("ip", "netns", "add", FirstNodeNetNS); err != nil {
			return err
		}
	}
	if !linkExists(FirstNodeLink) {
		log("giving the node its address %s on %s", cp.NodeIP, FirstNodeLink)
		if err := run("ip", "link", "add", FirstNodeLink, "type", "veth", "peer", "name", FirstNodePeerLink, "netns", FirstNodeNetNS); err != nil {
			return err
		}
	}
	for _, c := range FirstNodeNetworkCommands(cp) {
		if err := run(c...); err != nil {
			return err
		}
	}
	if err := setUpDataLink(cp.Settings, 1, ""); err != nil {
		return err
	}
	return setUpCephShim(cp.Settings, 1, "")
}

// FirstNodeNetworkCommands are the idempotent ip(8) commands that address the first
// node's link, once the link exists.
func FirstNodeNetworkCommands(cp ControlPlane) [][]string {
	s := cp.Settings
	// The first node's link is the first /24 of the nodes' range, as a worker's is.
	const prefix = "/24"
	ns := []string{"ip", "-n", FirstNodeNetNS}
	return [][]string{
		{"ip", "addr", "replace", cp.NodeIP.String() + prefix, "dev", FirstNodeLink},
		{"ip", "addr", "replace", s.APIServiceIP.String() + "/32", "dev", FirstNodeLink},
		{"ip", "link", "set", FirstNodeLink, "up"},
		{"ip", "route", "replace", s.ServiceCIDR.String(), "dev", FirstNodeLink, "src", cp.NodeIP.String()},
		append(slices.Clone(ns), "addr", "replace", cp.PeerIP.String()+prefix, "dev", FirstNodePeerLink),
		append(slices.Clone(ns), "link", "set", FirstNodePeerLink, "up"),
		append(slices.Clone(ns), "link", "set", "lo", "up"),
	}
}

// bridgeNetfilter: pods on the bridge reach each other through a Service only when the
// bridge hands their frames to iptables: without it the answer of a pod that
// kube-proxy sent a connection to goes straight back over the bridge, never un-NATed.
// NetworkPolicy needs it too. Down puts the host's value back.
func (u *FirstNodeUp) bridgeNetfilter() error {
	key := "net.bridge.bridge-nf-call-iptables"
	if !exists(sysctlPath(key)) {
		return fmt.Errorf("%s is missing: this kernel has no br_netfilter, which Service routing between pods needs", sysctlPath(key))
	}
	if err := saveHostSysctls(u.CP); err != nil {
		return err
	}
	return os.WriteFile(sysctlPath(key), []byte("1"), 0o644)
}

// hostSysctls are the settings the kubelet changes to what it expects, and
// bridge-nf-call-iptables, which up raises.
var hostSysctls = []string{"vm.overcommit_memory", "vm.panic_on_oom", "kernel.panic", "kernel.panic_on_oops",
	"kernel.keys.root_maxkeys", "kernel.keys.root_maxbytes", "net.bridge.bridge-nf-call-iptables"}

// saveHostSysctls keeps the host's values in host-sysctls (key=value lines), once per
// key, so that down can put them back. A key of a file written by an older version is
// added with its value now, or for bridge-nf-call-iptables with the value an older
// netpol.sh saved before it raised it.
func saveHostSysctls(cp ControlPlane) error {
	file := cp.Path("host-sysctls")
	legacy := cp.Path("netpol-host-sysctl")
	have := map[string]bool{}
	if b, err := os.ReadFile(file); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, _, ok := strings.Cut(l, "="); ok {
				have[k] = true
			}
		}
	}
	var add strings.Builder
	for _, key := range hostSysctls {
		if have[key] {
			continue
		}
		v, err := os.ReadFile(sysctlPath(key))
		if err != nil {
			return err
		}
		if old, err := os.ReadFile(legacy); err == nil && key == "net.bridge.bridge-nf-call-iptables" {
			v = old
		}
		fmt.Fprintf(&add, "%s=%s\n", key, strings.TrimSpace(string(v)))
	}
	if add.Len() > 0 {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		_, err = f.WriteString(add.String())
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	if err := os.Remove(legacy); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// relink points link at target unless it does already.
func relink(link, target string) error {
	if target == "" {
		return nil
	}
	if cur, err := os.Readlink(link); err == nil && cur == target {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		return err
	}
	_ = os.Remove(link)
	return os.Symlink(target, link)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// restoreHostSysctls puts back the values up kept in host-sysctls.
func restoreHostSysctls(cp ControlPlane) error {
	file := cp.Path("host-sysctls")
	f, err := os.Open(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var errs []error
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), "=")
		if !ok {
			continue
		}
		if err := os.WriteFile(sysctlPath(key), []byte(value), 0o644); err != nil {
			errs = append(errs, fmt.Errorf("restoring %s=%s: %w", key, value, err))
		}
	}
	f.Close()
	if len(errs) == 0 {
		errs = append(errs, os.Remove(file))
	}
	return errors.Join(errs...)
}
