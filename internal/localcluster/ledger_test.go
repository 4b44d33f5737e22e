package localcluster

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestLoadLedgerMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nodes", "ledger.json")
	l, err := LoadLedger(path)
	if err != nil {
		t.Fatal(err)
	}
	snap := l.Snapshot()
	if len(snap.Sysctls) != 0 || len(snap.Dirs) != 0 || len(snap.Workers) != 0 || snap.ForwardChain {
		t.Errorf("new ledger %s, want empty", describe(&snap))
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("loading wrote %s (%v); only an update should", path, err)
	}
}

func TestLoadLedgerCorrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.json")
	if err := os.WriteFile(path, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadLedger(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("error %v, want one naming %s", err, path)
	}
}

func TestLedgerUpdates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nodes", "ledger.json")
	l, err := LoadLedger(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		name string
		do   func() error
		want *Ledger
	}{
		{
			"first sysctl",
			func() error { return l.RecordSysctl("net.ipv4.ip_forward", "0") },
			&Ledger{Sysctls: map[string]string{"net.ipv4.ip_forward": "0"}},
		},
		{
			// The value after the first change is ours, not the host's.
			"same sysctl again",
			func() error { return l.RecordSysctl("net.ipv4.ip_forward", "1") },
			&Ledger{Sysctls: map[string]string{"net.ipv4.ip_forward": "0"}},
		},
		{
			"another sysctl",
			func() error { return l.RecordSysctl("net.bridge.bridge-nf-call-iptables", "0") },
			&Ledger{Sysctls: map[string]string{"net.ipv4.ip_forward": "0", "net.bridge.bridge-nf-call-iptables": "0"}},
		},
		{
			"dir",
			func() error { return l.RecordDir("/var/lib/kubelet") },
			&Ledger{Sysctls: map[string]string{"net.ipv4.ip_forward": "0", "net.bridge.bridge-nf-call-iptables": "0"}, Dirs: []string{"/var/lib/kubelet"}},
		},
		{
			// Dirs keep their order: down removes them last first.
			"dirs, one twice",
			func() error {
				for _, d := range []string{"/var/log/pods", "/var/lib/kubelet", "/var/lib/cni"} {
					if err := l.RecordDir(d); err != nil {
						return err
					}
				}
				return nil
			},
			&Ledger{Sysctls: map[string]string{"net.ipv4.ip_forward": "0", "net.bridge.bridge-nf-call-iptables": "0"}, Dirs: []string{"/var/lib/kubelet", "/var/log/pods", "/var/lib/cni"}},
		},
		{
			"workers, sorted, one twice",
			func() error {
				for _, w := range []string{"n3", "n2", "n3", "n4"} {
					if err := l.RecordWorker(w); err != nil {
						return err
					}
				}
				return nil
			},
			&Ledger{Sysctls: map[string]string{"net.ipv4.ip_forward": "0", "net.bridge.bridge-nf-call-iptables": "0"}, Dirs: []string{"/var/lib/kubelet", "/var/log/pods", "/var/lib/cni"}, Workers: []string{"n2", "n3", "n4"}},
		},
		{
			"forward chain",
			func() error { return l.Update(func(l *Ledger) { l.ForwardChain = true }) },
			&Ledger{Sysctls: map[string]string{"net.ipv4.ip_forward": "0", "net.bridge.bridge-nf-call-iptables": "0"}, Dirs: []string{"/var/lib/kubelet", "/var/log/pods", "/var/lib/cni"}, Workers: []string{"n2", "n3", "n4"}, ForwardChain: true},
		},
		{
			"forget a worker, and one not there",
			func() error {
				if err := l.ForgetWorker("n3"); err != nil {
					return err
				}
				return l.ForgetWorker("n9")
			},
			&Ledger{Sysctls: map[string]string{"net.ipv4.ip_forward": "0", "net.bridge.bridge-nf-call-iptables": "0"}, Dirs: []string{"/var/lib/kubelet", "/var/log/pods", "/var/lib/cni"}, Workers: []string{"n2", "n4"}, ForwardChain: true},
		},
		{
			"forget every worker",
			func() error {
				for _, w := range []string{"n2", "n4"} {
					if err := l.ForgetWorker(w); err != nil {
						return err
					}
				}
				return nil
			},
			&Ledger{Sysctls: map[string]string{"net.ipv4.ip_forward": "0", "net.bridge.bridge-nf-call-iptables": "0"}, Dirs: []string{"/var/lib/kubelet", "/var/log/pods", "/var/lib/cni"}, ForwardChain: true},
		},
	} {
		if err := step.do(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if got := l.Snapshot(); !sameLedger(&got, step.want) {
			t.Errorf("%s: ledger %s, want %s", step.name, describe(&got), describe(step.want))
		}
		// What a run interrupted right now would find on disk.
		reloaded, err := LoadLedger(path)
		if err != nil {
			t.Fatalf("%s: reloading: %v", step.name, err)
		}
		if got := reloaded.Snapshot(); !sameLedger(&got, step.want) {
			t.Errorf("%s: reloaded ledger %s, want %s", step.name, describe(&got), describe(step.want))
		}
	}
	if _, err := os.Stat(path + ".tmp"); !os.IsNotExist(err) {
		t.Errorf("temporary file left behind: %v", err)
	}
}

func TestLedgerSnapshotIsACopy(t *testing.T) {
	l, err := LoadLedger(filepath.Join(t.TempDir(), "ledger.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := l.RecordSysctl("k", "v"); err != nil {
		t.Fatal(err)
	}
	if err := l.RecordWorker("n2"); err != nil {
		t.Fatal(err)
	}
	snap := l.Snapshot()
	snap.Sysctls["k"] = "changed"
	snap.Workers[0] = "changed"
	if again := l.Snapshot(); again.Sysctls["k"] != "v" || again.Workers[0] != "n2" {
		t.Errorf("changing a snapshot changed the ledger: %s", describe(&again))
	}
}

// sameLedger compares the records, treating nil and empty alike.
func sameLedger(a, b *Ledger) bool {
	return maps.Equal(a.Sysctls, b.Sysctls) && slices.Equal(a.Dirs, b.Dirs) &&
		slices.Equal(a.Workers, b.Workers) && a.ForwardChain == b.ForwardChain
}

func describe(l *Ledger) string {
	return fmt.Sprintf("{sysctls %v, dirs %q, workers %q, forward chain %v}", l.Sysctls, l.Dirs, l.Workers, l.ForwardChain)
}
