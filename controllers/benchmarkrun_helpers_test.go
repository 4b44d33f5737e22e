package controllers

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"time"

	. "github.com/onsi/gomega"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
)

// The BenchmarkRun specs play the Job controller and the kubelet: for each stage Job
// the operator creates they create its pods, write the runner's report into the
// terminated container's message, as the kubelet copies /dev/termination-log, and
// finish the Job with the conditions the Job controller would set. The reports are
// the captured ones of internal/benchmark/testdata.

// readyCluster creates a HadoopCluster on an external StorageBackend and plays its
// StatefulSets until it is Ready.
func readyCluster(ns, name string) *v1alpha1.HadoopCluster {
	readyExternalBackend(ns, name+"-ceph")
	return playClusterReady(createCluster(ns, name, name+"-ceph"))
}

func playClusterReady(hc *v1alpha1.HadoopCluster) *v1alpha1.HadoopCluster {
	for _, obj := range childrenOf(hc).All() {
		Eventually(get(obj)).Should(Succeed())
	}
	playAllReady(hc)
	Eventually(condition(hc, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
	return hc
}

// newRun is a BenchmarkRun of workload on cluster, without cleanup unless mutate
// turns it on.
func newRun(ns, name, cluster string, mutate ...func(*v1alpha1.BenchmarkRunSpec)) *v1alpha1.BenchmarkRun {
	run := &v1alpha1.BenchmarkRun{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: v1alpha1.BenchmarkRunSpec{
			ClusterRef: v1alpha1.LocalObjectReference{Name: cluster},
			Cleanup:    ptr.To(false),
		},
	}
	for _, m := range mutate {
		m(&run.Spec)
	}
	return run
}

func createRun(ns, name, cluster string, mutate ...func(*v1alpha1.BenchmarkRunSpec)) *v1alpha1.BenchmarkRun {
	run := newRun(ns, name, cluster, mutate...)
	Expect(k8sClient.Create(ctx, run)).To(Succeed())
	return run
}

func teraSort(s *v1alpha1.BenchmarkRunSpec) {
	s.TeraSort = &v1alpha1.TeraSortWorkload{Rows: ptr.To[int64](100000)}
}

func wordCount(s *v1alpha1.BenchmarkRunSpec) {
	s.WordCount = &v1alpha1.WordCountWorkload{InputPath: "/datasets/words"}
}

func runPhase(run *v1alpha1.BenchmarkRun) func(Gomega) v1alpha1.BenchmarkPhase {
	return func(g Gomega) v1alpha1.BenchmarkPhase { return fresh(run)(g).Status.Phase }
}

// stageJob waits for the Job of one stage of run.
func stageJob(run *v1alpha1.BenchmarkRun, stage v1alpha1.BenchmarkStage, rep int32) *batchv1.Job {
	job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: run.Namespace, Name: benchmark.JobName(run, benchmark.Step{Stage: stage, Repetition: rep})}}
	Eventually(get(job)).Should(Succeed())
	return job
}

// report is a captured termination message of internal/benchmark/testdata, with
// changes applied to its fields.
func report(name string, change ...func(map[string]any)) string {
	data, err := os.ReadFile(filepath.Join("..", "internal", "benchmark", "testdata", name+".termination-log.json"))
	Expect(err).NotTo(HaveOccurred())
	if len(change) == 0 {
		return string(data)
	}
	fields := map[string]any{}
	Expect(json.Unmarshal(data, &fields)).To(Succeed())
	for _, c := range change {
		c(fields)
	}
	out, err := json.Marshal(fields)
	Expect(err).NotTo(HaveOccurred())
	return string(out)
}

// cleanupReport is what the runner reports for a cleanup stage.
func cleanupReport() string {
	return `{"v":1,"stage":"cleanup","exit":0,"start":1795320400000,"end":1795320401500}`
}

// exitOf reads the exit status of a report.
func exitOf(message string) int32 {
	var r struct {
		Exit int32 `json:"exit"`
	}
	Expect(json.Unmarshal([]byte(message), &r)).To(Succeed())
	return r.Exit
}

// playStage plays one stage: its Job's pods end with reports, one per pod, and the
// Job finishes, complete when every runner exited 0.
func playStage(run *v1alpha1.BenchmarkRun, stage v1alpha1.BenchmarkStage, rep int32, reports ...string) {
	job := stageJob(run, stage, rep)
	succeeded := true
	for i, message := range reports {
		exit := exitOf(message)
		succeeded = succeeded && exit == 0
		playPod(job, i, exit, message)
	}
	finishJob(job, succeeded, "")
}

// playPod creates pod index of job, terminated with exit and message.
func playPod(job *batchv1.Job, index int, exit int32, message string) {
	container := job.Spec.Template.Spec.Containers[0]
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: job.Namespace,
			Name:      job.Name + "-" + strconv.Itoa(index),
			Labels:    job.Spec.Template.Labels,
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "batch/v1", Kind: "Job", Name: job.Name, UID: job.UID,
				Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
			}},
		},
		Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyNever,
			Containers:    []corev1.Container{{Name: container.Name, Image: container.Image}},
		},
	}
	Expect(k8sClient.Create(ctx, pod)).To(Succeed())
	phase := corev1.PodSucceeded
	if exit != 0 {
		phase = corev1.PodFailed
	}
	now := metav1.Now()
	pod.Status = corev1.PodStatus{
		Phase: phase,
		ContainerStatuses: []corev1.ContainerStatus{{
			Name:  container.Name,
			Image: container.Image,
			State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
				ExitCode: exit, Message: message, StartedAt: now, FinishedAt: now,
			}},
		}},
	}
	Expect(k8sClient.Status().Update(ctx, pod)).To(Succeed())
}

// finishJob plays the Job controller finishing job: complete, or failed for reason
// (BackoffLimitExceeded when empty).
func finishJob(job *batchv1.Job, complete bool, reason string) {
	Eventually(func(g Gomega) {
		g.Expect(get(job)()).To(Succeed())
		now := metav1.Now()
		start := metav1.NewTime(now.Add(-10 * time.Second))
		pods := ptr.Deref(job.Spec.Completions, 1)
		job.Status.StartTime = &start
		job.Status.Active = 0
		job.Status.Ready = ptr.To[int32](0)
		job.Status.Terminating = ptr.To[int32](0)
		if complete {
			job.Status.Succeeded = pods
			job.Status.CompletionTime = &now
			job.Status.Conditions = []batchv1.JobCondition{
				{Type: batchv1.JobSuccessCriteriaMet, Status: corev1.ConditionTrue, Reason: batchv1.JobReasonCompletionsReached, LastTransitionTime: now, LastProbeTime: now},
				{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, Reason: batchv1.JobReasonCompletionsReached, LastTransitionTime: now, LastProbeTime: now},
			}
			if job.Spec.CompletionMode != nil && *job.Spec.CompletionMode == batchv1.IndexedCompletion {
				job.Status.CompletedIndexes = indexRange(pods)
			}
		} else {
			if reason == "" {
				reason = batchv1.JobReasonBackoffLimitExceeded
			}
			job.Status.Failed = 1
			job.Status.Conditions = []batchv1.JobCondition{
				{Type: batchv1.JobFailureTarget, Status: corev1.ConditionTrue, Reason: reason, Message: "played by the spec", LastTransitionTime: now, LastProbeTime: now},
				{Type: batchv1.JobFailed, Status: corev1.ConditionTrue, Reason: reason, Message: "played by the spec", LastTransitionTime: now, LastProbeTime: now},
			}
		}
		g.Expect(k8sClient.Status().Update(ctx, job)).To(Succeed())
	}).Should(Succeed())
}

func indexRange(n int32) string {
	if n == 1 {
		return "0"
	}
	return "0-" + strconv.Itoa(int(n-1))
}
