package fleet

import (
	"errors"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/yarn"
)

func TestDecommissionProgress(t *testing.T) {
	nodes := []yarn.Node{
		{ID: "nm-1.nm.ns.svc.cluster.local:8041", State: yarn.NodeDecommissioning, NumContainers: 3},
		{ID: "10.0.0.7:8041", State: yarn.NodeDecommissioned},
		{ID: "localhost:8041", State: yarn.NodeRunning, NumContainers: 1},
	}
	for _, tc := range []struct {
		name        string
		leaving     []Leaving
		nodesErr    error
		wantHosts   []string
		wantPending bool
		wantState   string
	}{
		{
			name:        "still running containers",
			leaving:     []Leaving{{Pod: "nm-1", NodeID: "nm-1.nm.ns.svc.cluster.local:8041", Serving: true}},
			wantHosts:   []string{"nm-1.nm.ns.svc.cluster.local"},
			wantPending: true, wantState: yarn.NodeDecommissioning,
		},
		{
			name:      "decommissioned, its NodeManager gone, its host still excluded",
			leaving:   []Leaving{{Pod: "nm-2", NodeID: "10.0.0.7:8041"}},
			wantHosts: []string{"10.0.0.7"}, wantState: yarn.NodeDecommissioned,
		},
		{
			name: "one done, one not yet told",
			leaving: []Leaving{
				{Pod: "nm-1", NodeID: "10.0.0.7:8041"},
				{Pod: "nm-2", NodeID: "localhost:8041", Serving: true},
			},
			wantHosts: []string{"10.0.0.7", "localhost"}, wantPending: true, wantState: yarn.NodeDecommissioned,
		},
		{
			name:    "a pod that never registered and is not ready runs nothing",
			leaving: []Leaving{{Pod: "nm-3"}},
		},
		{
			name:        "a ready pod whose NodeManager did not answer is waited for",
			leaving:     []Leaving{{Pod: "nm-3", Serving: true}},
			wantPending: true,
		},
		{
			name:        "the ResourceManager did not answer",
			leaving:     []Leaving{{Pod: "nm-2", NodeID: "10.0.0.7:8041"}},
			nodesErr:    errors.New("connection refused"),
			wantHosts:   []string{"10.0.0.7"},
			wantPending: true,
		},
		{
			name:        "unknown to YARN while serving: registering again",
			leaving:     []Leaving{{Pod: "nm-4", NodeID: "nm-4:8041", Serving: true}},
			wantHosts:   []string{"nm-4"},
			wantPending: true,
		},
		{
			name:      "unknown to YARN and not serving",
			leaving:   []Leaving{{Pod: "nm-4", NodeID: "nm-4:8041"}},
			wantHosts: []string{"nm-4"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			statuses, hosts, pending := progress(tc.leaving, nodes, tc.nodesErr)
			if !slices.Equal(hosts, tc.wantHosts) {
				t.Errorf("hosts %v, want %v", hosts, tc.wantHosts)
			}
			if pending != tc.wantPending {
				t.Errorf("pending %v, want %v", pending, tc.wantPending)
			}
			if len(statuses) != len(tc.leaving) || statuses[0].Pod != tc.leaving[0].Pod || statuses[0].State != tc.wantState {
				t.Errorf("statuses %+v, want one per leaving pod, the first in state %q", statuses, tc.wantState)
			}
		})
	}
}

func TestDecommissionWindow(t *testing.T) {
	start := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	d, expired := window(nil, false, 600, start)
	if expired || !d.StartTime.Time.Equal(start) || !d.Deadline.Time.Equal(start.Add(600*time.Second+Grace)) {
		t.Fatalf("a new decommission: %+v, expired %v", d, expired)
	}
	// A later pass keeps the start, and the deadline, of the same decommission.
	later := start.Add(5 * time.Minute)
	same, expired := window(d, true, 600, later)
	if expired || !same.StartTime.Equal(&d.StartTime) {
		t.Errorf("the same decommission five minutes on: %+v, expired %v", same, expired)
	}
	if _, expired := window(d, true, 600, d.Deadline.Time); !expired {
		t.Errorf("not expired at its deadline")
	}
	// Another one starts again.
	other, _ := window(&v1alpha1.Decommissioning{Replicas: 2, StartTime: metav1.NewTime(start)}, false, 600, later)
	if !other.StartTime.Time.Equal(later) {
		t.Errorf("another decommission kept the old start: %+v", other)
	}
}
