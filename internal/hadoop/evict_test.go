package hadoop

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
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
			job := EvictSessionsJob(in, "hadoop-nodemanager-0", uid, nil)
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
			if env := envOf(pod.Containers[0], "OPENED_BEFORE"); env != "" {
				t.Errorf("a gone pod's Job evicts only sessions opened before %s", env)
			}
		})
	}
}

// TestFenceSessionsJob: a lost node's pod is fenced by the sessions it opened before
// the operator fenced it, the time the Job carries; the script parses.
func TestFenceSessionsJob(t *testing.T) {
	hc := loadCluster(t, "replicated")
	fenced := time.Date(2026, 11, 26, 10, 0, 0, 0, time.FixedZone("CET", 3600))
	job := EvictSessionsJob(Input{Cluster: hc}, "nm-0", "6f1c2d3e-4b5a-4c6d-8e7f-90a1b2c3d4e5", &fenced)
	c := job.Spec.Template.Spec.Containers[0]
	if got, want := envOf(c, "OPENED_BEFORE"), strconv.FormatInt(fenced.Unix(), 10); got != want {
		t.Errorf("OPENED_BEFORE = %q, want %q", got, want)
	}
	if got := job.Annotations[FencedAtAnnotation]; got != "2026-11-26T09:00:00Z" {
		t.Errorf("annotation %s = %q", FencedAtAnnotation, got)
	}
	if out, err := exec.Command("bash", "-n", "-c", c.Command[len(c.Command)-1]).CombinedOutput(); err != nil {
		t.Errorf("the script does not parse: %v\n%s", err, out)
	}
}

// TestSelectSessions runs the fencing's choice of sessions with python3, as the Job
// does, on a session list in the shape of an MDS's client ls: of the pod's sessions,
// those opened before the cut go, and so does one the MDS gives no age; another pod's
// session and the pod's session opened after the cut stay.
func TestSelectSessions(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3, which the Hadoop image runs the script with: %v", err)
	}
	in, err := os.Open(filepath.Join("testdata", "sessions", "client-ls.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	cmd := exec.Command(python, "-c", selectSessions)
	// Sessions 24107 (1000 s old) and 24355 (20 s old) are the pod's; the cut is 500 s ago.
	cmd.Env = append(os.Environ(), "POD_UID=6f1c2d3e-4b5a-4c6d-8e7f-90a1b2c3d4e5",
		"OPENED_BEFORE="+strconv.FormatInt(time.Now().Add(-500*time.Second).Unix(), 10))
	cmd.Stdin = in
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if got := strings.Fields(stdout.String()); strings.Join(got, " ") != "24107 24410" {
		t.Errorf("evicts %v, want [24107 24410]; it said:\n%s", got, stderr.String())
	}
	for _, want := range []string{"session 24355 opened at ", "kept", "session 24410: the MDS reports no age"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("its account lacks %q:\n%s", want, stderr.String())
		}
	}
}

func envOf(c corev1.Container, name string) string {
	for _, e := range c.Env {
		if e.Name == name {
			return e.Value
		}
	}
	return ""
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
	fenced := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	if j := EvictSessionsJob(Input{Cluster: hc}, "nm-0", "6f1c2d3e-4b5a-4c6d-8e7f-90a1b2c3d4e5", &fenced); j.Name != FenceSessionsJobName(hc, "6f1c2d3e-4b5a-4c6d-8e7f-90a1b2c3d4e5") {
		t.Errorf("a lost node's Job is named %s", j.Name)
	}
	hc.Name = strings.Repeat("c", 63)
	for _, n := range []string{EvictSessionsJobName(hc, "6f1c2d3e-4b5a-4c6d-8e7f-90a1b2c3d4e5"), FenceSessionsJobName(hc, "6f1c2d3e-4b5a-4c6d-8e7f-90a1b2c3d4e5")} {
		if len(n) > 63 {
			t.Errorf("name %s is %d characters, more than a label value takes", n, len(n))
		}
	}
}
