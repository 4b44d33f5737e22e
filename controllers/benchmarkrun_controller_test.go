package controllers

import (
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

var _ = Describe("BenchmarkRun", Label("envtest"), func() {
	var ns string
	BeforeEach(func() { ns = createNamespace("bench") })

	It("runs TeraSort stage by stage to a summary, and then writes nothing", func() {
		hc := readyCluster(ns, "tera")
		run := createRun(ns, "sort", "tera", teraSort, func(s *v1alpha1.BenchmarkRunSpec) { s.Cleanup = nil })

		By("running one stage at a time, each with the builder's Job")
		steps := []struct {
			stage   v1alpha1.BenchmarkStage
			reports []string
		}{
			{v1alpha1.StageTeraGen, []string{report("teragen")}},
			{v1alpha1.StageTeraSort, []string{report("terasort")}},
			{v1alpha1.StageTeraValidate, []string{report("teravalidate")}},
			{v1alpha1.StageCleanup, []string{cleanupReport()}},
		}
		for i, s := range steps {
			job := stageJob(run, s.stage, 1)
			expectBuilderJob(run, hc, job, benchmark.Step{Stage: s.stage, Repetition: 1})
			Eventually(func(g Gomega) {
				st := fresh(run)(g).Status
				g.Expect(st.Phase).To(Equal(v1alpha1.BenchmarkPhaseRunning))
				g.Expect(st.StartTime).NotTo(BeNil())
				g.Expect(st.Progress).NotTo(BeNil())
				g.Expect(st.Progress.Step).To(Equal(int32(i + 1)))
				g.Expect(st.Progress.Steps).To(Equal(int32(4)))
				g.Expect(st.Progress.Message).To(Equal("stage " + strconv.Itoa(i+1) + " of 4: " + string(s.stage) + ", repetition 1"))
			}).Should(Succeed())
			if i+1 < len(steps) {
				Expect(fresh(run)(Default).Status.Stages).To(HaveLen(i + 1))
			}
			playStage(run, s.stage, 1, s.reports...)
		}

		Eventually(condition(run, v1alpha1.ConditionReady)).Should(Equal("True/Succeeded"))
		got := fresh(run)(Default)
		st := got.Status
		Expect(st.Phase).To(Equal(v1alpha1.BenchmarkPhaseSucceeded))
		Expect(st.Workload).To(Equal(v1alpha1.WorkloadTeraSort))
		Expect(st.CompletionTime).NotTo(BeNil())
		Expect(st.ObservedGeneration).To(Equal(got.Generation))
		Expect(st.Stages).To(HaveLen(4))
		for _, s := range st.Stages {
			Expect(s.Phase).To(Equal(v1alpha1.StagePhaseSucceeded), string(s.Stage))
			Expect(s.JobName).To(Equal(benchmark.JobName(run, benchmark.Step{Stage: s.Stage, Repetition: 1})))
		}
		Expect(st.Stages[0].Counters.TeraGenChecksum).NotTo(BeEmpty())
		Expect(st.Stages[2].TeraValidate.Errors).To(BeZero())
		By("linking each MapReduce job to the cluster's JobHistory server")
		sorted := st.Stages[1]
		Expect(sorted.HadoopJobs).To(HaveLen(1))
		Expect(sorted.HistoryURLs).To(Equal([]string{hadoop.JobHistoryWebURL(hc) + "/jobhistory/job/" + sorted.HadoopJobs[0]}))
		// The printer columns' fields.
		Expect(st.Summary).To(Equal(benchmark.Summarize(&got.Spec, st.Stages)))
		Expect(st.Summary.Throughput).To(HaveSuffix("MiB/s"))
		Expect(st.Summary.Duration).NotTo(BeNil())
		Expect(st.Progress.Message).To(Equal("done: 4 of 4 stages"))
		Expect(eventReasons(run)(Default)).To(ContainElements(v1alpha1.EventReasonStageStarted, v1alpha1.EventReasonStageSucceeded, v1alpha1.ReasonSucceeded))

		By("publishing the medians as metrics")
		labels := map[string]string{"namespace": ns, "cluster": "tera", "workload": "TeraSort", "stage": "terasort"}
		Expect(gauge("hadoopceph_benchmark_throughput_bytes_per_second", labels)).To(BeNumerically("==", st.Summary.Stages[1].BytesPerSecond))
		Expect(gauge("hadoopceph_benchmark_duration_seconds", labels)).To(BeNumerically("==", st.Summary.Stages[1].Duration.Seconds()))

		By("writing nothing more, even when reconciled again")
		settled := fresh(run)(Default).ResourceVersion
		Consistently(func(g Gomega) string { return fresh(run)(g).ResourceVersion }, 2*time.Second).Should(Equal(settled))
		// A patch of metadata alone: a typed Update would send spec.deadline back as
		// "24h0m0s", which the immutability rule sees as a change from "24h".
		touched := fresh(run)(Default)
		Expect(k8sClient.Patch(ctx, touched, client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"annotations":{"example.com/touch":"1"}}}`)))).To(Succeed())
		Consistently(func(g Gomega) string { return fresh(run)(g).ResourceVersion }, 2*time.Second).Should(Equal(touched.ResourceVersion))
	})

	It("runs TestDFSIO write then read, and reads every ingest client's report", func() {
		hc := readyCluster(ns, "io")
		dfsio := createRun(ns, "dfsio", "io", func(s *v1alpha1.BenchmarkRunSpec) {
			s.TestDFSIO = &v1alpha1.TestDFSIOWorkload{Files: 4, FileSize: resource.MustParse("64Mi")}
		})
		for _, s := range []struct {
			stage  v1alpha1.BenchmarkStage
			report string
		}{{v1alpha1.StageDFSIOWrite, "dfsio-write"}, {v1alpha1.StageDFSIORead, "dfsio-read"}} {
			expectBuilderJob(dfsio, hc, stageJob(dfsio, s.stage, 1), benchmark.Step{Stage: s.stage, Repetition: 1})
			playStage(dfsio, s.stage, 1, report(s.report))
		}
		Eventually(runPhase(dfsio)).Should(Equal(v1alpha1.BenchmarkPhaseSucceeded))
		st := fresh(dfsio)(Default).Status
		Expect(st.Stages).To(HaveLen(2))
		Expect(st.Stages[0].TestDFSIO).NotTo(BeNil())
		Expect(st.Stages[1].TestDFSIO).NotTo(BeNil())
		Expect(st.Summary.Throughput).NotTo(BeEmpty())

		ingest := createRun(ns, "ingest", "io", func(s *v1alpha1.BenchmarkRunSpec) {
			s.Ingest = &v1alpha1.IngestWorkload{Clients: 2, ParallelPuts: 3, FileSize: resource.MustParse("8Mi")}
		})
		job := stageJob(ingest, v1alpha1.StageIngest, 1)
		expectBuilderJob(ingest, hc, job, benchmark.Step{Stage: v1alpha1.StageIngest, Repetition: 1})
		Expect(*job.Spec.Completions).To(Equal(int32(2)))
		playStage(ingest, v1alpha1.StageIngest, 1, report("ingest"), report("ingest"))
		Eventually(runPhase(ingest)).Should(Equal(v1alpha1.BenchmarkPhaseSucceeded))
		res := fresh(ingest)(Default).Status.Stages[0]
		Expect(res.Ingest.Clients).To(Equal(int32(2)))
		Expect(res.Ingest.Puts).To(Equal(int32(6)))
		Expect(res.Bytes).To(Equal(int64(6 * 8388608)))
	})

	It("fails a TeraSort whose TeraValidate reports misordered rows", func() {
		readyCluster(ns, "tera")
		run := createRun(ns, "unsorted", "tera", teraSort)
		playStage(run, v1alpha1.StageTeraGen, 1, report("teragen"))
		playStage(run, v1alpha1.StageTeraSort, 1, report("terasort"))
		playStage(run, v1alpha1.StageTeraValidate, 1, report("teravalidate-unsorted"))

		Eventually(condition(run, v1alpha1.ConditionReady)).Should(Equal("False/ValidationFailed"))
		st := fresh(run)(Default).Status
		Expect(st.Phase).To(Equal(v1alpha1.BenchmarkPhaseFailed))
		Expect(st.CompletionTime).NotTo(BeNil())
		Expect(st.Stages[2].Phase).To(Equal(v1alpha1.StagePhaseFailed))
		Expect(st.Stages[2].TeraValidate.FirstError).To(ContainSubstring("misorder"))
		Expect(conditionMessage(run, v1alpha1.ConditionReady)(Default)).To(HavePrefix("stage teravalidate of repetition 1 failed: TeraValidate reported"))
		Expect(eventReasons(run)(Default)).To(ContainElements(v1alpha1.EventReasonStageFailed, v1alpha1.ReasonValidationFailed))
	})

	It("fails a Grep whose input path does not exist, naming the path", func() {
		hc := readyCluster(ns, "words")
		run := createRun(ns, "grep", "words", func(s *v1alpha1.BenchmarkRunSpec) {
			s.Grep = &v1alpha1.GrepWorkload{InputPath: "/datasets/gone", Pattern: "ceph[a-z]*"}
		})
		job := stageJob(run, v1alpha1.StageGrep, 1)
		expectBuilderJob(run, hc, job, benchmark.Step{Stage: v1alpha1.StageGrep, Repetition: 1})
		playStage(run, v1alpha1.StageGrep, 1, report("wordcount-missing-input", func(r map[string]any) {
			r["stage"], r["missing"] = "grep", "/datasets/gone"
		}))

		Eventually(condition(run, v1alpha1.ConditionReady)).Should(Equal("False/InputPathNotFound"))
		Expect(conditionMessage(run, v1alpha1.ConditionReady)(Default)).To(ContainSubstring("input path /datasets/gone does not exist"))
		Expect(runPhase(run)(Default)).To(Equal(v1alpha1.BenchmarkPhaseFailed))
	})

	It("fails a stage whose pod left no report it can read", func() {
		readyCluster(ns, "crash")
		run := createRun(ns, "oom", "crash", wordCount)
		job := stageJob(run, v1alpha1.StageWordCount, 1)
		playPod(job, 0, 137, "java.lang.OutOfMemoryError: Java heap space")
		finishJob(job, false, "")
		Eventually(condition(run, v1alpha1.ConditionReady)).Should(Equal("False/ResultUnreadable"))
		Expect(conditionMessage(run, v1alpha1.ConditionReady)(Default)).To(ContainSubstring("OutOfMemoryError"))
	})

	It("runs one run at a time per cluster and compares a run with its baseline", func() {
		hc := readyCluster(ns, "shared")
		first := createRun(ns, "a-first", "shared", wordCount)
		second := createRun(ns, "b-second", "shared", wordCount, func(s *v1alpha1.BenchmarkRunSpec) {
			s.BaselineRef = &v1alpha1.LocalObjectReference{Name: "a-first"}
		})

		By("queueing the second run behind the first")
		Eventually(condition(second, v1alpha1.ConditionReady)).Should(Equal("False/Queued"))
		Expect(runPhase(second)(Default)).To(Equal(v1alpha1.BenchmarkPhaseQueued))
		Expect(conditionMessage(second, v1alpha1.ConditionReady)(Default)).To(ContainSubstring("BenchmarkRun a-first"))
		Eventually(condition(second, v1alpha1.ConditionBaselineCompared)).Should(Equal("False/BaselineNotSucceeded"))
		job := stageJob(first, v1alpha1.StageWordCount, 1)
		expectBuilderJob(first, hc, job, benchmark.Step{Stage: v1alpha1.StageWordCount, Repetition: 1})
		Consistently(func() error {
			return k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "b-second-wordcount-r1"}, &batchv1.Job{})
		}, time.Second).ShouldNot(Succeed())

		By("starting it once the first has finished")
		playStage(first, v1alpha1.StageWordCount, 1, report("wordcount"))
		Eventually(runPhase(first)).Should(Equal(v1alpha1.BenchmarkPhaseSucceeded))
		// Twice the time for the same bytes: half the throughput.
		playStage(second, v1alpha1.StageWordCount, 1, report("wordcount", func(r map[string]any) {
			start, end := r["start"].(float64), r["end"].(float64)
			r["end"] = end + (end - start)
		}))

		By("comparing it with the baseline")
		Eventually(condition(second, v1alpha1.ConditionBaselineCompared)).Should(Equal("True/Compared"))
		st := fresh(second)(Default).Status
		Expect(st.Baseline).NotTo(BeNil())
		Expect(st.Baseline.Name).To(Equal("a-first"))
		Expect(st.Baseline.Ratio).To(Equal("0.50x"))
		Expect(st.Baseline.Stages).To(ConsistOf(v1alpha1.StageRatio{Stage: v1alpha1.StageWordCount, ThroughputRatio: "0.50", DurationRatio: "2.00"}))
	})

	It("fails before starting when the baseline runs another workload", func() {
		createRun(ns, "sorting", "nowhere", teraSort)
		run := createRun(ns, "counting", "nowhere", wordCount, func(s *v1alpha1.BenchmarkRunSpec) {
			s.BaselineRef = &v1alpha1.LocalObjectReference{Name: "sorting"}
		})
		Eventually(condition(run, v1alpha1.ConditionReady)).Should(Equal("False/BaselineWorkloadMismatch"))
		Expect(condition(run, v1alpha1.ConditionBaselineCompared)(Default)).To(Equal("False/BaselineWorkloadMismatch"))
		Expect(conditionMessage(run, v1alpha1.ConditionReady)(Default)).To(ContainSubstring("BenchmarkRun sorting, which runs TeraSort, not WordCount"))
		st := fresh(run)(Default).Status
		Expect(st.Phase).To(Equal(v1alpha1.BenchmarkPhaseFailed))
		Expect(st.StartTime).To(BeNil())
		Expect(st.Stages).To(BeEmpty())
	})

	It("says that a baseline does not exist", func() {
		run := createRun(ns, "lonely", "nowhere", wordCount, func(s *v1alpha1.BenchmarkRunSpec) {
			s.BaselineRef = &v1alpha1.LocalObjectReference{Name: "absent"}
		})
		Eventually(condition(run, v1alpha1.ConditionBaselineCompared)).Should(Equal("False/BaselineNotFound"))
		Expect(conditionMessage(run, v1alpha1.ConditionBaselineCompared)(Default)).To(ContainSubstring("BenchmarkRun absent"))
		Expect(runPhase(run)(Default)).To(Equal(v1alpha1.BenchmarkPhasePending))
	})

	It("repeats the stages and their cleanup, and summarises the repetitions", func() {
		readyCluster(ns, "again")
		run := createRun(ns, "twice", "again", wordCount, func(s *v1alpha1.BenchmarkRunSpec) {
			s.Repetitions, s.Cleanup = 2, nil
		})
		for rep := int32(1); rep <= 2; rep++ {
			playStage(run, v1alpha1.StageWordCount, rep, report("wordcount"))
			playStage(run, v1alpha1.StageCleanup, rep, cleanupReport())
		}
		Eventually(runPhase(run)).Should(Equal(v1alpha1.BenchmarkPhaseSucceeded))
		st := fresh(run)(Default).Status
		Expect(st.Stages).To(HaveLen(4))
		Expect(st.Progress.Steps).To(Equal(int32(4)))
		Expect(st.Summary.Repetitions).To(Equal(int32(2)))
		Expect(st.Summary.Stages).To(HaveLen(1))
	})

	It("waits in Pending for a cluster that does not exist yet", func() {
		run := createRun(ns, "early", "later", wordCount)
		Eventually(condition(run, v1alpha1.ConditionClusterReady)).Should(Equal("False/HadoopClusterNotFound"))
		Expect(conditionMessage(run, v1alpha1.ConditionClusterReady)(Default)).To(ContainSubstring("HadoopCluster later does not exist in namespace " + ns))
		Expect(runPhase(run)(Default)).To(Equal(v1alpha1.BenchmarkPhasePending))
		Expect(eventReasons(run)(Default)).To(ContainElement(v1alpha1.ReasonHadoopClusterNotFound))

		waiting := fresh(run)(Default).ResourceVersion
		Consistently(func(g Gomega) string { return fresh(run)(g).ResourceVersion }, time.Second).Should(Equal(waiting))

		readyExternalBackend(ns, "later-ceph")
		hc := createCluster(ns, "later", "later-ceph")
		Eventually(condition(run, v1alpha1.ConditionClusterReady)).Should(Equal("False/HadoopClusterNotReady"))
		Expect(runPhase(run)(Default)).To(Equal(v1alpha1.BenchmarkPhasePending))
		playClusterReady(hc)
		stageJob(run, v1alpha1.StageWordCount, 1)
		Eventually(condition(run, v1alpha1.ConditionClusterReady)).Should(Equal("True/Reconciled"))
		Eventually(runPhase(run)).Should(Equal(v1alpha1.BenchmarkPhaseRunning))
	})

	It("caches only the operator's Jobs, and leaves a Job of a stage's name that is not its own alone", func() {
		readyCluster(ns, "taken")
		foreign := &batchv1.Job{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "mine-wordcount-r1"},
			Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyNever,
				Containers:    []corev1.Container{{Name: "main", Image: "busybox"}},
			}}},
		}
		Expect(k8sClient.Create(ctx, foreign)).To(Succeed())
		run := createRun(ns, "mine", "taken", wordCount)
		Eventually(condition(run, v1alpha1.ConditionReady)).Should(Equal("False/StageFailed"))
		Expect(conditionMessage(run, v1alpha1.ConditionReady)(Default)).To(ContainSubstring("Job mine-wordcount-r1 exists and is not controlled by this run"))
		Consistently(func() error { return managerCache.Get(ctx, client.ObjectKeyFromObject(foreign), &batchv1.Job{}) }, time.Second).
			Should(Satisfy(apierrors.IsNotFound))

		other := createRun(ns, "yours", "taken", wordCount)
		job := stageJob(other, v1alpha1.StageWordCount, 1)
		Eventually(func() error { return managerCache.Get(ctx, client.ObjectKeyFromObject(job), &batchv1.Job{}) }).Should(Succeed())
		playStage(other, v1alpha1.StageWordCount, 1, report("wordcount"))
		Eventually(runPhase(other)).Should(Equal(v1alpha1.BenchmarkPhaseSucceeded))
	})

	It("fails a run whose deadline passes, and stops its stage", func() {
		readyCluster(ns, "slow")
		run := createRun(ns, "late", "slow", wordCount, func(s *v1alpha1.BenchmarkRunSpec) {
			s.Deadline = &metav1.Duration{Duration: time.Minute}
		})
		job := stageJob(run, v1alpha1.StageWordCount, 1)
		Expect(*job.Spec.ActiveDeadlineSeconds).To(BeNumerically("<=", 60))

		By("stopping the stage when the deadline passes while it runs")
		Eventually(func(g Gomega) {
			late := fresh(run)(g)
			g.Expect(late.Status.StartTime).NotTo(BeNil())
			late.Status.StartTime = &metav1.Time{Time: time.Now().Add(-2 * time.Minute)}
			g.Expect(k8sClient.Status().Update(ctx, late)).To(Succeed())
		}).Should(Succeed())
		Eventually(condition(run, v1alpha1.ConditionReady)).Should(Equal("False/DeadlineExceeded"))
		Expect(conditionMessage(run, v1alpha1.ConditionReady)(Default)).To(Equal("spec.deadline (1m0s) passed during stage wordcount of repetition 1"))
		Eventually(gone(job)).Should(Succeed())

		By("failing a run whose Job the Job controller stopped at its deadline")
		other := createRun(ns, "stopped", "slow", wordCount)
		finishJob(stageJob(other, v1alpha1.StageWordCount, 1), false, batchv1.JobReasonDeadlineExceeded)
		Eventually(condition(other, v1alpha1.ConditionReady)).Should(Equal("False/DeadlineExceeded"))
		Expect(fresh(other)(Default).Status.Stages[0].Phase).To(Equal(v1alpha1.StagePhaseFailed))
	})
})

// expectBuilderJob checks that job is internal/benchmark's Job of step, owned by run.
func expectBuilderJob(run *v1alpha1.BenchmarkRun, hc *v1alpha1.HadoopCluster, job *batchv1.Job, step benchmark.Step) {
	GinkgoHelper()
	current := fresh(run)(Default)
	cluster := fresh(hc)(Default)
	sb := fresh(&v1alpha1.StorageBackend{ObjectMeta: metav1.ObjectMeta{Namespace: hc.Namespace, Name: hc.Spec.StorageBackendRef.Name}})(Default)
	want, err := benchmark.Job(benchmark.Input{
		Run: current,
		Cluster: hadoop.Input{Cluster: cluster, Storage: hadoop.Storage{
			Filesystem:         sb.Status.FilesystemName,
			RootPath:           sb.Status.RootPath,
			ClientID:           sb.Status.ClientID,
			ClientConfigSecret: sb.Status.ClientConfigSecret,
			ClientConfigHash:   sb.Status.ClientConfigHash,
		}},
		ConfigHash: cluster.Status.ConfigHash,
	}, step, time.Hour)
	Expect(err).NotTo(HaveOccurred())

	Expect(metav1.IsControlledBy(job, current)).To(BeTrue())
	Expect(job.Labels).To(Equal(want.Labels))
	// The API server defaults parallelism to 1.
	Expect(*job.Spec.Parallelism).To(Equal(ptr.Deref(want.Spec.Parallelism, 1)))
	Expect(job.Spec.BackoffLimit).To(Equal(want.Spec.BackoffLimit))
	// The API server adds the Job's selector labels to the pods'.
	for k, v := range want.Spec.Template.Labels {
		Expect(job.Spec.Template.Labels).To(HaveKeyWithValue(k, v))
	}
	got, wanted := job.Spec.Template.Spec.Containers[0], want.Spec.Template.Spec.Containers[0]
	Expect(got.Image).To(Equal(wanted.Image))
	Expect(got.Command).To(Equal(wanted.Command))
	Expect(got.Args).To(Equal(wanted.Args))
}
