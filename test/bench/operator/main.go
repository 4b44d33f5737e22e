// Command operator measures the operator at scale on envtest (`make bench-operator`).
//
// It starts a kube-apiserver and etcd with the project's and Rook's CRDs, builds the
// manager from ./cmd and runs it as a separate process against them, as its own user,
// so that the API server's audit log tells its requests apart and /proc tells its
// memory. It then creates many HadoopClusters at once and reports:
//
//   - the time until every child object of every cluster exists, and until every
//     cluster's status reports them;
//   - the API writes (create, update, patch, delete) the operator makes during a
//     steady-state window afterwards, from the audit log, and how many stored objects
//     changed in that window (target: zero writes);
//   - the manager's peak resident memory, VmHWM (target: under 150 MiB).
//
// No kube-controller-manager runs, so no pods exist; the clusters stay at rest with
// their StatefulSets created, which is the state that must cost no writes.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/repo"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/testenv"
	"github.com/hadoopceph/hadoop-ceph-operator/test/promtext"
)

// operatorUser is the user the manager authenticates as; the audit policy records
// this user's writes only.
const operatorUser = "hadoop-ceph-operator"

// childrenPerCluster: ServiceAccount, two ConfigMaps (the configuration and the
// topology), three StatefulSets, five Services (each component's and the headless ones
// of the ResourceManager and the JobHistory server), a PodDisruptionBudget, three
// NetworkPolicies, and the topology reader's Role and RoleBinding.
const childrenPerCluster = 17

// maxSettle bounds the wait for the operator to become idle after the clusters are
// created.
const maxSettle = 3 * time.Minute

// Targets from the issue.
const (
	targetSteadyWrites = 0
	targetPeakMiB      = 150
)

type options struct {
	clusters   int
	namespaces int
	steady     time.Duration
	timeout    time.Duration
	keep       bool
}

func main() {
	var o options
	flag.IntVar(&o.clusters, "clusters", 200, "HadoopClusters to create at once.")
	flag.IntVar(&o.namespaces, "namespaces", 10, "Namespaces to spread them over, each with its own StorageBackend.")
	flag.DurationVar(&o.steady, "steady", 60*time.Second, "Length of the steady-state window in which writes are counted.")
	flag.DurationVar(&o.timeout, "timeout", 10*time.Minute, "Give up when the clusters are not created and reported by then.")
	flag.BoolVar(&o.keep, "keep", false, "Keep the work directory (audit log, manager log) and print its path.")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "bench-operator:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	work, err := os.MkdirTemp("", "bench-operator-")
	if err != nil {
		return err
	}
	if o.keep {
		defer fmt.Printf("work directory: %s\n", work)
	} else {
		defer os.RemoveAll(work)
	}

	step("building the manager from ./cmd")
	manager := filepath.Join(work, "manager")
	root, err := repo.Root()
	if err != nil {
		return err
	}
	build := exec.Command("go", "build", "-o", manager, "./cmd")
	build.Dir, build.Stdout, build.Stderr = root, os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building the manager: %w", err)
	}

	step("starting envtest with an audit log of the operator's writes")
	env, auditLog, err := startEnv(work)
	if err != nil {
		return err
	}
	defer func() {
		if err := env.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stopping envtest:", err)
		}
	}()
	admin, err := client.New(env.Config, client.Options{Scheme: env.Scheme})
	if err != nil {
		return err
	}
	kubeconfig, err := operatorKubeconfig(env, work)
	if err != nil {
		return err
	}

	ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
	defer cancel()

	step("starting the manager")
	mgr, err := startManager(manager, kubeconfig, filepath.Join(work, "manager.log"))
	if err != nil {
		return err
	}
	defer mgr.stop()
	metrics := metricsClient{url: "http://" + mgr.metricsAddr + "/metrics"}

	step(fmt.Sprintf("creating %d namespaces with a Ready StorageBackend each", o.namespaces))
	namespaces, err := createBackends(ctx, admin, o.namespaces)
	if err != nil {
		return err
	}
	baseline := mgr.memory()

	step(fmt.Sprintf("creating %d HadoopClusters at once", o.clusters))
	start := time.Now()
	if err := createClusters(ctx, admin, namespaces, o.clusters); err != nil {
		return err
	}
	created := time.Since(start)
	childrenAt, err := waitFor(ctx, start, func() (bool, error) { return allChildren(ctx, admin, o.clusters*childrenPerCluster) })
	if err != nil {
		return fmt.Errorf("waiting for the children: %w", err)
	}
	reportedAt, err := waitFor(ctx, start, func() (bool, error) { return allReported(ctx, admin, o.clusters) })
	if err != nil {
		return fmt.Errorf("waiting for the clusters' status: %w", err)
	}
	// Steady state starts once the operator has nothing left to do: its work queues
	// are empty and no worker is busy, for a while. A hot loop never gets there; the
	// window then starts after maxSettle, and its writes show the loop.
	idle := "never, within " + maxSettle.String()
	settleCtx, cancelSettle := context.WithTimeout(ctx, maxSettle)
	idleAt, err := waitFor(settleCtx, start, func() (bool, error) { return metrics.idleFor(2 * time.Second) })
	cancelSettle()
	switch {
	case err == nil:
		idle = round(idleAt).String()
	case !errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("waiting for the operator to become idle: %w", err)
	}
	convergeWrites, err := countWrites(auditLog, start, time.Now())
	if err != nil {
		return err
	}
	convergePasses, err := metrics.passes()
	if err != nil {
		return err
	}

	step(fmt.Sprintf("watching %s of steady state", o.steady))
	before, err := snapshot(ctx, admin, namespaces)
	if err != nil {
		return err
	}
	from := time.Now()
	time.Sleep(o.steady)
	to := time.Now()
	after, err := snapshot(ctx, admin, namespaces)
	if err != nil {
		return err
	}
	// The audit backend writes an event once the response is complete; give the last
	// ones time to reach the file.
	time.Sleep(2 * time.Second)
	steadyWrites, err := countWrites(auditLog, from, to)
	if err != nil {
		return err
	}
	steadyPasses, err := metrics.passes()
	if err != nil {
		return err
	}
	mem := mgr.memory()
	if !mgr.running() {
		return fmt.Errorf("the manager exited during the run; see its log")
	}

	changed := 0
	for uid, rv := range after {
		if before[uid] != rv {
			changed++
		}
	}
	fmt.Println()
	fmt.Printf("HadoopClusters                           %d in %d namespaces, created in %s\n", o.clusters, o.namespaces, round(created))
	fmt.Printf("time until every child exists            %s (%d objects)\n", round(childrenAt), o.clusters*childrenPerCluster)
	fmt.Printf("time until every status reports them     %s\n", round(reportedAt))
	fmt.Printf("time until the operator is idle          %s (%d HadoopCluster passes)\n", idle, convergePasses)
	fmt.Printf("operator writes until then               %s\n", convergeWrites)
	fmt.Printf("operator writes in %s of steady state   %s (target: %d) %s\n", o.steady, steadyWrites, targetSteadyWrites, verdict(steadyWrites.total() <= targetSteadyWrites))
	fmt.Printf("HadoopCluster passes in that window      %d\n", steadyPasses-convergePasses)
	fmt.Printf("objects changed in that window           %d of %d\n", changed, len(after))
	fmt.Printf("manager memory before the clusters       %.1f MiB resident\n", baseline.current)
	fmt.Printf("manager peak memory (VmHWM)              %.1f MiB, now %.1f MiB (target: under %d MiB) %s\n", mem.peak, mem.current, targetPeakMiB, verdict(mem.peak < targetPeakMiB))
	return nil
}

func step(s string) { fmt.Printf("[%s] %s\n", time.Now().Format("15:04:05"), s) }

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "MISSED"
}

func round(d time.Duration) time.Duration { return d.Round(10 * time.Millisecond) }

// startEnv starts envtest with the project's and Rook's CRDs and an audit policy that
// records the operator's writes.
func startEnv(work string) (*envtest.Environment, string, error) {
	env, err := testenv.New()
	if err != nil {
		return nil, "", err
	}
	policy := filepath.Join(work, "audit-policy.yaml")
	if err := os.WriteFile(policy, []byte(auditPolicy), 0o600); err != nil {
		return nil, "", err
	}
	auditLog := filepath.Join(work, "audit.log")
	env.ControlPlane.GetAPIServer().Configure().
		// Every cluster has two Services with a cluster IP; envtest's default range
		// holds 254.
		Set("service-cluster-ip-range", "10.96.0.0/16").
		Set("audit-policy-file", policy).
		Set("audit-log-path", auditLog).
		Set("audit-log-format", "json")
	if _, err := testenv.Start(env); err != nil {
		return nil, "", fmt.Errorf("starting envtest: %w", err)
	}
	return env, auditLog, nil
}

const auditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
  - level: Metadata
    users: ["` + operatorUser + `"]
    verbs: ["create", "update", "patch", "delete", "deletecollection"]
  - level: None
`

// operatorKubeconfig provisions the operator's user with full rights, as the
// ClusterRole does in a real cluster, and writes its kubeconfig.
func operatorKubeconfig(env *envtest.Environment, work string) (string, error) {
	user, err := env.AddUser(envtest.User{Name: operatorUser, Groups: []string{"system:masters"}}, nil)
	if err != nil {
		return "", err
	}
	data, err := user.KubeConfig()
	if err != nil {
		return "", err
	}
	path := filepath.Join(work, "operator.kubeconfig")
	return path, os.WriteFile(path, data, 0o600)
}

// managerProcess is the manager running as a child process.
type managerProcess struct {
	cmd         *exec.Cmd
	done        chan struct{}
	metricsAddr string
}

func startManager(binary, kubeconfig, logPath string) (*managerProcess, error) {
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	metricsAddr, err := freeAddress()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(binary,
		"--metrics-bind-address="+metricsAddr,
		// Plain HTTP on a loopback port only the benchmark reads: the secure endpoint
		// (the default) authenticates each scrape through the API server, which would
		// add the benchmark's own requests to what it measures.
		"--metrics-secure=false",
		"--health-probe-bind-address=0",
		"--hadoop-image=registry.example.com/hadoopceph/hadoop:3.4.2",
	)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the manager: %w", err)
	}
	m := &managerProcess{cmd: cmd, done: make(chan struct{}), metricsAddr: metricsAddr}
	go func() {
		_ = cmd.Wait()
		logFile.Close()
		close(m.done)
	}()
	return m, nil
}

func (m *managerProcess) running() bool {
	select {
	case <-m.done:
		return false
	default:
		return true
	}
}

func (m *managerProcess) stop() {
	if m.running() {
		_ = m.cmd.Process.Signal(os.Interrupt)
		select {
		case <-m.done:
		case <-time.After(10 * time.Second):
			_ = m.cmd.Process.Kill()
			<-m.done
		}
	}
}

// freeAddress is a loopback address with a port nothing listens on.
func freeAddress() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// metricsClient reads the manager's Prometheus metrics.
type metricsClient struct {
	url       string
	idleSince time.Time
}

// sum adds up the samples of a metric whose labels include labels (nil: all of them),
// read with Prometheus's own parser (test/promtext).
func (m *metricsClient) sum(name string, labels map[string]string) (float64, error) {
	resp, err := http.Get(m.url)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	// An error page has none of the series, which would read as zero passes and an idle
	// operator.
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET %s: %s", m.url, resp.Status)
	}
	e, err := promtext.Parse(resp.Body)
	if err != nil {
		return 0, fmt.Errorf("GET %s: %w", m.url, err)
	}
	return e.Sum(name, labels), nil
}

// idleFor reports whether every controller's queue has been empty, with no worker
// busy, for at least d.
func (m *metricsClient) idleFor(d time.Duration) (bool, error) {
	depth, err := m.sum("workqueue_depth", nil)
	if err != nil {
		return false, err
	}
	active, err := m.sum("controller_runtime_active_workers", nil)
	if err != nil {
		return false, err
	}
	if depth > 0 || active > 0 {
		m.idleSince = time.Time{}
		return false, nil
	}
	if m.idleSince.IsZero() {
		m.idleSince = time.Now()
	}
	return time.Since(m.idleSince) >= d, nil
}

// passes counts the HadoopCluster controller's reconciles so far.
func (m *metricsClient) passes() (int, error) {
	n, err := m.sum("controller_runtime_reconcile_total", map[string]string{"controller": "hadoopcluster"})
	return int(n), err
}

// memory is a resident set size in MiB: the peak so far (VmHWM) and the current one.
type memory struct{ peak, current float64 }

// memory reads the manager's resident set from /proc.
func (m *managerProcess) memory() memory {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", m.cmd.Process.Pid))
	if err != nil {
		return memory{}
	}
	var out memory
	for _, line := range strings.Split(string(data), "\n") {
		field, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		kib, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 64)
		if err != nil {
			continue
		}
		switch field {
		case "VmHWM":
			out.peak = kib / 1024
		case "VmRSS":
			out.current = kib / 1024
		}
	}
	return out
}

// createBackends creates n namespaces, each with an external StorageBackend and its
// key, and waits until the manager has made every backend Ready.
func createBackends(ctx context.Context, c client.Client, n int) ([]string, error) {
	var namespaces []string
	for i := range n {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: fmt.Sprintf("bench-%02d-", i)}}
		if err := c.Create(ctx, ns); err != nil {
			return nil, err
		}
		namespaces = append(namespaces, ns.Name)
		key := &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns.Name, Name: "ceph-key"},
			Data:       map[string][]byte{"key": []byte("AQAA8VNlAAAAABAAAQIDBAUGBwgJCgsMDQ4PEA==")},
		}
		sb := &v1alpha1.StorageBackend{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns.Name, Name: "cephfs"},
			Spec: v1alpha1.StorageBackendSpec{CephFS: v1alpha1.CephFSSpec{External: &v1alpha1.ExternalCephFS{
				Monitors:       []string{"10.1.0.1:6789", "10.1.0.2:6789", "10.1.0.3:6789"},
				FilesystemName: "cephfs",
				ClientID:       "hadoop",
				KeySecretRef:   v1alpha1.SecretKeyRef{Name: key.Name},
				RootPath:       "/hadoop",
			}}},
		}
		for _, obj := range []client.Object{key, sb} {
			if err := c.Create(ctx, obj); err != nil {
				return nil, err
			}
		}
	}
	_, err := waitFor(ctx, time.Now(), func() (bool, error) {
		list := &v1alpha1.StorageBackendList{}
		if err := c.List(ctx, list); err != nil {
			return false, err
		}
		ready := 0
		for _, sb := range list.Items {
			if meta.IsStatusConditionTrue(sb.Status.Conditions, v1alpha1.ConditionReady) {
				ready++
			}
		}
		return ready == n, nil
	})
	if err != nil {
		return nil, fmt.Errorf("waiting for the StorageBackends to be Ready (is the manager running? see its log): %w", err)
	}
	return namespaces, nil
}

// createClusters creates n HadoopClusters round-robin over namespaces, from several
// clients at once, as a burst of kubectl apply would.
func createClusters(ctx context.Context, c client.Client, namespaces []string, n int) error {
	const workers = 16
	jobs := make(chan int)
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				hc := &v1alpha1.HadoopCluster{
					ObjectMeta: metav1.ObjectMeta{Namespace: namespaces[i%len(namespaces)], Name: fmt.Sprintf("hadoop-%03d", i)},
					Spec:       v1alpha1.HadoopClusterSpec{StorageBackendRef: v1alpha1.LocalObjectReference{Name: "cephfs"}},
				}
				if err := c.Create(ctx, hc); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return errors.Join(errs...)
}

// waitFor polls done until it is true and returns the time since start.
func waitFor(ctx context.Context, start time.Time, done func() (bool, error)) (time.Duration, error) {
	for {
		ok, err := done()
		if err != nil {
			return 0, err
		}
		if ok {
			return time.Since(start), nil
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

var childKinds = []schema.GroupVersionKind{
	{Version: "v1", Kind: "ServiceAccountList"},
	{Version: "v1", Kind: "ConfigMapList"},
	{Version: "v1", Kind: "ServiceList"},
	{Group: "apps", Version: "v1", Kind: "StatefulSetList"},
	{Group: "policy", Version: "v1", Kind: "PodDisruptionBudgetList"},
	{Group: "networking.k8s.io", Version: "v1", Kind: "NetworkPolicyList"},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "RoleList"},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "RoleBindingList"},
}

// allChildren reports whether want children of HadoopClusters exist.
func allChildren(ctx context.Context, c client.Client, want int) (bool, error) {
	selector := labels.SelectorFromSet(labels.Set{"app.kubernetes.io/name": "hadoop", "app.kubernetes.io/managed-by": "hadoop-ceph-operator"})
	found := 0
	for _, gvk := range childKinds {
		list := &metav1.PartialObjectMetadataList{}
		list.SetGroupVersionKind(gvk)
		if err := c.List(ctx, list, client.MatchingLabelsSelector{Selector: selector}); err != nil {
			return false, err
		}
		found += len(list.Items)
	}
	return found >= want, nil
}

// allReported reports whether every cluster's status describes its current generation
// with its configuration applied.
func allReported(ctx context.Context, c client.Client, want int) (bool, error) {
	list := &v1alpha1.HadoopClusterList{}
	if err := c.List(ctx, list); err != nil {
		return false, err
	}
	reported := 0
	for _, hc := range list.Items {
		if hc.Status.ObservedGeneration == hc.Generation && meta.IsStatusConditionTrue(hc.Status.Conditions, v1alpha1.ConditionConfigReady) &&
			hc.Status.NodeManagers != "" {
			reported++
		}
	}
	return reported == want, nil
}

var snapshotKinds = append([]schema.GroupVersionKind{
	{Group: "hadoopceph.io", Version: "v1alpha1", Kind: "HadoopClusterList"},
	{Group: "hadoopceph.io", Version: "v1alpha1", Kind: "StorageBackendList"},
	{Version: "v1", Kind: "SecretList"},
	{Group: "events.k8s.io", Version: "v1", Kind: "EventList"},
}, childKinds...)

// snapshot maps every object of the benchmark's namespaces to its resourceVersion.
func snapshot(ctx context.Context, c client.Client, namespaces []string) (map[string]string, error) {
	out := map[string]string{}
	for _, ns := range namespaces {
		for _, gvk := range snapshotKinds {
			list := &metav1.PartialObjectMetadataList{}
			list.SetGroupVersionKind(gvk)
			if err := c.List(ctx, list, client.InNamespace(ns)); err != nil {
				return nil, err
			}
			for _, item := range list.Items {
				out[string(item.UID)] = item.ResourceVersion
			}
		}
	}
	return out, nil
}

// writes counts audit events by "verb resource[/subresource]".
type writes map[string]int

func (w writes) total() int {
	n := 0
	for _, v := range w {
		n += v
	}
	return n
}

// String is the total followed by the counts by verb and resource.
func (w writes) String() string {
	parts := make([]string, 0, len(w))
	for _, k := range slices.Sorted(maps.Keys(w)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, w[k]))
	}
	if len(parts) == 0 {
		return "0"
	}
	return fmt.Sprintf("%d (%s)", w.total(), strings.Join(parts, ", "))
}

// countWrites counts the operator's writes the audit log received in [from, to).
func countWrites(path string, from, to time.Time) (writes, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := writes{}
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 1<<20), 1<<24)
	for scanner.Scan() {
		var e struct {
			Verb      string                    `json:"verb"`
			User      struct{ Username string } `json:"user"`
			ObjectRef struct {
				Resource    string `json:"resource"`
				Subresource string `json:"subresource"`
			} `json:"objectRef"`
			RequestReceivedTimestamp time.Time `json:"requestReceivedTimestamp"`
		}
		if err := json.Unmarshal(scanner.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("reading the audit log: %w", err)
		}
		if e.User.Username != operatorUser || e.RequestReceivedTimestamp.Before(from) || !e.RequestReceivedTimestamp.Before(to) {
			continue
		}
		key := e.Verb + " " + e.ObjectRef.Resource
		if e.ObjectRef.Subresource != "" {
			key += "/" + e.ObjectRef.Subresource
		}
		out[key]++
	}
	return out, scanner.Err()
}
