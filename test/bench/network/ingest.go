package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/localcluster"
)

// result is one run as the tables show it.
type result struct {
	slot
	// run is the BenchmarkRun's name.
	run string
	// measured is the run's ingest stage; nil when the run failed.
	measured *measurement
	// failure says why the run failed.
	failure string
	// switchBytes is what the data network's switch received while the run ran;
	// switchKnown is false when its counters could not be read.
	switchBytes int64
	switchKnown bool
	// clientNodes is how many nodes the run's client pods ran on.
	clientNodes int
	// network is the run's status.setup.network.
	network *v1alpha1.NetworkSetup
}

// measurement is a run's ingest stage, from its status.
type measurement struct {
	bytes          int64
	duration       time.Duration
	bytesPerSecond int64
	puts, failed   int32
	medianPut      time.Duration
}

// runName is the BenchmarkRun of a slot, such as ingest-1gbit-r2.
func runName(s slot) string { return fmt.Sprintf("ingest-%s-r%d", s.rate, s.repetition) }

// newRun is one repetition of ingest at one rate. Each repetition is a run of its own,
// not one of a run's spec.repetitions: the rate changes between repetitions (their
// order rotates), which it cannot within a run, and a run records its network, the
// rate among it, once, when its first stage starts.
func newRun(o options, s slot) *v1alpha1.BenchmarkRun {
	return &v1alpha1.BenchmarkRun{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: runName(s)},
		Spec: v1alpha1.BenchmarkRunSpec{
			ClusterRef: v1alpha1.LocalObjectReference{Name: clusterName},
			Ingest: &v1alpha1.IngestWorkload{
				Clients:      int32(o.clients),
				ParallelPuts: int32(o.parallelPuts),
				FileSize:     o.fileSize,
			},
			Repetitions: 1,
			Deadline:    &metav1.Duration{Duration: o.runTimeout},
			// The ingested files go after each run, so the OSDs do not fill up over
			// the benchmark; Ceph purges them in the background, during the next run,
			// whatever its rate, which the rotation spreads.
			Cleanup: ptr.To(true),
		},
	}
}

// ingest runs one slot's BenchmarkRun and reads what it measured. A run that failed
// is a result too, with its failure; the error says so.
func ingest(ctx context.Context, c client.Client, o options, s slot) (result, error) {
	r := result{slot: s, run: runName(s)}
	before, beforeErr := localcluster.DataSwitchReceived()
	run := newRun(o, s)
	if err := c.Create(ctx, run); err != nil {
		r.failure = err.Error()
		return r, fmt.Errorf("creating BenchmarkRun %s: %w", r.run, err)
	}
	waitCtx, cancel := context.WithTimeout(ctx, o.runTimeout+time.Minute)
	defer cancel()
	err := waitFor(waitCtx, "BenchmarkRun "+r.run, func(ctx context.Context) (bool, string, error) {
		if err := c.Get(ctx, client.ObjectKeyFromObject(run), run); err != nil {
			return false, "", err
		}
		st := run.Status
		state := string(st.Phase)
		if st.Progress != nil && st.Progress.Message != "" {
			state += ", " + st.Progress.Message
		}
		return st.Phase == v1alpha1.BenchmarkPhaseSucceeded || st.Phase == v1alpha1.BenchmarkPhaseFailed, state, nil
	})
	after, afterErr := localcluster.DataSwitchReceived()
	if beforeErr == nil && afterErr == nil {
		r.switchBytes, r.switchKnown = after-before, true
	}
	if err != nil {
		r.failure = err.Error()
		if ctx.Err() == nil {
			// A run still there would hold the cluster, and the next would queue
			// behind it.
			if delErr := c.Delete(ctx, run, client.PropagationPolicy(metav1.DeletePropagationBackground)); client.IgnoreNotFound(delErr) != nil {
				err = errors.Join(err, fmt.Errorf("deleting BenchmarkRun %s: %w", r.run, delErr))
			}
		}
		return r, err
	}
	if run.Status.Setup != nil {
		r.network = run.Status.Setup.Network
	}
	if r.clientNodes, err = clientNodes(ctx, c, r.run); err != nil {
		r.failure = err.Error()
		return r, err
	}
	m, err := measure(run.Status)
	if err != nil {
		r.failure = err.Error()
		return r, err
	}
	r.measured = &m
	if want := linkRate(s.rate); r.network == nil || r.network.Rate != want {
		declared := "no rate"
		if want != "" {
			declared = want
		}
		fmt.Printf("    BenchmarkRun %s recorded %s, though it ran at %s (%s)\n", r.run, networkText(r.network), s.rate, declared)
	}
	return r, nil
}

// clientNodes counts the nodes a run's ingest pods ran on.
func clientNodes(ctx context.Context, c client.Client, run string) (int, error) {
	pods := &corev1.PodList{}
	if err := c.List(ctx, pods, client.InNamespace(namespace),
		client.MatchingLabels{benchmark.LabelRun: run, benchmark.LabelStage: string(v1alpha1.StageIngest)}); err != nil {
		return 0, err
	}
	nodes := map[string]bool{}
	for _, p := range pods.Items {
		if p.Spec.NodeName != "" {
			nodes[p.Spec.NodeName] = true
		}
	}
	return len(nodes), nil
}

// measure reads the ingest stage of a finished run of one repetition: the bytes every
// client put, over the time from the first put's start to the last one's end.
func measure(st v1alpha1.BenchmarkRunStatus) (measurement, error) {
	if st.Phase != v1alpha1.BenchmarkPhaseSucceeded {
		why := "no reason given"
		if c := meta.FindStatusCondition(st.Conditions, v1alpha1.ConditionReady); c != nil {
			why = c.Reason + ": " + c.Message
		}
		return measurement{}, fmt.Errorf("the run is %s, not %s (%s)", phaseText(st.Phase), v1alpha1.BenchmarkPhaseSucceeded, why)
	}
	var stages []v1alpha1.StageResult
	for _, s := range st.Stages {
		if s.Stage == v1alpha1.StageIngest {
			stages = append(stages, s)
		}
	}
	if len(stages) != 1 {
		return measurement{}, fmt.Errorf("the run has %d ingest stages, and one repetition has one", len(stages))
	}
	s := stages[0]
	if s.Phase != v1alpha1.StagePhaseSucceeded || s.BytesPerSecond <= 0 || s.Duration == nil {
		return measurement{}, fmt.Errorf("its ingest stage is %s with %d bytes per second: nothing measured", s.Phase, s.BytesPerSecond)
	}
	m := measurement{bytes: s.Bytes, duration: s.Duration.Duration, bytesPerSecond: s.BytesPerSecond}
	if in := s.Ingest; in != nil {
		m.puts, m.failed = in.Puts, in.Failed
		if in.Median != nil {
			m.medianPut = in.Median.Duration
		}
	}
	return m, nil
}

func phaseText(p v1alpha1.BenchmarkPhase) string {
	if p == "" {
		return "without a phase"
	}
	return string(p)
}
