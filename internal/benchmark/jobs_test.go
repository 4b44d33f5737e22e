package benchmark

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/golden"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// jobCases are the runs of testdata/jobs/<name>/run.yaml on the cluster next to them,
// with the storage the HadoopCluster controller would resolve.
var jobCases = []struct {
	name    string
	storage hadoop.Storage
}{
	{name: "terasort", storage: hadoop.Storage{
		Filesystem: "hadoopfs-ec", RootPath: "/volumes/hadoop", ClientID: "hadoop-bench-cephfs-ec",
		ClientConfigSecret: "cephfs-ec-ceph-client", ClientConfigHash: "9b1e04c7d2a5f318",
		RookNamespace: "rook-ceph", PublicNetwork: &v1alpha1.NetworkAttachment{Name: "public-net", Namespace: "rook-ceph"},
	}},
	{name: "testdfsio", storage: hadoop.Storage{
		Filesystem: "cephfs", RootPath: "/hadoop", ClientID: "hadoop",
		ClientConfigSecret: "ceph-external-ceph-client", ClientConfigHash: "c0ffee0123456789",
	}},
	{name: "ingest", storage: hadoop.Storage{
		Filesystem: "hadoopfs", RootPath: "/volumes/hadoop", ClientID: "hadoop-ingest-cephfs-replicated",
		ClientConfigSecret: "cephfs-replicated-ceph-client", ClientConfigHash: "3f2a9c1d5e7b8a60", RookNamespace: "rook-ceph",
	}},
	{name: "wordcount", storage: hadoop.Storage{
		Filesystem: "hadoopfs", RootPath: "/volumes/hadoop", ClientID: "hadoop-data-cephfs-replicated",
		ClientConfigSecret: "cephfs-replicated-ceph-client", ClientConfigHash: "3f2a9c1d5e7b8a60", RookNamespace: "rook-ceph",
	}},
	{name: "grep", storage: hadoop.Storage{
		Filesystem: "hadoopfs", RootPath: "/volumes/hadoop", ClientID: "hadoop-data-cephfs-replicated",
		ClientConfigSecret: "cephfs-replicated-ceph-client", ClientConfigHash: "3f2a9c1d5e7b8a60", RookNamespace: "rook-ceph",
	}},
}

// TestJobGolden compares the Job of every step of each case with
// testdata/jobs/<case>/job-<name>.yaml.
func TestJobGolden(t *testing.T) {
	for _, tc := range jobCases {
		t.Run(tc.name, func(t *testing.T) {
			in := jobInput(t, tc.name, tc.storage)
			var names []string
			for _, step := range Plan(&in.Run.Spec) {
				job, err := Job(in, step, 6*time.Hour+500*time.Millisecond)
				if err != nil {
					t.Fatalf("Job(%v): %v", step, err)
				}
				names = append(names, job.Name)
				golden.Assert(t, filepath.Join("jobs", tc.name, "job-"+job.Name+".yaml"), golden.YAML(t, job))
			}
			// A step the plan no longer has would leave its golden file behind.
			files, _ := filepath.Glob(filepath.Join("testdata", "jobs", tc.name, "job-*.yaml"))
			if len(files) != len(names) {
				t.Errorf("testdata/jobs/%s has %d job files for %d steps %v", tc.name, len(files), len(names), names)
			}
		})
	}
}

func TestJobNamesFitLabels(t *testing.T) {
	run := &v1alpha1.BenchmarkRun{}
	run.Name = strings.Repeat("r", 46)
	for _, stage := range []v1alpha1.BenchmarkStage{
		v1alpha1.StageTeraGen, v1alpha1.StageTeraSort, v1alpha1.StageTeraValidate, v1alpha1.StageDFSIOWrite,
		v1alpha1.StageDFSIORead, v1alpha1.StageIngest, v1alpha1.StageWordCount, v1alpha1.StageGrep, v1alpha1.StageCleanup,
	} {
		name := JobName(run, Step{Stage: stage, Repetition: 10})
		if errs := validation.IsDNS1123Label(name); len(errs) > 0 {
			t.Errorf("%s: %v", name, errs)
		}
	}
	// Indexed Job pods are named and hostnamed <job>-<index>; ingest has up to 256.
	host := JobName(run, Step{Stage: v1alpha1.StageIngest, Repetition: 10}) + "-255"
	if errs := validation.IsDNS1123Label(host); len(errs) > 0 {
		t.Errorf("ingest pod hostname %s: %v", host, errs)
	}
}

func TestJobDeadline(t *testing.T) {
	in := jobInput(t, "wordcount", jobCases[3].storage)
	for _, tc := range []struct {
		left time.Duration
		want int64
	}{
		{left: 90 * time.Minute, want: 5400},
		{left: 1500 * time.Millisecond, want: 2},
		{left: 0, want: 1},
		{left: -time.Minute, want: 1},
	} {
		job, err := Job(in, Step{Stage: v1alpha1.StageWordCount, Repetition: 1}, tc.left)
		if err != nil {
			t.Fatal(err)
		}
		if got := *job.Spec.ActiveDeadlineSeconds; got != tc.want {
			t.Errorf("%v left: activeDeadlineSeconds %d, want %d", tc.left, got, tc.want)
		}
	}
}

func TestJobRefusesWhatItCannotBuild(t *testing.T) {
	in := jobInput(t, "wordcount", jobCases[3].storage)
	if _, err := Job(in, Step{Stage: "shuffle", Repetition: 1}, time.Hour); err == nil {
		t.Error("an unknown stage built a Job")
	}
	in.Run.Spec.WordCount = nil
	if _, err := Job(in, Step{Stage: v1alpha1.StageWordCount, Repetition: 1}, time.Hour); err == nil {
		t.Error("a run without a workload built a Job")
	}
}

func TestOutputReplication(t *testing.T) {
	in := jobInput(t, "terasort", jobCases[0].storage)
	if got := outputReplication(in.Run.Spec.TeraSort, in.Cluster.Cluster, ""); got != "2" {
		t.Errorf("from the cluster's dfs.replication: %s, want 2", got)
	}
	three := int32(3)
	in.Run.Spec.TeraSort.OutputReplication = &three
	if got := outputReplication(in.Run.Spec.TeraSort, in.Cluster.Cluster, ""); got != "3" {
		t.Errorf("from the run: %s, want 3", got)
	}
	in.Run.Spec.TeraSort.OutputReplication = nil
	in.Cluster.Cluster.Spec.Config.CoreSite = nil
	if got := outputReplication(in.Run.Spec.TeraSort, in.Cluster.Cluster, ""); got != "3" {
		t.Errorf("Hadoop's default: %s, want 3", got)
	}
	in.Cluster.Storage = hadoop.Storage{HDFS: &hadoop.HDFSStorage{DefaultFS: "hdfs://hdfs", Site: map[string]string{"dfs.replication": "2"}}}
	if got := outputReplication(in.Run.Spec.TeraSort, in.Cluster.Cluster, hdfsReplication(in.Cluster.Storage)); got != "2" {
		t.Errorf("on HDFS, from the backend's hdfs-site.xml: %s, want 2", got)
	}
}

func TestDFSIOSize(t *testing.T) {
	for bytes, want := range map[int64]string{1 << 20: "1MB", 1 << 30: "1024MB", 1<<20 + 1: "1048577B"} {
		if got := dfsioSize(bytes); got != want {
			t.Errorf("dfsioSize(%d) = %s, want %s", bytes, got, want)
		}
	}
}

func jobInput(t *testing.T, name string, storage hadoop.Storage) Input {
	t.Helper()
	run := &v1alpha1.BenchmarkRun{}
	load(t, filepath.Join("jobs", name, "run.yaml"), run)
	hc := &v1alpha1.HadoopCluster{}
	load(t, filepath.Join("jobs", name, "cluster.yaml"), hc)
	return Input{
		Run:        run,
		Cluster:    hadoop.Input{Cluster: hc, Storage: storage, Defaults: hadoop.Defaults{Image: "registry.example.com/hadoopceph/hadoop:3.4.2"}},
		ConfigHash: "5d41402abc4b2a76",
	}
}

func load(t *testing.T, name string, into any) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(raw, into); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}
