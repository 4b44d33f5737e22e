package localcluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// Ledger records every change up makes to the host before it makes it, so that down
// puts the host back as it was even when up was interrupted halfway.
type Ledger struct {
	path string
	mu   sync.Mutex
	// Sysctls holds the host's value of each key changed, taken before the first change.
	Sysctls map[string]string `json:"sysctls,omitempty"`
	// Dirs are host directories created (mount points), removed when empty.
	Dirs []string `json:"dirs,omitempty"`
	// Workers are the nodes started, by short name, whose namespaces, cgroups and
	// state down removes.
	Workers []string `json:"workers,omitempty"`
	// ForwardChain tells that the host's FORWARD chain jumps to our guard chain.
	ForwardChain bool `json:"forwardChain,omitempty"`
}

// LoadLedger reads the ledger at path, or starts an empty one.
func LoadLedger(path string) (*Ledger, error) {
	l := &Ledger{path: path, Sysctls: map[string]string{}}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, l); err != nil {
		return nil, fmt.Errorf("ledger %s: %w", path, err)
	}
	if l.Sysctls == nil {
		l.Sysctls = map[string]string{}
	}
	return l, nil
}

// Update applies change under the ledger's lock and writes the ledger to disk before
// returning, so the record is on disk before the host is changed.
func (l *Ledger) Update(change func(*Ledger)) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	change(l)
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(l.path), 0o755); err != nil {
		return err
	}
	tmp := l.path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, l.path)
}

// RecordSysctl keeps key's original value, once.
func (l *Ledger) RecordSysctl(key, value string) error {
	return l.Update(func(l *Ledger) {
		if _, ok := l.Sysctls[key]; !ok {
			l.Sysctls[key] = value
		}
	})
}

// RecordDir notes a host directory about to be created.
func (l *Ledger) RecordDir(dir string) error {
	return l.Update(func(l *Ledger) {
		if !slices.Contains(l.Dirs, dir) {
			l.Dirs = append(l.Dirs, dir)
		}
	})
}

// RecordWorker notes a worker about to be set up.
func (l *Ledger) RecordWorker(short string) error {
	return l.Update(func(l *Ledger) {
		if !slices.Contains(l.Workers, short) {
			l.Workers = append(l.Workers, short)
			slices.Sort(l.Workers)
		}
	})
}

// ForgetWorker drops a worker that down removed.
func (l *Ledger) ForgetWorker(short string) error {
	return l.Update(func(l *Ledger) {
		l.Workers = slices.DeleteFunc(l.Workers, func(w string) bool { return w == short })
	})
}

// Snapshot copies the ledger's records for reading without the lock.
func (l *Ledger) Snapshot() Ledger {
	l.mu.Lock()
	defer l.mu.Unlock()
	return Ledger{
		Sysctls:      maps.Clone(l.Sysctls),
		Dirs:         slices.Clone(l.Dirs),
		Workers:      slices.Clone(l.Workers),
		ForwardChain: l.ForwardChain,
	}
}

// LedgerNodes is the node count of the cluster that up last left under clusterDir:
// one more than its highest worker's index.
func LedgerNodes(clusterDir string) (int, error) {
	l, err := LoadLedger(filepath.Join(clusterDir, "nodes", "ledger.json"))
	if err != nil {
		return 0, err
	}
	nodes := 1
	for _, w := range l.Workers {
		nodes = max(nodes, indexOf(w))
	}
	return nodes, nil
}
