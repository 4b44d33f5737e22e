package hdfs

import (
	"reflect"
	"strings"
	"testing"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

func TestFromNameNodesOne(t *testing.T) {
	cfg := FromNameNodes("baseline", []v1alpha1.HDFSNameNode{{Host: "namenode-0.hdfs", RPCPort: 9000}})
	want := ClientConfig{
		DefaultFS:     "hdfs://namenode-0.hdfs:9000",
		HDFSSite:      map[string]string{"dfs.namenode.http-address": "namenode-0.hdfs:9870"},
		HTTPAddresses: []string{"namenode-0.hdfs:9870"},
	}
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("got %+v, want %+v", cfg, want)
	}
}

func TestFromNameNodesNameservice(t *testing.T) {
	cfg := FromNameNodes("baseline", []v1alpha1.HDFSNameNode{
		{Host: "nn-a", RPCPort: 8020, HTTPPort: 9870},
		{Host: "2001:db8::2", RPCPort: 8020, HTTPPort: 50070},
	})
	if cfg.DefaultFS != "hdfs://baseline" {
		t.Errorf("fs.defaultFS = %q, want the nameservice named after the backend", cfg.DefaultFS)
	}
	want := map[string]string{
		"dfs.nameservices":                            "baseline",
		"dfs.ha.namenodes.baseline":                   "nn0,nn1",
		"dfs.namenode.rpc-address.baseline.nn0":       "nn-a:8020",
		"dfs.namenode.http-address.baseline.nn0":      "nn-a:9870",
		"dfs.namenode.rpc-address.baseline.nn1":       "[2001:db8::2]:8020",
		"dfs.namenode.http-address.baseline.nn1":      "[2001:db8::2]:50070",
		"dfs.client.failover.proxy.provider.baseline": failoverProvider,
	}
	if !reflect.DeepEqual(cfg.HDFSSite, want) {
		t.Errorf("hdfs-site.xml:\n got %v\nwant %v", cfg.HDFSSite, want)
	}
	if !reflect.DeepEqual(cfg.HTTPAddresses, []string{"nn-a:9870", "[2001:db8::2]:50070"}) {
		t.Errorf("web addresses %v", cfg.HTTPAddresses)
	}
}

func discovery(core, site map[string]string) map[string]string {
	data := map[string]string{FileCoreSite: hadoop.ConfigurationXMLFrom("t", core)}
	if site != nil {
		data[FileHDFSSite] = hadoop.ConfigurationXMLFrom("t", site)
	}
	return data
}

// The shape Stackable's HDFS operator publishes: a nameservice named after the
// HdfsCluster, even with one NameNode, its web address given.
func TestFromDiscoveryNameservice(t *testing.T) {
	site := map[string]string{
		"dfs.nameservices":                               "simple-hdfs",
		"dfs.ha.namenodes.simple-hdfs":                   "name-0, name-1",
		"dfs.namenode.rpc-address.simple-hdfs.name-0":    "simple-hdfs-namenode-default-0.simple-hdfs-namenode-default.default.svc.cluster.local:8020",
		"dfs.namenode.http-address.simple-hdfs.name-0":   "simple-hdfs-namenode-default-0.simple-hdfs-namenode-default.default.svc.cluster.local:9870",
		"dfs.namenode.rpc-address.simple-hdfs.name-1":    "simple-hdfs-namenode-default-1.simple-hdfs-namenode-default.default.svc.cluster.local:8020",
		"dfs.client.failover.proxy.provider.simple-hdfs": failoverProvider,
	}
	cfg, err := FromDiscovery(discovery(map[string]string{"fs.defaultFS": "hdfs://simple-hdfs/"}, site))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.DefaultFS != "hdfs://simple-hdfs" {
		t.Errorf("fs.defaultFS = %q", cfg.DefaultFS)
	}
	if !reflect.DeepEqual(cfg.HDFSSite, site) {
		t.Errorf("hdfs-site.xml is not passed on as it is: %v", cfg.HDFSSite)
	}
	want := []string{
		"simple-hdfs-namenode-default-0.simple-hdfs-namenode-default.default.svc.cluster.local:9870",
		// No web address: the RPC host on Hadoop's web port.
		"simple-hdfs-namenode-default-1.simple-hdfs-namenode-default.default.svc.cluster.local:9870",
	}
	if !reflect.DeepEqual(cfg.HTTPAddresses, want) {
		t.Errorf("web addresses %v, want %v", cfg.HTTPAddresses, want)
	}
}

func TestFromDiscoveryNameNodeAddress(t *testing.T) {
	cfg, err := FromDiscovery(discovery(map[string]string{"fs.defaultFS": "hdfs://namenode.data:8020"}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.DefaultFS != "hdfs://namenode.data:8020" || !reflect.DeepEqual(cfg.HTTPAddresses, []string{"namenode.data:9870"}) {
		t.Errorf("got %+v", cfg)
	}
	cfg, err = FromDiscovery(discovery(map[string]string{"fs.defaultFS": "hdfs://namenode.data:8020"}, map[string]string{"dfs.namenode.http-address": "namenode.data:50070"}))
	if err != nil || !reflect.DeepEqual(cfg.HTTPAddresses, []string{"namenode.data:50070"}) {
		t.Errorf("dfs.namenode.http-address is not used: %+v, %v", cfg, err)
	}
}

func TestFromDiscoveryNamesWhatIsWrong(t *testing.T) {
	for _, tc := range []struct {
		name string
		data map[string]string
		want string
	}{
		{"no core-site.xml", map[string]string{FileHDFSSite: "<configuration/>"}, "has no core-site.xml key"},
		{"core-site.xml not XML", map[string]string{FileCoreSite: "fs.defaultFS=hdfs://x"}, "core-site.xml: not a Hadoop configuration file"},
		{"no fs.defaultFS", discovery(map[string]string{}, nil), "core-site.xml has no fs.defaultFS"},
		{"fs.defaultFS on CephFS", discovery(map[string]string{"fs.defaultFS": "ceph:///"}, nil), `fs.defaultFS is "ceph:///", not an hdfs://`},
		{"a nameservice without NameNodes", discovery(map[string]string{"fs.defaultFS": "hdfs://ns"}, map[string]string{"dfs.nameservices": "ns"}), "nameservice ns of fs.defaultFS lists no NameNodes in dfs.ha.namenodes.ns"},
		{"a NameNode without an address", discovery(map[string]string{"fs.defaultFS": "hdfs://ns"}, map[string]string{"dfs.nameservices": "ns", "dfs.ha.namenodes.ns": "a"}), "NameNode a of nameservice ns has neither dfs.namenode.http-address.ns.a"},
	} {
		_, err := FromDiscovery(tc.data)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to say %q", tc.name, err, tc.want)
		}
	}
}

func TestNameNodeDefaultsFillOnlyWhatIsUnset(t *testing.T) {
	cfg := ClientConfig{HDFSSite: map[string]string{KeyReplication: "2"}}
	got := cfg.WithNameNodeDefaults(3, 256<<20)
	if got.HDFSSite[KeyReplication] != "2" || got.HDFSSite[KeyBlockSize] != "268435456" {
		t.Errorf("got %v: the client's replication must win, the NameNode's block size fill in", got.HDFSSite)
	}
	if _, ok := cfg.HDFSSite[KeyBlockSize]; ok {
		t.Error("WithNameNodeDefaults changed its receiver's map")
	}
	if n, _ := (ClientConfig{}).WithNameNodeDefaults(0, 0).Replication(); n != DefaultReplication {
		t.Errorf("without any value the replication is %d, want Hadoop's %d", n, DefaultReplication)
	}
	if _, err := (ClientConfig{HDFSSite: map[string]string{KeyReplication: "three"}}).Replication(); err == nil {
		t.Error("a replication of three was accepted")
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"134217728": 134217728, "128m": 128 << 20, "1G": 1 << 30, "\t64k\n": 64 << 10} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "m", "-1", "0", "1.5g", "9e"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) accepted", in)
		}
	}
}

func TestDecodeState(t *testing.T) {
	state, err := DecodeState([]byte(`{"beans":[{"name":"Hadoop:service=NameNode,name=NameNodeStatus","State":"standby"}]}`))
	if err != nil || state != "standby" {
		t.Errorf("got %q, %v", state, err)
	}
	if _, err := DecodeState([]byte(`{"beans":[]}`)); err == nil || !strings.Contains(err.Error(), "a NameNode that is starting has none yet") {
		t.Errorf("an empty bean list: %v", err)
	}
}

func TestDecodeProperty(t *testing.T) {
	v, ok := DecodeProperty([]byte(`{"property":{"key":"dfs.replication","value":" 2 ","isFinal":false,"resource":"hdfs-site.xml"}}`), "dfs.replication")
	if !ok || v != "2" {
		t.Errorf("got %q, %v", v, ok)
	}
	if _, ok := DecodeProperty([]byte(`{"property":{"key":"dfs.blocksize","value":"128m"}}`), "dfs.replication"); ok {
		t.Error("another key's value was taken")
	}
	if _, ok := DecodeProperty([]byte(`<configuration/>`), "dfs.replication"); ok {
		t.Error("XML was taken for JSON")
	}
}
