//go:build e2e

package e2e

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/yarn"
)

func newScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	Expect(clientgoscheme.AddToScheme(s)).To(Succeed())
	Expect(v1alpha1.AddToScheme(s)).To(Succeed())
	Expect(cephv1.AddToScheme(s)).To(Succeed())
	Expect(apiextensionsv1.AddToScheme(s)).To(Succeed())
	return s
}

// command runs a program of this repository's hack/ directory or of PATH, from the
// repository's root, with the suite's environment.
func command(name string, args ...string) *exec.Cmd {
	return commandContext(ctx, name, args...)
}

// commandContext is command, killed when c ends.
func commandContext(c context.Context, name string, args ...string) *exec.Cmd {
	if strings.HasPrefix(name, "hack/") {
		name = filepath.Join(repoRoot, name)
	}
	cmd := exec.CommandContext(c, name, args...)
	cmd.Dir = repoRoot
	cmd.Env = os.Environ()
	return cmd
}

// mustRun runs cmd and fails the spec with its output if it fails.
func mustRun(cmd *exec.Cmd) string {
	GinkgoHelper()
	out, err := cmd.CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "%s: %s", cmd.String(), out)
	return string(out)
}

// fsadmin looks at the local CephFS as its administrator (hack/ceph/fsadmin.py).
func fsadmin(args ...string) *exec.Cmd {
	return command("hack/ceph/fsadmin.py", args...)
}

// cephPathExists tells whether path exists on the local CephFS.
func cephPathExists(path string) bool {
	GinkgoHelper()
	err := fsadmin("exists", path).Run()
	if err == nil {
		return true
	}
	var exit *exec.ExitError
	Expect(err).To(BeAssignableToTypeOf(exit), "fsadmin exists %s", path)
	return false
}

// touchDirectory creates and removes a file in dir on the local CephFS as another
// client (fsadmin.py touch), and fails if that has not finished when c ends; a
// directory removed in the meantime needs nothing.
func touchDirectory(c context.Context, dir string) {
	GinkgoHelper()
	cmd := commandContext(c, "hack/ceph/fsadmin.py", "touch", dir)
	out, err := cmd.CombinedOutput()
	Expect(c.Err()).NotTo(HaveOccurred(), "%s was still waiting when it had to be done", cmd.String())
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 66 {
		return
	}
	Expect(err).NotTo(HaveOccurred(), "%s: %s", cmd.String(), out)
}

// cephCLI runs the ceph command line as the local cluster's administrator.
func cephCLI(args ...string) *exec.Cmd {
	return command("bash", append([]string{"-c", `source hack/ceph/env.sh && ceph_cli "$@"`, "ceph"}, args...)...)
}

// externalRoot hands Hadoop a root on the local Ceph the way docs/storage.md tells an
// external Ceph's administrator to: a subvolume group owned by the image's Hadoop user,
// whose path the StorageBackend's rootPath names. The operator never changes an
// external root.
func externalRoot(group string) string {
	GinkgoHelper()
	mustRun(cephCLI("fs", "subvolumegroup", "create", "cephfs", group,
		"--uid", fmt.Sprint(hadoop.HadoopUID), "--gid", fmt.Sprint(hadoop.HadoopGID)))
	cmd := cephCLI("fs", "subvolumegroup", "getpath", "cephfs", group)
	path, err := cmd.Output()
	Expect(err).NotTo(HaveOccurred(), "%s", cmd.String())
	return strings.TrimSpace(string(path))
}

// mdsSession is the part of `ceph tell mds.<id> session ls` the suite reads. Most
// client metadata values are strings; a few, such as client_features, are objects.
type mdsSession struct {
	ID             int64                      `json:"id"`
	State          string                     `json:"state"`
	ClientMetadata map[string]json.RawMessage `json:"client_metadata"`
}

// metadata is the client metadata value key when it is a string, else "".
func (s mdsSession) metadata(key string) string {
	var v string
	if err := json.Unmarshal(s.ClientMetadata[key], &v); err != nil {
		return ""
	}
	return v
}

// cephFS is a file system the suite looks into as Ceph's administrator: the local
// Ceph's (localFS) or one of the local Rook's (rookFS).
type cephFS struct {
	cli  func(args ...string) *exec.Cmd
	name string
}

// localFS is the local Ceph's file system, where the external path's data is.
var localFS = cephFS{cli: cephCLI, name: "cephfs"}

// rookFS is a file system of the local Rook.
func rookFS(name string) cephFS { return cephFS{cli: rookCeph, name: name} }

// mdsStates is the state of each MDS daemon that serves the file system (active,
// standby-replay, ...), by daemon name. Ceph's status lists the cluster's free
// standbys with every file system; they serve none yet and are left out.
func (fs cephFS) mdsStates() map[string]string {
	GinkgoHelper()
	var status struct {
		MDSMap []struct {
			Name  string `json:"name"`
			State string `json:"state"`
		} `json:"mdsmap"`
	}
	Expect(json.Unmarshal([]byte(mustRun(fs.cli("fs", "status", fs.name, "-f", "json"))), &status)).To(Succeed())
	states := map[string]string{}
	for _, mds := range status.MDSMap {
		if mds.State != "standby" {
			states[mds.Name] = mds.State
		}
	}
	return states
}

// activeMDS is the name of the file system's active MDS.
func (fs cephFS) activeMDS() string {
	GinkgoHelper()
	active := ""
	for name, state := range fs.mdsStates() {
		if state == "active" {
			active = name
		}
	}
	// Through Gomega, so that a caller may retry while an MDS fails over.
	Expect(active).NotTo(BeEmpty(), "the file system %s has no active MDS", fs.name)
	return active
}

// mdsTell runs `ceph tell mds.<active> <args> -f json` and decodes its output into v.
func (fs cephFS) mdsTell(v any, args ...string) {
	GinkgoHelper()
	cmd := fs.cli(append(append([]string{"tell", "mds." + fs.activeMDS()}, args...), "-f", "json")...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	Expect(cmd.Run()).To(Succeed(), "%s: %s", cmd.String(), stderr.String())
	Expect(json.Unmarshal(stdout.Bytes(), v)).To(Succeed())
}

// mdsSessions lists the sessions of the file system's active MDS.
func (fs cephFS) mdsSessions() []mdsSession {
	GinkgoHelper()
	var sessions []mdsSession
	fs.mdsTell(&sessions, "session", "ls")
	return sessions
}

// capDirectories returns the directories on which any of the given sessions holds
// capabilities, from the MDS's cache.
func (fs cephFS) capDirectories(sessions []int64) []string {
	GinkgoHelper()
	var inodes []struct {
		ClientCaps []struct {
			ClientID int64 `json:"client_id"`
		} `json:"client_caps"`
		Dirfrags []struct {
			Path string `json:"path"`
		} `json:"dirfrags"`
	}
	fs.mdsTell(&inodes, "dump", "cache")
	wanted := map[int64]bool{}
	for _, id := range sessions {
		wanted[id] = true
	}
	var dirs []string
	for _, inode := range inodes {
		for _, c := range inode.ClientCaps {
			if wanted[c.ClientID] && len(inode.Dirfrags) > 0 {
				dirs = append(dirs, cmp.Or(inode.Dirfrags[0].Path, "/"))
				break
			}
		}
	}
	return dirs
}

// sessionsOfPodUID returns the ids of the MDS sessions tagged with a pod's UID.
func (fs cephFS) sessionsOfPodUID(uid types.UID) []int64 {
	GinkgoHelper()
	var ids []int64
	for _, s := range fs.mdsSessions() {
		if s.metadata(hadoop.PodUIDMetadata) == string(uid) {
			ids = append(ids, s.ID)
		}
	}
	return ids
}

// resourceManagerGet reads the REST API of the cluster's ResourceManager, at its
// pod's address: the node's on the host network, which the host running the suite
// routes to whichever node that is, or the pod's, which the host reaches where the
// cluster's NetworkPolicies let it (the ResourceManager's own node).
func resourceManagerGet(cluster, path string) ([]byte, error) {
	base, err := daemonURL(cluster, hadoop.ResourceManager, hadoop.PortRMWeb)
	if err != nil {
		return nil, err
	}
	return hostGet(base + path)
}

// jobHistoryGet reads the REST API of the cluster's JobHistory server, the same way.
func jobHistoryGet(cluster, path string) ([]byte, error) {
	base, err := daemonURL(cluster, hadoop.JobHistory, hadoop.PortJHWeb)
	if err != nil {
		return nil, err
	}
	return hostGet(base + path)
}

// daemonURL is http://<address>:<port> of the one running pod of a role of the
// suite's HadoopCluster called cluster.
func daemonURL(cluster string, c hadoop.Component, port int) (string, error) {
	ips, err := runningPodIPs(client.MatchingLabels{hadoop.LabelName: hadoop.AppName, hadoop.LabelInstance: cluster, hadoop.LabelComponent: string(c)})
	if err != nil {
		return "", err
	}
	if len(ips) != 1 {
		return "", fmt.Errorf("want one running %s of %s in namespace %s, found %d", c, cluster, namespace, len(ips))
	}
	return fmt.Sprintf("http://%s:%d", ips[0], port), nil
}

// runningPodIPs are the addresses of the running pods in the suite's namespace that
// match, by pod name.
func runningPodIPs(match client.MatchingLabels) ([]string, error) {
	pods := &corev1.PodList{}
	if err := k8sClient.List(ctx, pods, client.InNamespace(namespace), match); err != nil {
		return nil, err
	}
	slices.SortFunc(pods.Items, func(a, b corev1.Pod) int { return cmp.Compare(a.Name, b.Name) })
	var ips []string
	for _, p := range pods.Items {
		if p.Status.Phase == corev1.PodRunning && p.DeletionTimestamp == nil && p.Status.PodIP != "" {
			ips = append(ips, p.Status.PodIP)
		}
	}
	return ips, nil
}

// yarnNode is a NodeManager as the ResourceManager's REST API lists it.
type yarnNode struct {
	ID    string `json:"id"`
	State string `json:"state"`
}

func yarnNodes(cluster string) ([]yarnNode, error) {
	body, err := resourceManagerGet(cluster, "/ws/v1/cluster/nodes")
	if err != nil {
		return nil, err
	}
	var out struct {
		Nodes *struct {
			Node []yarnNode `json:"node"`
		} `json:"nodes"`
	}
	if err := json.Unmarshal(body, &out); err != nil || out.Nodes == nil {
		return nil, err
	}
	return out.Nodes.Node, nil
}

// runningYARNApps lists the running applications, read as the operator reads them.
func runningYARNApps(cluster string) ([]yarn.Application, error) {
	body, err := resourceManagerGet(cluster, "/ws/v1/cluster/apps?states=RUNNING")
	if err != nil {
		return nil, err
	}
	return yarn.DecodeApplications(body)
}

// dumpState prints what a person debugging a failed spec looks at first: the
// operator's and this run's objects with their status, and the last lines of every
// pod's log, read from the kubelet's files (hack/cluster/logs.sh), which keep the
// logs of a container's previous run too.
func dumpState() {
	lists := []client.ObjectList{
		&v1alpha1.StorageBackendList{}, &v1alpha1.HadoopClusterList{}, &v1alpha1.BenchmarkRunList{},
		&appsv1.StatefulSetList{}, &batchv1.JobList{}, &corev1.PodList{}, &corev1.EventList{},
	}
	for _, list := range lists {
		if err := k8sClient.List(ctx, list, client.InNamespace(namespace)); err != nil {
			GinkgoWriter.Printf("listing %T: %v\n", list, err)
			continue
		}
		out, _ := yaml.Marshal(list)
		GinkgoWriter.Printf("---- %T in %s\n%s\n", list, namespace, out)
	}
	for _, ns := range []string{namespace, operatorNamespace, rookNamespace, devicesNamespace} {
		pods := &corev1.PodList{}
		if err := k8sClient.List(ctx, pods, client.InNamespace(ns)); err != nil {
			continue
		}
		for _, p := range pods.Items {
			out, _ := command("hack/cluster/logs.sh", ns, p.Name).CombinedOutput()
			lines := strings.Split(string(out), "\n")
			GinkgoWriter.Printf("---- log of pod %s/%s (last 80 lines)\n%s\n", ns, p.Name, strings.Join(lines[max(0, len(lines)-80):], "\n"))
		}
	}
}

// kubectl runs the kubectl that $KUBECTL names (make e2e passes the pinned build),
// else the one on PATH, against the suite's cluster.
func kubectl(args ...string) *exec.Cmd {
	bin := os.Getenv("KUBECTL")
	if bin == "" {
		bin = "kubectl"
	}
	return command(bin, args...)
}

// runLogged runs a long command with its output going to the spec's log as it comes.
func runLogged(cmd *exec.Cmd) {
	GinkgoHelper()
	cmd.Stdout, cmd.Stderr = GinkgoWriter, GinkgoWriter
	Expect(cmd.Run()).To(Succeed(), "%s", cmd.String())
}
