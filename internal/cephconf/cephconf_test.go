package cephconf

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// validKey is a well-formed cephx key: AES type, a creation time, a 16-byte secret.
const validKey = "AQAA8VNlAAAAABAAAQIDBAUGBwgJCgsMDQ4PEA=="

func TestParseMonEndpoints(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		want    []string
		wantErr bool
	}{
		{name: "rook's format", data: "a=10.0.0.1:6789,b=10.0.0.2:6789,c=10.0.0.3:6789", want: []string{"10.0.0.1:6789", "10.0.0.2:6789", "10.0.0.3:6789"}},
		{name: "sorted by address", data: "c=10.0.0.3:6789,a=10.0.0.11:6789,b=10.0.0.2:6789", want: []string{"10.0.0.11:6789", "10.0.0.2:6789", "10.0.0.3:6789"}},
		{name: "single monitor", data: "a=172.30.0.10:3300", want: []string{"172.30.0.10:3300"}},
		{name: "IPv6", data: "b=[fd00::2]:6789,a=[fd00::1]:6789", want: []string{"[fd00::1]:6789", "[fd00::2]:6789"}},
		{name: "whitespace and empty entries", data: " a = 10.0.0.1:6789 ,, b=10.0.0.2:6789,\n", want: []string{"10.0.0.1:6789", "10.0.0.2:6789"}},
		{name: "repeated address", data: "a=10.0.0.1:6789,b=10.0.0.1:6789", want: []string{"10.0.0.1:6789"}},
		{name: "malformed entries skipped", data: "a=10.0.0.1:6789,garbage,=10.0.0.9:6789,c=,d=1=2", want: []string{"10.0.0.1:6789"}},
		{name: "empty", data: "", wantErr: true},
		{name: "only separators", data: " , ,", wantErr: true},
		{name: "nothing usable", data: "a,b=,=c", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseMonEndpoints(tt.data)
			if (err != nil) != tt.wantErr {
				t.Fatalf("ParseMonEndpoints(%q) error = %v, wantErr %v", tt.data, err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseMonEndpoints(%q) mismatch (-want +got):\n%s", tt.data, diff)
			}
		})
	}
}

func TestData(t *testing.T) {
	cfg := Config{
		Monitors:   []string{"[v2:10.0.0.1:3300,v1:10.0.0.1:6789]", "10.0.0.2:6789"},
		ClientID:   "hadoop-analytics-lake",
		Key:        validKey,
		Filesystem: "hadoopfs",
		RootPath:   "/volumes/hadoop",
		DataPool:   "hadoopfs-ec",
	}
	want := map[string]string{
		"ceph.conf":  "[global]\nmon_host = [v2:10.0.0.1:3300,v1:10.0.0.1:6789],10.0.0.2:6789\n",
		"keyring":    "[client.hadoop-analytics-lake]\n\tkey = " + validKey + "\n",
		"clientID":   "hadoop-analytics-lake",
		"filesystem": "hadoopfs",
		"rootPath":   "/volumes/hadoop",
		"dataPool":   "hadoopfs-ec",
	}
	got := map[string]string{}
	for k, v := range cfg.Data() {
		got[k] = string(v)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Data() mismatch (-want +got):\n%s", diff)
	}
}

func TestHash(t *testing.T) {
	base := Config{Monitors: []string{"10.0.0.1:6789"}, ClientID: "hadoop", Key: validKey, Filesystem: "fs", RootPath: "/"}
	h := Hash(base.Data())
	if len(h) != 16 || strings.Trim(h, "0123456789abcdef") != "" {
		t.Fatalf("Hash() = %q, want 16 hex digits", h)
	}
	if again := Hash(base.Data()); again != h {
		t.Fatalf("Hash() is not deterministic: %q then %q", h, again)
	}
	changes := map[string]func(*Config){
		"monitor moved": func(c *Config) { c.Monitors = []string{"10.0.0.9:6789"} },
		"key rotated":   func(c *Config) { c.Key = "AQCdWgJrk7MOIBAA6RsEQv5cjPT4dj2YVpnnZA==" },
		"data pool":     func(c *Config) { c.DataPool = "fs-ec" },
	}
	for name, change := range changes {
		cfg := base
		change(&cfg)
		if got := Hash(cfg.Data()); got == h {
			t.Errorf("%s: hash did not change", name)
		}
	}
	// Moving bytes between a key and its value must change the hash.
	if Hash(map[string][]byte{"ab": []byte("c")}) == Hash(map[string][]byte{"a": []byte("bc")}) {
		t.Error("hash ignores the boundary between key and value")
	}
}

func TestValidateKey(t *testing.T) {
	tests := []struct {
		name    string
		key     string
		wantErr string
	}{
		{name: "valid", key: validKey},
		{name: "valid key of a real cluster", key: "AQCdWgJrk7MOIBAA6RsEQv5cjPT4dj2YVpnnZA=="},
		{name: "empty", key: "", wantErr: "empty"},
		{name: "whole keyring pasted", key: "[client.hadoop]\n\tkey = " + validKey, wantErr: "not base64"},
		{name: "key = prefix", key: "key = " + validKey, wantErr: "not base64"},
		{name: "truncated secret", key: "AQAA8VNlAAAAABAAAQIDBAUGBwgJCgsMDQ4=", wantErr: "declares a 16-byte secret but holds 14"},
		{name: "header only", key: "AQAA8VNlAAAAABAA", wantErr: "too short"},
		{name: "no crypto type", key: "AAAA8VNlAAAAABAAAQIDBAUGBwgJCgsMDQ4PEA==", wantErr: "no crypto type"},
		{name: "plain password", key: "secret", wantErr: "not base64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateKey(tt.key)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("ValidateKey() = %v, want nil", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("ValidateKey() = %v, want an error containing %q", err, tt.wantErr)
			}
		})
	}
}
