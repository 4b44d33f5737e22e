package controllers

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

var _ = Describe("BenchmarkRun metrics", Label("envtest"), func() {
	var ns string
	BeforeEach(func() { ns = createNamespace("bench-metrics") })

	// phases reads the phase series of run, by phase.
	phases := func(run *v1alpha1.BenchmarkRun) func(Gomega) map[string]float64 {
		return gauges("hadoopceph_benchmarkrun_phase", map[string]string{"namespace": run.Namespace, "name": run.Name}, "phase")
	}
	only := func(current v1alpha1.BenchmarkPhase) map[string]float64 {
		out := map[string]float64{"Pending": 0, "Queued": 0, "Running": 0, "Succeeded": 0, "Failed": 0}
		out[string(current)] = 1
		return out
	}

	It("publishes each run's phase, and removes its series once the run is deleted", func() {
		readyCluster(ns, "metered")
		run := createRun(ns, "count", "metered", wordCount)
		stageJob(run, v1alpha1.StageWordCount, 1)
		Eventually(phases(run)).Should(Equal(only(v1alpha1.BenchmarkPhaseRunning)))
		Expect(gauges("hadoopceph_benchmarkrun_phase", map[string]string{"namespace": ns, "name": "count", "phase": "Running"}, "cluster")(Default)).
			To(Equal(map[string]float64{"metered": 1}))
		Expect(gauges("hadoopceph_benchmarkrun_phase", map[string]string{"namespace": ns, "name": "count", "phase": "Running"}, "workload")(Default)).
			To(Equal(map[string]float64{"WordCount": 1}))

		playStage(run, v1alpha1.StageWordCount, 1, report("wordcount"))
		Eventually(phases(run)).Should(Equal(only(v1alpha1.BenchmarkPhaseSucceeded)))

		Expect(k8sClient.Delete(ctx, run)).To(Succeed())
		Eventually(gone(run)).Should(Succeed())
		Eventually(phases(run)).Should(BeEmpty())
	})

	It("publishes a failed run as Failed", func() {
		createRun(ns, "sorting", "nowhere", teraSort)
		run := createRun(ns, "counting", "nowhere", wordCount, baselineRef("sorting"))
		Eventually(runPhase(run)).Should(Equal(v1alpha1.BenchmarkPhaseFailed))
		Eventually(phases(run)).Should(Equal(only(v1alpha1.BenchmarkPhaseFailed)))
	})

	It("takes a deleted run's benchmark figures with it, and publishes the latest remaining run's", func() {
		readyCluster(ns, "metered")
		figures := map[string]string{"namespace": ns, "cluster": "metered", "workload": "WordCount"}
		throughput := gauges("hadoopceph_benchmark_throughput_bytes_per_second", figures, "stage")
		duration := gauges("hadoopceph_benchmark_duration_seconds", figures, "stage")
		measured := func(run *v1alpha1.BenchmarkRun) map[string]float64 {
			return map[string]float64{"wordcount": float64(fresh(run)(Default).Status.Summary.Stages[0].BytesPerSecond)}
		}

		first := createRun(ns, "first", "metered", wordCount)
		playStage(first, v1alpha1.StageWordCount, 1, report("wordcount"))
		Eventually(runPhase(first)).Should(Equal(v1alpha1.BenchmarkPhaseSucceeded))
		Eventually(throughput).Should(Equal(measured(first)))

		second := createRun(ns, "second", "metered", wordCount)
		// Twice the time for the same bytes: other figures than the first run's.
		playStage(second, v1alpha1.StageWordCount, 1, report("wordcount", func(r map[string]any) {
			start, end := r["start"].(float64), r["end"].(float64)
			r["end"] = end + (end - start)
		}))
		Eventually(runPhase(second)).Should(Equal(v1alpha1.BenchmarkPhaseSucceeded))
		Eventually(throughput).Should(Equal(measured(second)))
		Expect(measured(second)).NotTo(Equal(measured(first)))

		By("publishing the first run's figures again once the second, which replaced them, is deleted")
		firstFigures := measured(first)
		Expect(k8sClient.Delete(ctx, second)).To(Succeed())
		Eventually(throughput).Should(Equal(firstFigures))

		By("publishing none once no run that succeeded on the cluster is left")
		Expect(k8sClient.Delete(ctx, first)).To(Succeed())
		Eventually(throughput).Should(BeEmpty())
		Expect(duration(Default)).To(BeEmpty())
	})
})
