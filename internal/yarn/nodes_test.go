package yarn

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestDecodeNodes(t *testing.T) {
	nodes, err := DecodeNodes(fixture(t, "nodes-decommissioned.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 2 {
		t.Fatalf("got %d nodes, want 2: %+v", len(nodes), nodes)
	}
	if n := nodes[0]; n.State != NodeDecommissioning || n.NumContainers != 2 || n.Gone() {
		t.Errorf("first node %+v: want DECOMMISSIONING with 2 containers, not gone", n)
	}
	if n := nodes[1]; n.ID != "localhost:8041" || !n.Gone() {
		t.Errorf("second node %+v: want localhost:8041, gone", n)
	}
	if empty, err := DecodeNodes([]byte(`{"nodes":null}`)); err != nil || len(empty) != 0 {
		t.Errorf("an empty list: %v, %v", empty, err)
	}
}

func TestDecodeNodeIdentity(t *testing.T) {
	id, err := DecodeNodeIdentity(fixture(t, "node-info.json"))
	if err != nil {
		t.Fatal(err)
	}
	if id.ID != "localhost:8041" || id.HostName != "localhost" {
		t.Errorf("got %+v, want localhost:8041 on host localhost", id)
	}
	if _, err := DecodeNodeIdentity([]byte(`{"nodeInfo":{"healthReport":""}}`)); err == nil {
		t.Errorf("an answer without a node ID was accepted")
	}
}

// Nodes names every state, so decommissioned nodes are listed, and asks as the
// client's user.
func TestNodesAsksForEveryState(t *testing.T) {
	var query string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		query = r.URL.RawQuery
		_, _ = w.Write(fixture(t, "nodes-decommissioned.json"))
	}))
	defer srv.Close()
	if _, err := NewClient("hadoop").Nodes(context.Background(), srv.URL); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"DECOMMISSIONED", "LOST", "SHUTDOWN", "user.name=hadoop"} {
		if !strings.Contains(query, want) {
			t.Errorf("query %q lacks %s", query, want)
		}
	}
}
