package hadoop

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/golden"
)

// TestEvictSessionsJob renders the eviction Job of the golden clusters: on the host
// network (external-hostnetwork), and on the pod network with Rook's public network
// alone (erasure-coded-rdma, whose NodeManagers also join an RDMA network).
func TestEvictSessionsJob(t *testing.T) {
	const uid = types.UID("6f1c2d3e-4b5a-4c6d-8e7f-90a1b2c3d4e5")
	for _, tc := range goldenCases {
		if !tc.storage.cephFS() {
			continue // HDFS has no sessions to evict.
		}
		t.Run(tc.name, func(t *testing.T) {
			storage := tc.storage
			storage.EvictionSecret = "backend-ceph-evictor"
			storage.EvictionClientID = "hadoop-evictor"
			in := Input{Cluster: loadCluster(t, tc.name), Storage: storage, Defaults: tc.defaults}
			job := EvictSessionsJob(in, "hadoop-nodemanager-0", uid, false)
			golden.Assert(t, "evict-sessions/"+tc.name+".yaml", golden.YAML(t, job))

			// The evictor's key is the only Ceph key the pod can read.
			pod := job.Spec.Template.Spec
			for _, v := range pod.Volumes {
				if v.Secret != nil && v.Secret.SecretName != storage.EvictionSecret {
					t.Errorf("volume %s mounts Secret %s; only %s may be mounted", v.Name, v.Secret.SecretName, storage.EvictionSecret)
				}
			}
			if pod.HostNetwork != in.Cluster.Spec.Network.HostNetwork {
				t.Errorf("hostNetwork = %v, want the NodeManagers' %v", pod.HostNetwork, in.Cluster.Spec.Network.HostNetwork)
			}
			script := strings.Join(pod.Containers[0].Command, " ")
			if !strings.Contains(script, "client_metadata."+PodUIDMetadata+"=$POD_UID") {
				t.Errorf("the script does not evict by the pod's UID: %s", script)
			}
		})
	}
}

func TestEvictSessionsJobName(t *testing.T) {
	hc := loadCluster(t, "replicated")
	a := EvictSessionsJobName(hc, "6f1c2d3e-4b5a-4c6d-8e7f-90a1b2c3d4e5")
	if a != hc.Name+"-evict-6f1c2d3e4b5a" {
		t.Errorf("name = %s", a)
	}
	if b := EvictSessionsJobName(hc, "7f1c2d3e-4b5a-4c6d-8e7f-90a1b2c3d4e5"); a == b {
		t.Errorf("two UIDs share the Job name %s", a)
	}
	// A pod fenced on a lost node, whose node came back, is evicted again when it goes.
	if f := FenceSessionsJobName(hc, "6f1c2d3e-4b5a-4c6d-8e7f-90a1b2c3d4e5"); f == a {
		t.Errorf("fencing and eviction share the Job name %s", a)
	}
	if j := EvictSessionsJob(Input{Cluster: hc}, "nm-0", "6f1c2d3e-4b5a-4c6d-8e7f-90a1b2c3d4e5", true); j.Name != FenceSessionsJobName(hc, "6f1c2d3e-4b5a-4c6d-8e7f-90a1b2c3d4e5") {
		t.Errorf("a lost node's Job is named %s", j.Name)
	}
	hc.Name = strings.Repeat("c", 63)
	for _, n := range []string{EvictSessionsJobName(hc, "6f1c2d3e-4b5a-4c6d-8e7f-90a1b2c3d4e5"), FenceSessionsJobName(hc, "6f1c2d3e-4b5a-4c6d-8e7f-90a1b2c3d4e5")} {
		if len(n) > 63 {
			t.Errorf("name %s is %d characters, more than a label value takes", n, len(n))
		}
	}
}
