package plugin

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/testenv"
)

// The commands run as a user would run them: against a real kube-apiserver, through a
// kubeconfig file, with the operator's CRDs and their validation installed.
var (
	k8s        client.Client
	kubeconfig string
)

func TestMain(m *testing.M) {
	os.Exit(runSuite(m))
}

func runSuite(m *testing.M) int {
	env, err := testenv.New()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	cfg, err := testenv.Start(env)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer func() { _ = env.Stop() }()
	if k8s, err = client.New(cfg, client.Options{Scheme: testenv.Scheme()}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	user, err := env.AddUser(envtest.User{Name: "analyst", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	data, err := user.KubeConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	dir, err := os.MkdirTemp("", "kubectl-hadoopceph-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer func() { _ = os.RemoveAll(dir) }()
	kubeconfig = filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, data, 0o600); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}

// kubectl runs the plugin with args and the suite's kubeconfig, and returns what it
// wrote to standard output and standard error.
func kubectl(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := NewCommand(genericiooptions.IOStreams{In: &bytes.Buffer{}, Out: &out, ErrOut: &errOut})
	cmd.SetArgs(append([]string{"--kubeconfig", kubeconfig}, args...))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err = cmd.ExecuteContext(ctx)
	return out.String(), errOut.String(), err
}

// namespace makes a namespace of its own for a test.
func namespace(t *testing.T, name string) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: name + "-"}}
	if err := k8s.Create(context.Background(), ns); err != nil {
		t.Fatal(err)
	}
	return ns.Name
}

// storage is how a fixture run's setup names its backend.
type storage struct {
	backend, mode, overhead string
}

var (
	cephReplicated = storage{"ceph", "Rook", "3"}
	hdfsBaseline   = storage{"hdfs", "HDFS", "3"}
)

// teraSortRun creates a succeeded TeraSort run on cluster whose repetitions took the
// given teragen, terasort and teravalidate seconds, with status written as the
// controller writes it: a result per stage and repetition, the setup, and the summary
// from the operator's own Summarize.
func teraSortRun(t *testing.T, ns, name, cluster string, st storage, reps [][3]float64, mutate ...func(*v1alpha1.BenchmarkRun)) *v1alpha1.BenchmarkRun {
	t.Helper()
	ctx := context.Background()
	run := &v1alpha1.BenchmarkRun{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: v1alpha1.BenchmarkRunSpec{
			ClusterRef:  v1alpha1.LocalObjectReference{Name: cluster},
			TeraSort:    &v1alpha1.TeraSortWorkload{Rows: ptr.To[int64](1_000_000)},
			Repetitions: int32(len(reps)),
		},
	}
	for _, m := range mutate {
		m(run)
	}
	if err := k8s.Create(ctx, run); err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	stages := []v1alpha1.BenchmarkStage{v1alpha1.StageTeraGen, v1alpha1.StageTeraSort, v1alpha1.StageTeraValidate}
	at := start
	for i, rep := range reps {
		for j, secs := range rep {
			d := time.Duration(secs * float64(time.Second))
			bytes := int64(100_000_000)
			run.Status.Stages = append(run.Status.Stages, v1alpha1.StageResult{
				Stage:          stages[j],
				Repetition:     int32(i + 1),
				Phase:          v1alpha1.StagePhaseSucceeded,
				JobName:        fmt.Sprintf("%s-%s-r%d", name, stages[j], i+1),
				StartTime:      ptr.To(metav1.NewTime(at)),
				CompletionTime: ptr.To(metav1.NewTime(at.Add(d))),
				Duration:       &metav1.Duration{Duration: d},
				Bytes:          bytes,
				BytesPerSecond: int64(float64(bytes) / secs),
				Throughput:     benchmark.FormatThroughput(int64(float64(bytes) / secs)),
				Message:        fmt.Sprintf("%s repetition %d done", stages[j], i+1),
			})
			at = at.Add(d)
		}
	}
	run.Status.Phase = v1alpha1.BenchmarkPhaseSucceeded
	run.Status.Workload = v1alpha1.WorkloadTeraSort
	run.Status.StartTime = ptr.To(metav1.NewTime(start))
	run.Status.CompletionTime = ptr.To(metav1.NewTime(at))
	run.Status.Setup = &v1alpha1.BenchmarkSetup{
		Cluster: cluster,
		Storage: v1alpha1.StorageSetup{Backend: st.backend, Mode: st.mode, RawOverhead: st.overhead},
		NodeManagers: v1alpha1.NodeManagersSetup{Replicas: 1, MemoryMiB: 6144, VCores: 4, Resources: &v1alpha1.PodResourcesSetup{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("6Gi")},
			Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("6Gi")},
		}},
		Repetitions: int32(len(reps)),
		TeraSort:    &v1alpha1.TeraSortSetup{Maps: 2, Reduces: 2, OutputReplication: 1},
		Network:     &v1alpha1.NetworkSetup{DataInterface: "eth0"},
	}
	run.Status.Summary = benchmark.Summarize(&run.Spec, run.Status.Stages)
	if err := k8s.Status().Update(ctx, run); err != nil {
		t.Fatal(err)
	}
	return run
}
