package benchmark

import (
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// HeadlineStage is the stage whose throughput stands for a workload in kubectl get
// and against a baseline: the sort for TeraSort, the write for TestDFSIO.
func HeadlineStage(w v1alpha1.BenchmarkWorkload) v1alpha1.BenchmarkStage {
	switch w {
	case v1alpha1.WorkloadTeraSort:
		return v1alpha1.StageTeraSort
	case v1alpha1.WorkloadTestDFSIO:
		return v1alpha1.StageDFSIOWrite
	case v1alpha1.WorkloadIngest:
		return v1alpha1.StageIngest
	case v1alpha1.WorkloadWordCount:
		return v1alpha1.StageWordCount
	case v1alpha1.WorkloadGrep:
		return v1alpha1.StageGrep
	}
	return ""
}

// Summarize takes the medians over the repetitions whose measured stages all
// succeeded, or returns nil when there is none yet. Each figure's median is taken on
// its own, so a stage's median bytes per second need not be its median bytes over its
// median duration.
func Summarize(spec *v1alpha1.BenchmarkRunSpec, stages []v1alpha1.StageResult) *v1alpha1.BenchmarkSummary {
	measured := MeasuredStages(spec)
	var complete [][]v1alpha1.StageResult
	for rep := int32(1); rep <= repetitions(spec); rep++ {
		var results []v1alpha1.StageResult
		for _, stage := range measured {
			i := slices.IndexFunc(stages, func(s v1alpha1.StageResult) bool {
				return s.Stage == stage && s.Repetition == rep && s.Phase == v1alpha1.StagePhaseSucceeded
			})
			if i < 0 {
				break
			}
			results = append(results, stages[i])
		}
		if len(results) == len(measured) {
			complete = append(complete, results)
		}
	}
	if len(complete) == 0 {
		return nil
	}

	sum := &v1alpha1.BenchmarkSummary{Repetitions: int32(len(complete))}
	totals := make([]time.Duration, len(complete))
	for i, stage := range measured {
		durations := make([]time.Duration, len(complete))
		var bytes, rates []int64
		for r, results := range complete {
			durations[r] = duration(results[i])
			totals[r] += durations[r]
			bytes = append(bytes, results[i].Bytes)
			rates = append(rates, results[i].BytesPerSecond)
		}
		s := v1alpha1.StageSummary{
			Stage:          stage,
			Duration:       &metav1.Duration{Duration: medianDuration(durations)},
			Bytes:          median(bytes),
			BytesPerSecond: median(rates),
		}
		s.Throughput = FormatThroughput(s.BytesPerSecond)
		sum.Stages = append(sum.Stages, s)
	}
	sum.Duration = &metav1.Duration{Duration: medianDuration(totals)}
	sum.Throughput = headline(Workload(spec), sum.Stages)
	return sum
}

// headline is the summary's throughput for kubectl get. TestDFSIO shows both of its
// figures, since write and read rates differ a lot on CephFS.
func headline(w v1alpha1.BenchmarkWorkload, stages []v1alpha1.StageSummary) string {
	if w == v1alpha1.WorkloadTestDFSIO {
		var parts []string
		for _, s := range stages {
			if s.Throughput != "" {
				parts = append(parts, strings.TrimPrefix(string(s.Stage), "dfsio-")+" "+s.Throughput)
			}
		}
		return strings.Join(parts, ", ")
	}
	if s := stageSummary(stages, HeadlineStage(w)); s != nil {
		return s.Throughput
	}
	return ""
}

// Compare is summary over baseline, stage by stage, for the stages both have.
func Compare(baselineName string, w v1alpha1.BenchmarkWorkload, summary, baseline *v1alpha1.BenchmarkSummary) *v1alpha1.BaselineComparison {
	out := &v1alpha1.BaselineComparison{Name: baselineName}
	if summary == nil || baseline == nil {
		return out
	}
	for _, s := range summary.Stages {
		b := stageSummary(baseline.Stages, s.Stage)
		if b == nil {
			continue
		}
		r := v1alpha1.StageRatio{Stage: s.Stage}
		if b.BytesPerSecond > 0 && s.BytesPerSecond > 0 {
			r.ThroughputRatio = ratio(s.BytesPerSecond, b.BytesPerSecond).String()
		}
		if d, bd := s.Duration, b.Duration; d != nil && bd != nil && bd.Duration > 0 {
			r.DurationRatio = ratio(d.Milliseconds(), bd.Milliseconds()).String()
		}
		out.Stages = append(out.Stages, r)
		if s.Stage == HeadlineStage(w) && r.ThroughputRatio != "" {
			out.Ratio = r.ThroughputRatio + "x"
		}
	}
	return out
}

func stageSummary(stages []v1alpha1.StageSummary, stage v1alpha1.BenchmarkStage) *v1alpha1.StageSummary {
	for i := range stages {
		if stages[i].Stage == stage {
			return &stages[i]
		}
	}
	return nil
}

func duration(r v1alpha1.StageResult) time.Duration {
	if r.Duration == nil {
		return 0
	}
	return r.Duration.Duration
}

// median of values, the mean of the middle two (rounded half up) for an even count.
func median(values []int64) int64 {
	if len(values) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(values))
	mid := len(s) / 2
	if len(s)%2 == 1 {
		return s[mid]
	}
	a, b := s[mid-1], s[mid]
	return a + (b-a+1)/2
}

func medianDuration(values []time.Duration) time.Duration {
	ns := make([]int64, len(values))
	for i, v := range values {
		ns[i] = int64(v)
	}
	return time.Duration(median(ns))
}
