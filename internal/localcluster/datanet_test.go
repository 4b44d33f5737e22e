package localcluster

import (
	"reflect"
	"strings"
	"testing"
)

func TestDataIP(t *testing.T) {
	s := DefaultSettings("/tmp/c", "/k8s")
	for i, want := range map[int]string{1: "10.119.0.1/16", 3: "10.119.0.3/16"} {
		if got := DataIP(s, i).String(); got != want {
			t.Errorf("node %d: %s, want %s", i, got, want)
		}
	}
}

func TestDataLinkCommands(t *testing.T) {
	s := DefaultSettings("/tmp/c", "/k8s")
	join := func(cmds [][]string) []string {
		var out []string
		for _, c := range cmds {
			out = append(out, strings.Join(c, " "))
		}
		return out
	}
	// A worker's link is addressed inside its namespace, the first node's in the host's.
	worker := join(DataLinkCommands(s, 2, "hco-n2"))
	want := []string{
		"ip -n hco-data link set hco-d2 master hco-data",
		"ip -n hco-data link set hco-d2 up",
		"ip -n hco-n2 addr replace 10.119.0.2/16 dev hco-data0",
		"ip -n hco-n2 link set hco-data0 up",
	}
	if !reflect.DeepEqual(worker, want) {
		t.Errorf("worker:\n  %q\nwant\n  %q", worker, want)
	}
	first := join(DataLinkCommands(s, 1, ""))
	if first[2] != "ip addr replace 10.119.0.1/16 dev hco-data0" {
		t.Errorf("first node's address command: %q", first[2])
	}
}

func TestDataRateCommands(t *testing.T) {
	cmds, err := DataRateCommands(2, "1gbit")
	if err != nil {
		t.Fatal(err)
	}
	// 1 ms of 1 Gbit/s is 125,000 bytes.
	want := "ip netns exec hco-data tc qdisc replace dev hco-d2 root tbf rate 1gbit burst 125000 latency 10ms"
	if len(cmds) != 2 || strings.Join(cmds[1], " ") != want {
		t.Errorf("%q\nwant the second as %q", cmds, want)
	}
	// A slow rate keeps a burst of at least 64 KiB, which one TSO frame may need.
	cmds, _ = DataRateCommands(1, "100mbit")
	if !strings.Contains(strings.Join(cmds[0], " "), "burst 65536 ") {
		t.Errorf("100mbit: %q", cmds[0])
	}
	cmds, _ = DataRateCommands(1, "")
	if strings.Join(cmds[0], " ") != "ip netns exec hco-data tc qdisc del dev hco-d1 root" {
		t.Errorf("lifting the limit: %q", cmds[0])
	}
	for _, bad := range []string{"1g", "fast", "0gbit", "1.5gbit"} {
		if _, err := DataRateCommands(1, bad); err == nil || !strings.Contains(err.Error(), "such as 1gbit") {
			t.Errorf("rate %q: %v", bad, err)
		}
	}
}

func TestSwitchReceived(t *testing.T) {
	// ip -n hco-data -s -j link show, cut down to what is read.
	out := []byte(`[{"ifname":"lo","stats64":{"rx":{"bytes":7}}},
{"ifname":"hco-data","stats64":{"rx":{"bytes":1000}}},
{"ifname":"hco-d1","link":"if4","stats64":{"rx":{"bytes":300}}},
{"ifname":"hco-d2","stats64":{"rx":{"bytes":20}}}]`)
	got, err := switchReceived(out)
	if err != nil {
		t.Fatal(err)
	}
	// The ports only: the bridge's own counters count what reached the switch itself.
	if got != 320 {
		t.Errorf("received %d, want 320", got)
	}
	if _, err := switchReceived([]byte("Cannot open network namespace")); err == nil {
		t.Error("no error for output that is not JSON")
	}
}

func TestCephShim(t *testing.T) {
	s := DefaultSettings("/tmp/c", "/k8s")
	var got []string
	for _, c := range CephShimCommands(s, 3, "hco-n3") {
		got = append(got, strings.Join(c, " "))
	}
	want := []string{
		"ip -n hco-n3 addr replace 10.119.48.3/20 dev hco-pub0",
		"ip -n hco-n3 link set hco-pub0 up",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("worker's shim:\n  %q\nwant\n  %q", got, want)
	}
	// The nodes' addresses stay below what whereabouts hands out, and the public
	// range is apart from the data network's nodes and the pods on it.
	last := CephShimIP(s, CephPublicReserved-1).Addr()
	if !s.CephPublicCIDR.Contains(last) || s.CephPublicCIDR.Contains(DataIP(s, 1).Addr()) {
		t.Errorf("CephPublicCIDR %s: node addresses up to %s, data link %s", s.CephPublicCIDR, last, DataIP(s, 1))
	}
	sysctls := CephShimSysctls()
	if sysctls["net.ipv4.conf.hco-pub0.arp_ignore"] != "1" || sysctls["net.ipv4.conf.hco-data0.rp_filter"] != "2" {
		t.Errorf("sysctls: %v", sysctls)
	}
}
