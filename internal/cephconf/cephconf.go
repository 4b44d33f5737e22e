// Package cephconf renders the client configuration Hadoop reads to reach CephFS: a
// ceph.conf with the monitors, a keyring with the cephx key, and the plain values a
// core-site.xml needs. It also parses Rook's monitor list and checks cephx keys.
// Everything here is pure.
package cephconf

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Keys of the client config Secret.
const (
	KeyCephConf   = "ceph.conf"
	KeyKeyring    = "keyring"
	KeyClientID   = "clientID"
	KeyFilesystem = "filesystem"
	KeyRootPath   = "rootPath"
	KeyDataPool   = "dataPool"
)

// Config is everything the client config is rendered from.
type Config struct {
	// Monitors in the order they go into mon_host.
	Monitors []string
	// ClientID is the cephx id without "client.".
	ClientID string
	// Key is the cephx key, already validated.
	Key        string
	Filesystem string
	RootPath   string
	// DataPool is the Ceph name of the pool Hadoop's data lives on, empty if unknown.
	DataPool string
}

// Data renders c into the keys of the client config Secret.
func (c Config) Data() map[string][]byte {
	return map[string][]byte{
		KeyCephConf:   []byte(CephConf(c.Monitors)),
		KeyKeyring:    []byte(Keyring(c.ClientID, c.Key)),
		KeyClientID:   []byte(c.ClientID),
		KeyFilesystem: []byte(c.Filesystem),
		KeyRootPath:   []byte(c.RootPath),
		KeyDataPool:   []byte(c.DataPool),
	}
}

// CephConf is a ceph.conf that lets a client find the monitors. Everything else a
// client needs (id, key, file system) is passed by the Hadoop connector's own settings.
func CephConf(monitors []string) string {
	return "[global]\nmon_host = " + strings.Join(monitors, ",") + "\n"
}

// Keyring is a keyring file holding one client's key.
func Keyring(clientID, key string) string {
	return "[client." + clientID + "]\n\tkey = " + key + "\n"
}

// Hash identifies the content of data: it changes whenever any key or value does, so
// consumers can roll their pods when the config changes.
func Hash(data map[string][]byte) string {
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	h := sha256.New()
	for _, k := range keys {
		// Length prefixes keep ("ab","c") and ("a","bc") apart.
		_ = binary.Write(h, binary.BigEndian, uint64(len(k)))
		h.Write([]byte(k))
		_ = binary.Write(h, binary.BigEndian, uint64(len(data[k])))
		h.Write(data[k])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// ParseMonEndpoints reads the monitor addresses out of the data key of Rook's
// rook-ceph-mon-endpoints ConfigMap, a list like "a=10.0.0.1:6789,b=10.0.0.2:6789".
// Like Rook itself it skips entries that are not name=address, and it returns the
// addresses sorted and without repeats, so a rewrite of the ConfigMap that only
// reorders monitors does not change the config. It fails only when no monitor is left.
func ParseMonEndpoints(data string) ([]string, error) {
	var addrs []string
	for _, entry := range strings.Split(data, ",") {
		name, addr, ok := strings.Cut(strings.TrimSpace(entry), "=")
		name, addr = strings.TrimSpace(name), strings.TrimSpace(addr)
		if !ok || name == "" || addr == "" || strings.ContainsAny(addr, "= \t\n") {
			continue
		}
		addrs = append(addrs, addr)
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("no monitor in %q: expected name=address pairs separated by commas", data)
	}
	slices.Sort(addrs)
	return slices.Compact(addrs), nil
}

// ValidateKey checks that key is a cephx secret as Ceph prints it: base64 of a
// little-endian header (type, creation time, length) followed by that many bytes of
// secret. It catches the common mistakes of pasting a whole keyring, a truncated key
// or a key with the "key = " prefix. Surrounding whitespace is the caller's to trim.
func ValidateKey(key string) error {
	if key == "" {
		return errors.New("the key is empty")
	}
	raw, err := base64.StdEncoding.DecodeString(key)
	if err != nil {
		return errors.New("the key is not base64: expected a cephx key such as the output of `ceph auth get-key client.<id>`")
	}
	const header = 2 + 4 + 4 + 2 // type, seconds, nanoseconds, secret length
	if len(raw) <= header {
		return fmt.Errorf("the key decodes to %d bytes, too short for a cephx key", len(raw))
	}
	if binary.LittleEndian.Uint16(raw[0:2]) == 0 {
		return errors.New("the key has no crypto type: it is not a cephx key")
	}
	if n := int(binary.LittleEndian.Uint16(raw[10:12])); n != len(raw)-header {
		return fmt.Errorf("the key declares a %d-byte secret but holds %d bytes: it is truncated or not a cephx key", n, len(raw)-header)
	}
	return nil
}
