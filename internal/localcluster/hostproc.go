package localcluster

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ProcInfo is a process of the host's process table.
type ProcInfo struct {
	PID, PPID int
	Argv      []string
}

// ReadProcs reads the host's process table from /proc. A process that ends while it
// is read is left out.
func ReadProcs() ([]ProcInfo, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var procs []ProcInfo
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || len(cmdline) == 0 {
			continue // gone, or a kernel thread, or exiting
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		ppid, state := parseStat(stat)
		if state == "Z" {
			continue
		}
		procs = append(procs, ProcInfo{PID: pid, PPID: ppid, Argv: strings.Split(strings.TrimSuffix(string(cmdline), "\x00"), "\x00")})
	}
	return procs, nil
}

// parseStat reads the parent and the state from /proc/PID/stat, whose second field
// (the command, in parentheses) may hold spaces and parentheses.
func parseStat(stat []byte) (ppid int, state string) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, ""
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 2 {
		return 0, ""
	}
	ppid, _ = strconv.Atoi(f[1])
	return ppid, f[0]
}

// OwnProcesses are the processes called name (their first argument's base name) whose
// command line contains marker and not exclude: the first node's daemons name the
// cluster's directory (the shims of its containerd, its socket), the workers' name
// their own node's directory (exclude). A process whose parent is also listed is left
// out: it ends with its parent (a connection of the service proxy).
func OwnProcesses(procs []ProcInfo, name, marker, exclude string) []int {
	ours := map[int]int{}
	for _, p := range procs {
		line := strings.Join(p.Argv, " ")
		if filepath.Base(p.Argv[0]) == name && strings.Contains(line, marker) && (exclude == "" || !strings.Contains(line, exclude)) {
			ours[p.PID] = p.PPID
		}
	}
	var pids []int
	for pid, ppid := range ours {
		if _, child := ours[ppid]; !child {
			pids = append(pids, pid)
		}
	}
	slices.Sort(pids)
	return pids
}

// argvOf is a running process's command line, nil once it is gone.
func argvOf(pid int) []string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
}

// alive are those of pids that have not finished exiting: a zombie has (its sockets
// are closed).
func alive(pids []int) []int {
	var left []int
	for _, pid := range pids {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		if _, state := parseStat(b); state != "" && state != "Z" {
			left = append(left, pid)
		}
	}
	return left
}

// StopProcesses sends TERM, then KILL to those still there after grace, and waits
// for them to be gone.
func StopProcesses(pids []int, grace time.Duration) {
	signalAll := func(sig syscall.Signal) {
		for _, pid := range pids {
			_ = syscall.Kill(pid, sig)
		}
	}
	signalAll(syscall.SIGTERM)
	if waitAllGone(pids, grace) {
		return
	}
	log("killing pid %v, still there after %s", alive(pids), grace)
	signalAll(syscall.SIGKILL)
	waitAllGone(pids, 10*time.Second)
}

func waitAllGone(pids []int, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for len(alive(pids)) > 0 {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(200 * time.Millisecond)
	}
	return true
}

// StartDetached starts a daemon in a session of its own that outlives the caller,
// with its output appended to logFile after a line that says when and what.
func StartDetached(p HostProcess, logFile string) error {
	if err := os.MkdirAll(filepath.Dir(logFile), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer out.Close()
	fmt.Fprintf(out, "\n==== %s %s\n", time.Now().UTC().Format(time.RFC3339), strings.Join(p.Argv, " "))
	cmd := exec.Command(p.Argv[0], p.Argv[1:]...)
	cmd.Env = append(os.Environ(), p.Env...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", p.Name, err)
	}
	return cmd.Process.Release()
}

// Listening tells whether something listens on ap, or on its port at every address,
// over TCP or UDP, from the kernel's socket tables.
func Listening(ap netip.AddrPort) bool {
	for _, t := range []struct {
		file  string
		state string
	}{{"/proc/net/tcp", "0A"}, {"/proc/net/tcp6", "0A"}, {"/proc/net/udp", "07"}, {"/proc/net/udp6", "07"}} {
		f, err := os.Open(t.file)
		if err != nil {
			continue
		}
		found := listensIn(bufio.NewScanner(f), t.state, ap)
		f.Close()
		if found {
			return true
		}
	}
	return false
}

// listensIn reads a /proc/net table: a socket in state (0A: TCP LISTEN, 07: an unconnected
// UDP socket) bound to ap's address or to the wildcard, on ap's port.
func listensIn(sc *bufio.Scanner, state string, ap netip.AddrPort) bool {
	sc.Scan() // the header
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || f[3] != state {
			continue
		}
		local, err := parseProcAddr(f[1])
		if err != nil || local.Port() != ap.Port() {
			continue
		}
		a := local.Addr().Unmap()
		if a == ap.Addr() || a.IsUnspecified() {
			return true
		}
	}
	return false
}

// parseProcAddr reads "0100007F:1A0B" (IPv4) or the 32-digit IPv6 form: the address
// in host byte order, 32 bits at a time, then the port in hex.
func parseProcAddr(s string) (netip.AddrPort, error) {
	host, port, ok := strings.Cut(s, ":")
	if !ok {
		return netip.AddrPort{}, fmt.Errorf("%q: no port", s)
	}
	raw, err := hex.DecodeString(host)
	if err != nil || (len(raw) != 4 && len(raw) != 16) {
		return netip.AddrPort{}, fmt.Errorf("%q: bad address", s)
	}
	for i := 0; i < len(raw); i += 4 {
		raw[i], raw[i+1], raw[i+2], raw[i+3] = raw[i+3], raw[i+2], raw[i+1], raw[i]
	}
	p, err := strconv.ParseUint(port, 16, 16)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("%q: bad port", s)
	}
	a, _ := netip.AddrFromSlice(raw)
	return netip.AddrPortFrom(a, uint16(p)), nil
}
