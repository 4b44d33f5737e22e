package benchmarkrun

import (
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
)

// defaultDeadline is spec.deadline's API default, for runs that predate it.
const defaultDeadline = 24 * time.Hour

// runPass carries one reconcile of a BenchmarkRun. Its status is history (the stages
// that ran, when the run started and ended) plus what the pass derives from it, so
// the pass starts from the status as read.
type runPass struct {
	lifecycle.Pass
	// base is the run as read, the origin of the status patch.
	base *v1alpha1.BenchmarkRun
	run  *v1alpha1.BenchmarkRun
	now  time.Time
	// cluster is the run's HadoopCluster once it is known to be Ready.
	cluster *v1alpha1.HadoopCluster
	// phaseReason and phaseMessage explain the phase on Ready.
	phaseReason, phaseMessage string
}

func newRunPass(run *v1alpha1.BenchmarkRun, now time.Time) *runPass {
	p := &runPass{Pass: lifecycle.NewPass(&run.Status.Conditions, run.Generation), base: run.DeepCopy(), run: run, now: now}
	run.Status.Workload = benchmark.Workload(&run.Spec)
	if c := meta.FindStatusCondition(run.Status.Conditions, v1alpha1.ConditionReady); c != nil {
		p.phaseReason, p.phaseMessage = c.Reason, c.Message
	}
	return p
}

func (p *runPass) finished() bool {
	ph := p.run.Status.Phase
	return ph == v1alpha1.BenchmarkPhaseSucceeded || ph == v1alpha1.BenchmarkPhaseFailed
}

// deadline is spec.deadline.
func (p *runPass) deadline() time.Duration {
	if d := p.run.Spec.Deadline; d != nil {
		return d.Duration
	}
	return defaultDeadline
}

// waitUntilDeadline asks for a pass when the deadline, counted from since, passes.
func (p *runPass) waitUntilDeadline(since time.Time) {
	p.RequeueWithin(max(since.Add(p.deadline()).Sub(p.now), time.Second))
}

func (p *runPass) setPhase(phase v1alpha1.BenchmarkPhase, reason, message string) {
	p.run.Status.Phase = phase
	p.phaseReason, p.phaseMessage = reason, message
}

// fail ends the run.
func (p *runPass) fail(reason, message string) {
	p.setPhase(v1alpha1.BenchmarkPhaseFailed, reason, message)
	p.complete()
}

func (p *runPass) complete() {
	if p.run.Status.CompletionTime == nil {
		p.run.Status.CompletionTime = &metav1.Time{Time: p.now}
	}
	p.StopRequeue()
}

// summarize sets Ready from the phase: True once the run succeeded, else the reason
// the phase has.
func (p *runPass) summarize() {
	if p.phaseReason == "" {
		return
	}
	status := metav1.ConditionFalse
	if p.run.Status.Phase == v1alpha1.BenchmarkPhaseSucceeded {
		status = metav1.ConditionTrue
	}
	p.Set(v1alpha1.ConditionReady, status, p.phaseReason, p.phaseMessage)
}

// progress points status.progress at step i (0-based) of plan, without a percent
// until the pass reads one.
func (p *runPass) progress(i int, plan []benchmark.Step) {
	s := plan[i]
	p.run.Status.Progress = &v1alpha1.BenchmarkProgress{
		Step:       int32(i + 1),
		Steps:      int32(len(plan)),
		Stage:      s.Stage,
		Repetition: s.Repetition,
		Message:    fmt.Sprintf("stage %d of %d: %s, repetition %d", i+1, len(plan), s.Stage, s.Repetition),
	}
}

// runWarnings are the reasons that need a user's action: Ready reasons that end a run,
// or keep it from starting, and baselines that cannot be compared.
var runWarnings = map[string]bool{
	v1alpha1.ReasonHadoopClusterNotFound:    true,
	v1alpha1.ReasonStageFailed:              true,
	v1alpha1.ReasonValidationFailed:         true,
	v1alpha1.ReasonInputPathNotFound:        true,
	v1alpha1.ReasonDeadlineExceeded:         true,
	v1alpha1.ReasonResultUnreadable:         true,
	v1alpha1.ReasonBaselineNotFound:         true,
	v1alpha1.ReasonBaselineWorkloadMismatch: true,
	v1alpha1.ReasonBaselineNotComparable:    true,
	v1alpha1.ReasonReconcileError:           true,
}

// runTransitions turn condition changes into events, once each when they start; Ready
// repeating another condition's new reason is one event. Running is left out:
// StageStarted says more.
var runTransitions = lifecycle.Transitions{
	Warnings: runWarnings,
	Skip: func(c metav1.Condition) bool {
		return c.Reason == v1alpha1.ReasonRunning || c.Reason == v1alpha1.ReasonReconciled
	},
	Note:          func(c metav1.Condition) string { return c.Type + ": " + c.Message },
	OncePerReason: true,
}
