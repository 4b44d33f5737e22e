// Package benchmark turns a BenchmarkRun into the Kubernetes Jobs of its stages and
// reads back what they report: the runner's termination messages, with the output of
// TeraGen, TeraSort, TeraValidate, TestDFSIO, WordCount, Grep and `hadoop fs -put`
// inside, into the API's stage results, summaries and baseline comparisons. Like
// internal/hadoop it is pure: no client, no clock.
package benchmark

import (
	"fmt"
	"maps"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// Input is what the Job builder reads.
type Input struct {
	Run *v1alpha1.BenchmarkRun
	// Cluster is the run's HadoopCluster with the storage and defaults its own
	// controller resolves, so that stages see the cluster as its daemons do.
	Cluster hadoop.Input
	// ConfigHash is the cluster's status.configHash, recorded on the stage pods.
	ConfigHash string
}

// Resources of a stage pod. A MapReduce stage's pod only submits and watches its jobs
// (TeraSort's client also samples the input to pick the partitions); the work runs in
// the NodeManagers. An ingest pod runs its puts itself, each a JVM with libcephfs and
// its object cache.
const (
	clientHeap         = "512m"
	putHeap            = "256m"
	putMemoryMiB       = 768
	ingestBaseMemoryMi = 512
	putMilliCPU        = 500
)

var clientResources = corev1.ResourceRequirements{
	Requests: corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse("500m"),
		corev1.ResourceMemory: resource.MustParse("1Gi"),
	},
	Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi")},
}

// Job is the Job of one step. activeDeadline is what is left of the run's deadline;
// the Job stops its pod when it passes. Owner references are the caller's.
//
// Each Job runs its pods once (backoffLimit 0, restartPolicy Never): a benchmark
// stage retried would be measured twice, and a failed pod stays behind with its
// termination message.
func Job(in Input, s Step, activeDeadline time.Duration) (*batchv1.Job, error) {
	run := in.Run
	if Workload(&run.Spec) == "" {
		return nil, fmt.Errorf("BenchmarkRun %s/%s sets no workload", run.Namespace, run.Name)
	}
	args, err := runnerArgs(in, s)
	if err != nil {
		return nil, err
	}
	container := hadoop.ClientContainer{
		Command:   RunnerPath,
		Args:      args,
		Resources: *clientResources.DeepCopy(),
		Heap:      clientHeap,
	}
	var parallelism *int32
	var mode *batchv1.CompletionMode
	if s.Stage == v1alpha1.StageIngest {
		w := run.Spec.Ingest
		container.Resources = ingestResources(max(w.ParallelPuts, 1), w.FileSize.Value())
		container.Heap = putHeap
		parallelism, mode = ptr.To(w.Clients), ptr.To(batchv1.IndexedCompletion)
	}

	labels := jobLabels(run, s)
	pod := hadoop.ClientPodTemplateSpec(in.Cluster, in.ConfigHash, container)
	maps.Copy(pod.Labels, labels)
	pod.Spec.RestartPolicy = corev1.RestartPolicyNever
	// A runner that dies before writing its report still leaves the end of its log.
	pod.Spec.Containers[0].TerminationMessagePolicy = corev1.TerminationMessageFallbackToLogsOnError

	objectLabels := hadoop.Labels(in.Cluster.Cluster, hadoop.Client)
	maps.Copy(objectLabels, labels)
	return &batchv1.Job{
		TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      JobName(run, s),
			Namespace: run.Namespace,
			Labels:    objectLabels,
		},
		Spec: batchv1.JobSpec{
			Parallelism:           parallelism,
			Completions:           parallelism,
			CompletionMode:        mode,
			BackoffLimit:          ptr.To[int32](0),
			ActiveDeadlineSeconds: ptr.To(deadlineSeconds(activeDeadline)),
			Template:              pod,
		},
	}, nil
}

// ingestResources fit puts parallel puts and the file they copy, which the runner
// generates in /tmp, an emptyDir on the node's disk.
func ingestResources(puts int32, fileBytes int64) corev1.ResourceRequirements {
	memory := *resource.NewQuantity((ingestBaseMemoryMi+int64(puts)*putMemoryMiB)<<20, resource.BinarySI)
	return corev1.ResourceRequirements{
		Requests: corev1.ResourceList{
			corev1.ResourceCPU:              *resource.NewMilliQuantity(int64(puts)*putMilliCPU, resource.DecimalSI),
			corev1.ResourceMemory:           memory,
			corev1.ResourceEphemeralStorage: *resource.NewQuantity(fileBytes+1<<30, resource.BinarySI),
		},
		Limits: corev1.ResourceList{corev1.ResourceMemory: memory},
	}
}

// deadlineSeconds rounds up, and is at least 1: a Job needs a positive deadline, and
// one that passed fails the Job at once.
func deadlineSeconds(d time.Duration) int64 {
	return max(int64((d+time.Second-1)/time.Second), 1)
}
