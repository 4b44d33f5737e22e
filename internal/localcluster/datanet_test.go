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
