//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/cephconf"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// Probes of the local Rook's Ceph, through hack/rook/ceph.sh and the admin key: what
// the specs read back from Ceph itself rather than from the operator's status.

// rookDir is where hack/rook keeps the local Rook's client files.
func rookDir() string {
	if dir := os.Getenv("HCO_ROOK_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(filepath.Dir(cephDir()), "rook")
}

// rookCeph runs the ceph command as the local Rook's administrator (hack/rook/ceph.sh).
func rookCeph(args ...string) *exec.Cmd {
	return command("hack/rook/ceph.sh", args...)
}

// rookCephJSON runs a ceph command with JSON output and decodes it into v.
// Only standard output is decoded: the dump commands say what they dumped ("dumped
// monmap epoch 3") on standard error.
func rookCephJSON(v any, args ...string) {
	GinkgoHelper()
	cmd := rookCeph(append(args, "--format", "json")...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	Expect(err).NotTo(HaveOccurred(), "%s: %s%s", cmd.String(), out, stderr.String())
	Expect(json.Unmarshal(out, v)).To(Succeed(), "%s", out)
}

// rookFsadmin looks at a file system of the local Rook as its administrator.
func rookFsadmin(filesystem string, args ...string) *exec.Cmd {
	cmd := fsadmin(args...)
	cmd.Env = append(cmd.Env, "HCO_CEPH_DIR="+rookDir(), "HCO_CEPH_FS="+filesystem)
	return cmd
}

// cephfsClient runs testdata/cephfs-client.py as the client of a StorageBackend, with
// the ceph.conf and keyring of its client config Secret, confined to its root.
func cephfsClient(backend string, args ...string) *exec.Cmd {
	GinkgoHelper()
	sb := &v1alpha1.StorageBackend{}
	Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: backend}, sb)).To(Succeed())
	secret := &corev1.Secret{}
	Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: sb.Status.ClientConfigSecret}, secret)).To(Succeed())
	dir := GinkgoT().TempDir()
	conf, keyring := filepath.Join(dir, "ceph.conf"), filepath.Join(dir, "keyring")
	Expect(os.WriteFile(conf, secret.Data[cephconf.KeyCephConf], 0o600)).To(Succeed())
	Expect(os.WriteFile(keyring, secret.Data[cephconf.KeyKeyring], 0o600)).To(Succeed())
	script := filepath.Join(repoRoot, "test", "e2e", "testdata", "cephfs-client.py")
	return command(script, append([]string{conf, keyring, sb.Status.ClientID, sb.Status.FilesystemName, sb.Status.RootPath}, args...)...)
}

// rookMonitors are the monitors Rook publishes in its mon endpoints ConfigMap.
func rookMonitors() []string {
	GinkgoHelper()
	cm := &corev1.ConfigMap{}
	Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: rookNamespace, Name: rook.MonEndpointsConfigMap}, cm)).To(Succeed())
	monitors, err := cephconf.ParseMonEndpoints(cm.Data[rook.MonEndpointsKey])
	Expect(err).NotTo(HaveOccurred())
	return monitors
}

// crushHostOSDs counts the OSDs under each CRUSH host of the local Rook.
func crushHostOSDs() map[string]int {
	GinkgoHelper()
	hosts := map[string]int{}
	for _, host := range osdHosts() {
		hosts[host]++
	}
	return hosts
}

// expectedCRUSHHosts is one OSD on each node's CRUSH host: Rook names it after the
// node's kubernetes.io/hostname label with dots replaced by dashes.
func expectedCRUSHHosts() map[string]int {
	GinkgoHelper()
	nodes := &corev1.NodeList{}
	Expect(k8sClient.List(ctx, nodes)).To(Succeed())
	want := map[string]int{}
	for _, n := range nodes.Items {
		want[strings.ReplaceAll(n.Labels[corev1.LabelHostname], ".", "-")] = 1
	}
	return want
}

func cephFilesystems() []string {
	GinkgoHelper()
	var list []struct {
		Name string `json:"name"`
	}
	rookCephJSON(&list, "fs", "ls")
	var names []string
	for _, fs := range list {
		names = append(names, fs.Name)
	}
	return names
}

func cephPools() []string {
	GinkgoHelper()
	var pools []string
	rookCephJSON(&pools, "osd", "pool", "ls")
	return pools
}

// cephClientCaps are the caps Ceph holds for entity, by daemon type.
func cephClientCaps(entity string) map[string]string {
	GinkgoHelper()
	var entries []struct {
		Caps map[string]string `json:"caps"`
	}
	rookCephJSON(&entries, "auth", "get", entity)
	Expect(entries).To(HaveLen(1))
	return entries[0].Caps
}

func cephClients() []string {
	GinkgoHelper()
	var auth struct {
		Entries []struct {
			Entity string `json:"entity"`
		} `json:"auth_dump"`
	}
	rookCephJSON(&auth, "auth", "ls")
	var names []string
	for _, e := range auth.Entries {
		names = append(names, e.Entity)
	}
	return names
}

// fsFlags are the flags `ceph fs get` lists for filesystem, on its line "flags <bits>
// <name>...".
func fsFlags(filesystem string) []string {
	GinkgoHelper()
	for _, line := range strings.Split(mustRun(rookCeph("fs", "get", filesystem)), "\n") {
		if fields := strings.Fields(line); len(fields) > 1 && fields[0] == "flags" {
			return fields[2:]
		}
	}
	Fail("ceph fs get " + filesystem + " lists no flags")
	return nil
}

// poolUsage is a pool's line of `ceph df`: bytes stored, and raw bytes used on the OSDs.
type poolUsage struct {
	Stored    int64 `json:"stored"`
	BytesUsed int64 `json:"bytes_used"`
}

func poolStats(pool string) poolUsage {
	GinkgoHelper()
	var df struct {
		Pools []struct {
			Name  string    `json:"name"`
			Stats poolUsage `json:"stats"`
		} `json:"pools"`
	}
	rookCephJSON(&df, "df", "detail")
	for _, p := range df.Pools {
		if p.Name == pool {
			return p.Stats
		}
	}
	Fail("ceph df has no pool " + pool)
	return poolUsage{}
}

// uncleanPGs counts the cluster's placement groups that are not active+clean. An OSD
// holds placement groups of every pool, the EC pool's among them; `ceph status` sums
// them up, where a list of each group would be large.
func uncleanPGs() int {
	GinkgoHelper()
	var status struct {
		PGMap struct {
			ByState []struct {
				Name  string `json:"state_name"`
				Count int    `json:"count"`
			} `json:"pgs_by_state"`
		} `json:"pgmap"`
	}
	rookCephJSON(&status, "status")
	n := 0
	for _, s := range status.PGMap.ByState {
		if s.Name != "active+clean" {
			n += s.Count
		}
	}
	return n
}

func osdsUp() int {
	GinkgoHelper()
	var stat struct {
		Up int `json:"num_up_osds"`
	}
	rookCephJSON(&stat, "osd", "stat")
	return stat.Up
}
