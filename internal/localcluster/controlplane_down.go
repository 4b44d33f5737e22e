package localcluster

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"
)

// FirstNodeDown stops the control plane and the first node and removes what up made:
// pods and their containers, processes (known by the cluster's paths on their command
// lines), mounts, the pods' bridge, the node's address, kube-proxy's and the kubelet's
// iptables rules, the kubelet's cgroups, the host's settings and the cluster's state.
// Kept for the next start unless Purge: containerd's image store (imported images
// cannot be pulled again), the registry's storage and the logs. Idempotent, and safe
// when nothing runs, also after an interrupted up or down.
type FirstNodeDown struct {
	CP     ControlPlane
	Crictl string
	Purge  bool
}

// Down runs the steps in order; a step that fails is reported after the others ran,
// so that one stuck piece does not leave the rest of the host changed.
func (d *FirstNodeDown) Down() error {
	cp := d.CP
	var errs []error
	note := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	d.stop("kubelet")
	sandboxes := d.sandboxIDs()
	note(d.removePods())
	d.stop("containerd")
	d.stop("containerd-shim-runc-v2")
	killPodProcesses()
	d.stop("kube-proxy", "coredns", "kube-scheduler", "kube-controller-manager")
	d.stop("kubernetes-service-proxy", "kube-apiserver")
	// dnsmasq: the cluster DNS of older clusters.
	d.stop("etcd", "dnsmasq", "registry")
	note(unmountUnder(cp.Settings.ClusterDir, cp.RunDir))
	if sameFile(cp.Path("cni", "net.d"), CNIConfDir) {
		note(unmountUnder(CNIConfDir))
	}
	note(d.removeNetwork())
	note(removeKubepodsCgroups())
	note(restoreHostSysctls(cp))
	note(d.removeHostFiles(sandboxes))
	note(d.removeState())
	return errors.Join(errs...)
}

// stop ends the first node's processes of those names: TERM, then KILL after 30 s.
func (d *FirstNodeDown) stop(names ...string) {
	var pids []int
	for _, name := range names {
		pids = append(pids, d.CP.processes(name)...)
	}
	if len(pids) == 0 {
		return
	}
	log("stopping %s (pid %v)", strings.Join(names, " "), pids)
	StopProcesses(pids, 30*time.Second)
}

// sandboxIDs are the pod sandboxes containerd knows of, dead or alive, from its state.
func (d *FirstNodeDown) sandboxIDs() []string {
	entries, _ := os.ReadDir(filepath.Join(d.CP.RunDir, "state", "io.containerd.grpc.v1.cri", "sandboxes"))
	var ids []string
	for _, e := range entries {
		if e.IsDir() {
			ids = append(ids, e.Name())
		}
	}
	return ids
}

// removePods goes through the CRI, so that containerd also tears the pods' network
// namespaces down and releases their addresses. Removing a container deletes its log
// file, so the pod logs are hard-linked aside first and put back: they stay for a
// look after the cluster.
func (d *FirstNodeDown) removePods() error {
	if d.Crictl == "" || !exists(d.CP.Socket()) || len(d.CP.processes("containerd")) == 0 {
		return nil
	}
	crictl := d.CP.crictl(d.Crictl)
	pods, err := output(append(slices.Clone(crictl), "pods", "-q")...)
	if err != nil || strings.TrimSpace(pods) == "" {
		return nil //nolint:nilerr // a containerd that does not answer has its pods killed below
	}
	log("removing %d pod sandboxes and their containers", len(strings.Fields(pods)))
	logs := d.CP.Path("logs", "pods")
	kept := logs + ".kept"
	_ = os.RemoveAll(kept)
	if exists(logs) {
		if err := run("cp", "-al", logs, kept); err != nil {
			return err
		}
	}
	if err := run(append(crictl, "rmp", "--all", "--force")...); err != nil {
		log("warning: %v; the processes are killed below", err)
	}
	if exists(kept) {
		if err := os.RemoveAll(logs); err != nil {
			return err
		}
		return os.Rename(kept, logs)
	}
	return nil
}

// kubepodsCgroups are the kubelet's pod cgroups of the first node in every hierarchy,
// deepest first. The workers' are below their own cgroup roots.
func kubepodsCgroups() []string {
	hs, err := CgroupHierarchies(CgroupFS)
	if err != nil {
		return nil
	}
	var dirs []string
	for _, h := range hs {
		_ = filepath.WalkDir(filepath.Join(h, "kubepods"), func(p string, e fs.DirEntry, err error) error {
			if err == nil && e.IsDir() {
				dirs = append(dirs, p)
			}
			return nil
		})
	}
	slices.SortStableFunc(dirs, func(a, b string) int { return strings.Count(b, "/") - strings.Count(a, "/") })
	return dirs
}

// killPodProcesses: whatever still runs in a pod cgroup (containerd died before it
// could stop it) belongs to a pod of the first node.
func killPodProcesses() {
	dirs := kubepodsCgroups()
	for _, dir := range dirs {
		killCgroup(dir)
	}
	if len(dirs) > 0 {
		time.Sleep(time.Second)
	}
}

func removeKubepodsCgroups() error {
	n := 0
	for _, dir := range kubepodsCgroups() {
		if os.Remove(dir) == nil {
			n++
		}
	}
	if n > 0 {
		log("removed %d pod cgroups", n)
	}
	if left := kubepodsCgroups(); len(left) > 0 {
		return fmt.Errorf("cgroups left behind: %s", strings.Join(left, " "))
	}
	return nil
}

// unmountUnder unmounts every mount point below the directories, deepest first.
func unmountUnder(dirs ...string) error {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return err
	}
	points := MountsUnder(string(b), dirs...)
	var errs []error
	for _, m := range points {
		if err := syscall.Unmount(m, 0); err != nil {
			if err := syscall.Unmount(m, syscall.MNT_DETACH); err != nil && !errors.Is(err, syscall.EINVAL) {
				errs = append(errs, fmt.Errorf("unmounting %s: %w", m, err))
			}
		}
	}
	if len(points) > 0 {
		log("unmounted %d file systems under %s", len(points), strings.Join(dirs, " and "))
	}
	return errors.Join(errs...)
}

// MountsUnder reads mountinfo for the mount points below the directories, deepest
// first, each once.
func MountsUnder(mountinfo string, dirs ...string) []string {
	seen := map[string]bool{}
	var points []string
	for _, line := range strings.Split(mountinfo, "\n") {
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		// Octal escapes of spaces and the like, as the kernel writes them.
		p := strings.NewReplacer(`\040`, " ", `\011`, "\t", `\012`, "\n", `\134`, `\`).Replace(f[4])
		for _, d := range dirs {
			if strings.HasPrefix(p+"/", strings.TrimSuffix(d, "/")+"/") && !seen[p] {
				seen[p] = true
				points = append(points, p)
			}
		}
	}
	slices.SortStableFunc(points, func(a, b string) int { return len(b) - len(a) })
	return points
}

func (d *FirstNodeDown) removeNetwork() error {
	var errs []error
	if linkExists(PodBridge) {
		log("deleting bridge %s", PodBridge)
		errs = append(errs, run("ip", "link", "delete", PodBridge))
	}
	// Deleting the namespace deletes the veth pair, and with it the node's addresses.
	if netnsExists(FirstNodeNetNS) {
		log("deleting the node's address %s (network namespace %s)", d.CP.NodeIP, FirstNodeNetNS)
		errs = append(errs, run("ip", "netns", "delete", FirstNodeNetNS))
	}
	// The namespace's deletion takes the pair with it a moment later: only a link
	// still there after a failed delete is an error.
	if linkExists(FirstNodeLink) {
		if err := run("ip", "link", "delete", FirstNodeLink); err != nil && linkExists(FirstNodeLink) {
			errs = append(errs, err)
		}
	}
	// The workers' data links went with their namespaces; the first node's goes with
	// the switch.
	errs = append(errs, removeDataSwitch())
	errs = append(errs, removeKubeChains())
	// The bridge plugin adds no rules with ipMasq off; any rule left that names the
	// bridge or the first node's pods is removed.
	for _, table := range []string{"filter", "nat", "mangle"} {
		save, err := output("iptables-save", "-t", table)
		if err != nil {
			continue
		}
		for _, rule := range BridgeRules(save, PodBridge, d.CP.PodCIDR.String()) {
			_ = run(append([]string{"iptables", "-w", "-t", table, "-D"}, rule...)...)
		}
	}
	return errors.Join(errs...)
}

// BridgeRules are the rules of an iptables-save table that name the bridge as an
// interface, or the pod range, as arguments for -D.
func BridgeRules(save, bridge, podCIDR string) [][]string {
	var rules [][]string
	for _, line := range strings.Split(save, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "-A" {
			continue
		}
		for i, a := range f {
			if ((a == "-i" || a == "-o") && i+1 < len(f) && f[i+1] == bridge) || strings.Contains(a, podCIDR) {
				rules = append(rules, f[1:])
				break
			}
		}
	}
	return rules
}

// kubeChains are the chains kube-proxy (its top-level chains and those per Service,
// Service port and endpoint) and the kubelet (KUBE-FIREWALL, which kube-proxy makes
// too, and the canaries) make. kube-proxy's own --cleanup is not used: it also
// flushes every IPVS service of the host.
var kubeChains = regexp.MustCompile(`^KUBE-(SERVICES|EXTERNAL-SERVICES|NODEPORTS|POSTROUTING|MARK-MASQ|FORWARD|PROXY-FIREWALL|PROXY-CANARY|FIREWALL|KUBELET-CANARY|IPTABLES-HINT|(SVC|SVL|EXT|FW|SEP)-[A-Z0-9]+)$`)

// KubeChainsRestore is the iptables-restore --noflush input that removes, from one
// table's iptables-save, the jumps from the built-in chains to kube-proxy's and the
// kubelet's chains, then the chains; empty when the table has none.
func KubeChainsRestore(table, save string) string {
	var chains, deletes []string
	builtin := map[string]bool{"PREROUTING": true, "INPUT": true, "FORWARD": true, "OUTPUT": true, "POSTROUTING": true}
	for _, line := range strings.Split(save, "\n") {
		if name, ok := strings.CutPrefix(line, ":"); ok {
			if c, _, _ := strings.Cut(name, " "); kubeChains.MatchString(c) {
				chains = append(chains, c)
			}
			continue
		}
		f := strings.Fields(line)
		if len(f) >= 4 && f[0] == "-A" && builtin[f[1]] && f[len(f)-2] == "-j" && kubeChains.MatchString(f[len(f)-1]) {
			deletes = append(deletes, "-D "+strings.Join(f[1:], " "))
		}
	}
	if len(chains) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "*%s\n", table)
	for _, d := range deletes {
		b.WriteString(d + "\n")
	}
	for _, c := range chains {
		fmt.Fprintf(&b, "-F %s\n", c)
	}
	for _, c := range chains {
		fmt.Fprintf(&b, "-X %s\n", c)
	}
	b.WriteString("COMMIT\n")
	return b.String()
}

func removeKubeChains() error {
	var errs []error
	for _, family := range []string{"iptables", "ip6tables"} {
		if _, err := exec.LookPath(family + "-save"); err != nil {
			continue
		}
		for _, table := range []string{"filter", "nat", "mangle"} {
			save, err := output(family+"-save", "-t", table)
			if err != nil {
				continue
			}
			in := KubeChainsRestore(table, save)
			if in == "" {
				continue
			}
			log("removing %s chains of kube-proxy and the kubelet from table %s", family, table)
			cmd := exec.Command(family+"-restore", "--noflush")
			cmd.Stdin = strings.NewReader(in)
			if out, err := cmd.CombinedOutput(); err != nil {
				errs = append(errs, fmt.Errorf("%s-restore: %w: %s", family, err, out))
			}
		}
	}
	return errors.Join(errs...)
}

// removeHostFiles removes what the kubelet and the CNI plugins leave at fixed paths:
// the kubelet's device plugin socket, a link per container log into
// /var/log/containers, libcni's result cache entries of the cluster's sandboxes (left
// when containerd died before tearing a pod's network down). Then the directories up
// found missing (host-paths), now empty.
func (d *FirstNodeDown) removeHostFiles(sandboxes []string) error {
	_ = os.Remove("/var/lib/kubelet/device-plugins/kubelet.sock")
	results, _ := filepath.Glob("/var/lib/cni/results/" + CNINetwork + "-*")
	for _, id := range sandboxes {
		more, _ := filepath.Glob("/var/lib/cni/results/*-" + id + "-*")
		results = append(results, more...)
	}
	for _, r := range results {
		_ = os.Remove(r)
	}
	links, _ := filepath.Glob("/var/log/containers/*.log")
	logs := d.CP.Path("logs", "pods") + "/"
	for _, l := range links {
		if target, err := os.Readlink(l); err == nil && strings.HasPrefix(target, logs) {
			_ = os.Remove(l)
		}
	}
	file := d.CP.Path("host-paths")
	b, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, p := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if p != "" {
			removeEmptyDirs(p)
		}
	}
	return os.Remove(file)
}

// removeEmptyDirs removes dir and the empty directories below it, deepest first.
func removeEmptyDirs(dir string) {
	var dirs []string
	_ = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && e.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		_ = os.Remove(dirs[i])
	}
}

func (d *FirstNodeDown) removeState() error {
	cp := d.CP
	errs := []error{os.RemoveAll(cp.RunDir)}
	if d.Purge {
		return errors.Join(append(errs, os.RemoveAll(cp.Settings.ClusterDir), os.RemoveAll(cp.RegistryDir))...)
	}
	for _, p := range []string{"etcd", "pki", "config", "kubelet", "cni", "kubeconfig"} {
		errs = append(errs, os.RemoveAll(cp.Path(p)))
	}
	return errors.Join(errs...)
}
