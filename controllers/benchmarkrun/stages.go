package benchmarkrun

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/storage"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// runStages walks the plan: steps that succeeded are skipped, the first other one is
// started or, once its Job has finished, evaluated; a run whose steps all succeeded
// has succeeded. Several steps can finish in one pass when their Jobs are done.
func (r *Reconciler) runStages(ctx context.Context, p *runPass) error {
	run := p.run
	plan := benchmark.Plan(&run.Spec)
	for i, step := range plan {
		at := stageIndex(run.Status.Stages, step)
		if at >= 0 && run.Status.Stages[at].Phase == v1alpha1.StagePhaseSucceeded {
			continue
		}
		p.progress(i, plan)
		done, err := r.runStep(ctx, p, step)
		if err != nil || !done {
			return err
		}
	}
	p.setPhase(v1alpha1.BenchmarkPhaseSucceeded, v1alpha1.ReasonSucceeded,
		fmt.Sprintf("all %d stages of %d repetition(s) succeeded", len(plan), max(run.Spec.Repetitions, 1)))
	p.run.Status.Progress.Percent = nil
	p.run.Status.Progress.Message = fmt.Sprintf("done: %d of %d stages", len(plan), len(plan))
	p.complete()
	return nil
}

// runStep starts step's Job or reads its result, and reports whether the step
// succeeded, so that the next one may start.
func (r *Reconciler) runStep(ctx context.Context, p *runPass, step benchmark.Step) (bool, error) {
	run := p.run
	name := benchmark.JobName(run, step)
	where := fmt.Sprintf("stage %s of repetition %d", step.Stage, step.Repetition)
	job, exists, err := r.stageJob(ctx, client.ObjectKey{Namespace: run.Namespace, Name: name})
	if err != nil {
		return false, err
	}
	if exists && !metav1.IsControlledBy(job, run) {
		message := fmt.Sprintf("%s cannot run: Job %s exists and is not controlled by this run; delete it, or create the run under another name", where, name)
		p.recordStage(v1alpha1.StageResult{Stage: step.Stage, Repetition: step.Repetition, Phase: v1alpha1.StagePhaseFailed, JobName: name, Message: message})
		p.fail(v1alpha1.ReasonStageFailed, message)
		return false, nil
	}

	if run.Status.StartTime != nil && !p.now.Before(run.Status.StartTime.Add(p.deadline())) && (!exists || !lifecycle.JobFinished(job)) {
		return false, r.stopAtDeadline(ctx, p, step, job, exists)
	}
	if !exists {
		return false, r.startStep(ctx, p, step)
	}

	if run.Status.StartTime == nil {
		// The pass that created the Job did not get to record the start.
		if err := r.recordStart(ctx, p, job.CreationTimestamp); err != nil {
			return false, err
		}
	}
	p.setPhase(v1alpha1.BenchmarkPhaseRunning, v1alpha1.ReasonRunning, run.Status.Progress.Message)
	if !lifecycle.JobFinished(job) {
		if stageIndex(run.Status.Stages, step) < 0 {
			p.recordStage(runningStage(step, job))
		}
		p.waitUntilDeadline(run.Status.StartTime.Time)
		r.reportPercent(ctx, p, step, job)
		return false, nil
	}

	outcome, err := r.evaluate(ctx, p, step, job)
	if err != nil {
		return false, err
	}
	res := outcome.Result
	res.Repetition, res.JobName = step.Repetition, name
	if p.cluster != nil {
		res.HistoryURLs = benchmark.HistoryURLs(p.cluster.Status.JobHistoryWebURL, res.HadoopJobs)
	}
	if res.StartTime == nil {
		res.StartTime = job.Status.StartTime
	}
	if res.CompletionTime == nil {
		res.CompletionTime = job.Status.CompletionTime
	}
	p.recordStage(res)
	if res.Phase == v1alpha1.StagePhaseSucceeded {
		r.Events.Record(run, job, corev1.EventTypeNormal, v1alpha1.EventReasonStageSucceeded, "Evaluate",
			fmt.Sprintf("%s succeeded in %s (%s)", where, durationText(res.Duration), res.Throughput))
		return true, nil
	}
	message := where + " failed: " + res.Message
	r.Events.Record(run, job, corev1.EventTypeWarning, v1alpha1.EventReasonStageFailed, "Evaluate", message)
	p.fail(outcome.Reason, message)
	return false, nil
}

// stageJob reads the Job of a stage. The cache holds only the operator's Jobs, so a
// Job it lacks is looked for on the API server: one that someone else created under
// the stage's name, or the operator's own that the cache has not seen yet.
func (r *Reconciler) stageJob(ctx context.Context, key client.ObjectKey) (*batchv1.Job, bool, error) {
	job := &batchv1.Job{}
	err := r.Get(ctx, key, job)
	if apierrors.IsNotFound(err) {
		err = r.APIReader.Get(ctx, key, job)
	}
	switch {
	case apierrors.IsNotFound(err):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("reading Job %s: %w", key.Name, err)
	}
	return job, true, nil
}

// startStep creates step's Job with the time that is left of the deadline.
func (r *Reconciler) startStep(ctx context.Context, p *runPass, step benchmark.Step) error {
	run := p.run
	if p.cluster == nil {
		p.setPhase(v1alpha1.BenchmarkPhaseRunning, v1alpha1.ReasonHadoopClusterNotReady,
			fmt.Sprintf("%s waits for HadoopCluster %s to be Ready", run.Status.Progress.Message, run.Spec.ClusterRef.Name))
		p.waitUntilDeadline(run.Status.StartTime.Time)
		return nil
	}
	start := p.now
	if run.Status.StartTime != nil {
		start = run.Status.StartTime.Time
	}
	in, err := r.jobInput(ctx, p)
	if err != nil {
		return err
	}
	job, err := benchmark.Job(in, step, start.Add(p.deadline()).Sub(p.now))
	if err != nil {
		return err
	}
	if err := controllerutil.SetControllerReference(run, job, r.Scheme); err != nil {
		return err
	}
	if run.Status.StartTime == nil {
		if err := r.recordStart(ctx, p, metav1.Time{Time: start}); err != nil {
			return err
		}
	}
	if err := r.Create(ctx, job); err != nil {
		if apierrors.IsAlreadyExists(err) {
			// The cache has not seen the Job this run created in an earlier pass yet.
			p.RequeueWithin(lifecycle.StaleRetry)
			return nil
		}
		return fmt.Errorf("creating Job %s: %w", job.Name, err)
	}
	p.setPhase(v1alpha1.BenchmarkPhaseRunning, v1alpha1.ReasonRunning, run.Status.Progress.Message)
	p.recordStage(runningStage(step, job))
	r.Events.Record(run, job, corev1.EventTypeNormal, v1alpha1.EventReasonStageStarted, "Start",
		fmt.Sprintf("%s, with Job %s", run.Status.Progress.Message, job.Name))
	p.waitUntilDeadline(run.Status.StartTime.Time)
	return nil
}

// recordStart records when the run started and, once and for good, what it measures:
// status.setup, from the cluster, its StorageBackend and the networks its pods join as
// they are now. A cluster that is not Ready at that moment, which only happens when the
// pass that created the first Job did not get to record its start, leaves the setup
// unknown; a StorageBackend that is not usable at that moment leaves the network
// unknown, since Rook's public network comes with it.
func (r *Reconciler) recordStart(ctx context.Context, p *runPass, start metav1.Time) error {
	run := p.run
	if run.Status.Setup == nil && p.cluster != nil {
		res, err := r.storageResolver().Resolve(ctx, p.cluster)
		if err != nil {
			return fmt.Errorf("resolving the storage of HadoopCluster %s: %w", p.cluster.Name, err)
		}
		run.Status.Setup = benchmark.Setup(&run.Spec, p.cluster, res.Backend, res.Storage)
	}
	run.Status.StartTime = &start
	return nil
}

// stopAtDeadline fails the run whose deadline passed during step and deletes the
// step's Job, whose activeDeadlineSeconds stops it at the same time on its own.
func (r *Reconciler) stopAtDeadline(ctx context.Context, p *runPass, step benchmark.Step, job *batchv1.Job, exists bool) error {
	message := fmt.Sprintf("spec.deadline (%s) passed during stage %s of repetition %d", p.deadline(), step.Stage, step.Repetition)
	if exists {
		if err := r.Delete(ctx, job, client.PropagationPolicy(metav1.DeletePropagationBackground)); client.IgnoreNotFound(err) != nil {
			return fmt.Errorf("deleting Job %s: %w", job.Name, err)
		}
	}
	res := v1alpha1.StageResult{Stage: step.Stage, Repetition: step.Repetition, Phase: v1alpha1.StagePhaseFailed, Message: message}
	if exists {
		res.JobName = job.Name
		res.StartTime = job.Status.StartTime
	}
	p.recordStage(res)
	p.fail(v1alpha1.ReasonDeadlineExceeded, message)
	return nil
}

// evaluate reads the reports in the termination messages of the Job's pods. A Job
// the Job controller stopped at its deadline has no report to read.
func (r *Reconciler) evaluate(ctx context.Context, p *runPass, step benchmark.Step, job *batchv1.Job) (benchmark.Outcome, error) {
	failure := lifecycle.JobCondition(job, batchv1.JobFailed)
	if failure != nil && failure.Reason == batchv1.JobReasonDeadlineExceeded {
		return benchmark.Outcome{
			Result: v1alpha1.StageResult{Stage: step.Stage, Phase: v1alpha1.StagePhaseFailed,
				Message: fmt.Sprintf("spec.deadline (%s) passed: the Job was stopped (%s)", p.deadline(), failure.Message)},
			Reason: v1alpha1.ReasonDeadlineExceeded,
		}, nil
	}
	reports, unreadable, err := r.stageReports(ctx, job, step)
	if err != nil {
		return benchmark.Outcome{}, err
	}
	if len(unreadable) > 0 {
		return benchmark.Outcome{
			Result: v1alpha1.StageResult{Stage: step.Stage, Phase: v1alpha1.StagePhaseFailed, Message: lifecycle.Truncate(strings.Join(unreadable, "; "), 1024)},
			Reason: v1alpha1.ReasonResultUnreadable,
		}, nil
	}
	outcome := benchmark.Evaluate(benchmark.StageReports{
		Stage:           step.Stage,
		Reports:         reports,
		Scheme:          benchmark.SchemeCeph,
		TeraGenChecksum: teraGenChecksum(p.run.Status.Stages, step.Repetition),
	})
	if failure != nil && outcome.Result.Phase == v1alpha1.StagePhaseSucceeded {
		// The runner reported success and its pod failed all the same, for example
		// killed after writing the report: the stage's figures cannot be trusted.
		outcome.Result.Phase = v1alpha1.StagePhaseFailed
		outcome.Result.Message = fmt.Sprintf("the Job failed (%s: %s)", failure.Reason, failure.Message)
		outcome.Reason = v1alpha1.ReasonStageFailed
	}
	return outcome, nil
}

// stageReports decodes the termination message of each pod of the Job, in pod name
// order; messages that hold no report are returned as text.
func (r *Reconciler) stageReports(ctx context.Context, job *batchv1.Job, step benchmark.Step) ([]*benchmark.Report, []string, error) {
	pods := &corev1.PodList{}
	if err := r.APIReader.List(ctx, pods, client.InNamespace(job.Namespace), client.MatchingLabels{
		benchmark.LabelRun:        job.Labels[benchmark.LabelRun],
		benchmark.LabelStage:      string(step.Stage),
		benchmark.LabelRepetition: strconv.Itoa(int(step.Repetition)),
	}); err != nil {
		return nil, nil, fmt.Errorf("listing the pods of Job %s: %w", job.Name, err)
	}
	slices.SortFunc(pods.Items, func(a, b corev1.Pod) int { return strings.Compare(a.Name, b.Name) })
	var reports []*benchmark.Report
	var unreadable []string
	for i := range pods.Items {
		pod := &pods.Items[i]
		if !metav1.IsControlledBy(pod, job) {
			continue
		}
		message, ok := terminationMessage(pod)
		if !ok {
			continue
		}
		report, err := benchmark.DecodeReport(message)
		if err != nil {
			unreadable = append(unreadable, fmt.Sprintf("pod %s: %v: %q", pod.Name, err, lifecycle.Truncate(message, 256)))
			continue
		}
		reports = append(reports, report)
	}
	return reports, unreadable, nil
}

// terminationMessage is the message of the pod's terminated container.
func terminationMessage(pod *corev1.Pod) (string, bool) {
	for _, c := range pod.Status.ContainerStatuses {
		if t := c.State.Terminated; t != nil {
			return t.Message, true
		}
	}
	return "", false
}

// jobInput is the cluster as the run's stages see it: its storage resolved as the
// HadoopCluster controller resolves it, and the devices its networks'
// NetworkAttachmentDefinitions name as that controller recorded them for its own pods
// (status.network.attachmentResources), since the stages join the NodeManagers'
// networks.
func (r *Reconciler) jobInput(ctx context.Context, p *runPass) (benchmark.Input, error) {
	hc := p.cluster
	res, err := r.storageResolver().Resolve(ctx, hc)
	if err != nil {
		return benchmark.Input{}, fmt.Errorf("resolving the storage of HadoopCluster %s: %w", hc.Name, err)
	}
	if res.Unmet != nil {
		return benchmark.Input{}, fmt.Errorf("StorageBackend %s of HadoopCluster %s is not usable: %s", hc.Spec.StorageBackendRef.Name, hc.Name, res.Unmet.Message)
	}
	stor := *res.Storage
	return benchmark.Input{
		Run: p.run,
		Cluster: hadoop.Input{Cluster: hc, Storage: stor, Defaults: hadoop.Defaults{Image: r.HadoopImage},
			AttachmentResources: hc.Status.Network.AttachmentResources},
		ConfigHash: hc.Status.ConfigHash,
	}, nil
}

// storageResolver resolves a cluster's storage as the HadoopCluster controller does.
func (r *Reconciler) storageResolver() storage.Resolver {
	return storage.Resolver{Client: r.Client, APIReader: r.APIReader, DefaultRookNamespace: r.RookNamespace, RookServed: r.APIs.Rook}
}

// recordStage puts res in status.stages, replacing the entry of the same stage and
// repetition.
func (p *runPass) recordStage(res v1alpha1.StageResult) {
	stages := &p.run.Status.Stages
	if i := stageIndex(*stages, benchmark.Step{Stage: res.Stage, Repetition: res.Repetition}); i >= 0 {
		(*stages)[i] = res
		return
	}
	*stages = append(*stages, res)
}

func runningStage(step benchmark.Step, job *batchv1.Job) v1alpha1.StageResult {
	start := job.Status.StartTime
	if start == nil {
		start = &job.CreationTimestamp
	}
	if start.IsZero() {
		start = nil
	}
	return v1alpha1.StageResult{Stage: step.Stage, Repetition: step.Repetition, Phase: v1alpha1.StagePhaseRunning, JobName: job.Name, StartTime: start}
}

func stageIndex(stages []v1alpha1.StageResult, step benchmark.Step) int {
	return slices.IndexFunc(stages, func(s v1alpha1.StageResult) bool {
		return s.Stage == step.Stage && s.Repetition == step.Repetition
	})
}

// teraGenChecksum is the TeraGen checksum of repetition rep, which its TeraValidate
// must report.
func teraGenChecksum(stages []v1alpha1.StageResult, rep int32) string {
	i := stageIndex(stages, benchmark.Step{Stage: v1alpha1.StageTeraGen, Repetition: rep})
	if i < 0 || stages[i].Counters == nil {
		return ""
	}
	return stages[i].Counters.TeraGenChecksum
}

func durationText(d *metav1.Duration) string {
	if d == nil {
		return "an unknown time"
	}
	return d.Round(time.Millisecond).String()
}
