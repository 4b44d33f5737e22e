package report

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
)

// The fixtures are two TeraSorts of 10,000,000 rows (1 GB) with 3 repetitions, on the
// same NodeManagers: one on a replicated CephFS pool, one on HDFS. Their status is what
// the operator writes: setup when the first stage starts, one result per stage and
// repetition with the runner's duration and bytes, a cleanup after each repetition,
// and the summary from benchmark.Summarize.

const teraSortRows = 10_000_000

// Stage durations in milliseconds, per repetition.
var (
	cephDurations = map[v1alpha1.BenchmarkStage][]int64{
		v1alpha1.StageTeraGen:      {41_218, 39_874, 43_607},
		v1alpha1.StageTeraSort:     {96_412, 101_093, 94_786},
		v1alpha1.StageTeraValidate: {24_331, 25_118, 23_942},
	}
	hdfsDurations = map[v1alpha1.BenchmarkStage][]int64{
		v1alpha1.StageTeraGen:      {36_902, 38_113, 37_471},
		v1alpha1.StageTeraSort:     {104_227, 99_638, 102_901},
		v1alpha1.StageTeraValidate: {21_764, 22_409, 21_950},
	}
)

// started is when the CephFS run's first stage started.
var started = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

func cephSetup() *v1alpha1.BenchmarkSetup {
	return &v1alpha1.BenchmarkSetup{
		Cluster: "analytics",
		Storage: v1alpha1.StorageSetup{Backend: "cephfs-replicated", Mode: "Rook", RawOverhead: "3",
			Pool: &v1alpha1.PoolSetup{Name: "analytics-replicated", Kind: v1alpha1.PoolKindReplicated, Size: 3}},
		NodeManagers: v1alpha1.NodeManagersSetup{Replicas: 3, MemoryMiB: 6144, VCores: 4, Resources: &v1alpha1.PodResourcesSetup{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4"), corev1.ResourceMemory: resource.MustParse("8Gi")},
			Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("8Gi")},
		}},
		Repetitions: 3,
		TeraSort:    &v1alpha1.TeraSortSetup{Maps: 32, Reduces: 16, OutputReplication: 3},
		Network: &v1alpha1.NetworkSetup{
			DataInterface: "net1",
			Attachment:    &v1alpha1.NetworkAttachmentReference{Namespace: "analytics", Name: "data"},
			Rate:          "10Gbit",
		},
	}
}

func hdfsSetup() *v1alpha1.BenchmarkSetup {
	s := cephSetup()
	s.Cluster = "analytics-hdfs"
	s.Storage = v1alpha1.StorageSetup{Backend: "hdfs", Mode: "HDFS", RawOverhead: "3"}
	return s
}

func cephRun() v1alpha1.BenchmarkRun {
	return teraSortRun("terasort-ceph", "analytics", cephSetup(), cephDurations, started)
}

func hdfsRun() v1alpha1.BenchmarkRun {
	return teraSortRun("terasort-hdfs", "analytics-hdfs", hdfsSetup(), hdfsDurations, started.Add(2*time.Hour))
}

// teraSortRun is a TeraSort that succeeded with the given stage durations; its
// repetitions ran one after the other from start, each followed by its cleanup.
// mutate changes the spec before the run runs.
func teraSortRun(name, cluster string, setup *v1alpha1.BenchmarkSetup, durations map[v1alpha1.BenchmarkStage][]int64, start time.Time, mutate ...func(*v1alpha1.BenchmarkRunSpec)) v1alpha1.BenchmarkRun {
	run := v1alpha1.BenchmarkRun{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "bench"},
		Spec: v1alpha1.BenchmarkRunSpec{
			ClusterRef:  v1alpha1.LocalObjectReference{Name: cluster},
			TeraSort:    &v1alpha1.TeraSortWorkload{Rows: ptr.To[int64](teraSortRows)},
			Repetitions: setup.Repetitions,
		},
	}
	for _, m := range mutate {
		m(&run.Spec)
	}
	finish(&run, setup, durations, start)
	return run
}

// finish writes the status of a run that succeeded with the given stage durations.
func finish(run *v1alpha1.BenchmarkRun, setup *v1alpha1.BenchmarkSetup, durations map[v1alpha1.BenchmarkStage][]int64, start time.Time) {
	run.Status = v1alpha1.BenchmarkRunStatus{
		Phase:     v1alpha1.BenchmarkPhaseSucceeded,
		Workload:  benchmark.Workload(&run.Spec),
		StartTime: &metav1.Time{Time: start},
		Setup:     setup,
	}
	at, job := start, 0
	for rep := int32(1); rep <= setup.Repetitions; rep++ {
		for _, stage := range benchmark.MeasuredStages(&run.Spec) {
			job++
			ms := durations[stage][rep-1]
			r := succeededStage(run, stage, rep, at, ms)
			r.HadoopJobs = []string{fmt.Sprintf("job_1772445600000_%04d", job)}
			run.Status.Stages = append(run.Status.Stages, r)
			// The next stage's Job starts a few seconds after this one ends.
			at = r.CompletionTime.Add(7 * time.Second)
		}
		cleanup := v1alpha1.StageResult{
			Stage: v1alpha1.StageCleanup, Repetition: rep, Phase: v1alpha1.StagePhaseSucceeded,
			JobName:   benchmark.JobName(run, benchmark.Step{Stage: v1alpha1.StageCleanup, Repetition: rep}),
			StartTime: &metav1.Time{Time: at}, CompletionTime: &metav1.Time{Time: at.Add(4 * time.Second)},
		}
		run.Status.Stages = append(run.Status.Stages, cleanup)
		at = at.Add(11 * time.Second)
	}
	run.Status.CompletionTime = &metav1.Time{Time: at}
	run.Status.Summary = benchmark.Summarize(&run.Spec, run.Status.Stages)
}

// succeededStage is a measured stage that succeeded as the operator records it: TeraSort's
// stages move their rows times 100 bytes, TestDFSIO's its files times their size, at
// bytes over the runner's duration.
func succeededStage(run *v1alpha1.BenchmarkRun, stage v1alpha1.BenchmarkStage, rep int32, start time.Time, ms int64) v1alpha1.StageResult {
	var bytes int64
	if w := run.Spec.TeraSort; w != nil {
		bytes = benchmark.Rows(w) * 100
	}
	if w := run.Spec.TestDFSIO; w != nil {
		bytes = int64(w.Files) * w.FileSize.Value()
	}
	d := time.Duration(ms) * time.Millisecond
	rate := (bytes*1000 + ms/2) / ms
	return v1alpha1.StageResult{
		Stage: stage, Repetition: rep, Phase: v1alpha1.StagePhaseSucceeded,
		JobName:        benchmark.JobName(run, benchmark.Step{Stage: stage, Repetition: rep}),
		StartTime:      &metav1.Time{Time: start},
		CompletionTime: &metav1.Time{Time: start.Add(d)},
		Duration:       &metav1.Duration{Duration: d},
		Bytes:          bytes,
		BytesPerSecond: rate,
		Throughput:     benchmark.FormatThroughput(rate),
	}
}
