//go:build e2e

package e2e

import (
	"encoding/json"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// A run's time limit here: generous for a 2-core node that also hosts Ceph and the
// control plane; a run that needs it has hung.
const runTimeout = 15 * time.Minute

// The TeraSort the suite keeps: its data stays on CephFS (cleanup off), so that the
// deletion specs can find it after the cluster is gone.
const keptTeraSort = "terasort"

func benchmarkSpecs() {
	It("runs TeraGen, TeraSort and TeraValidate, with a clean validation and results in status, and the daemons' /prom shows the job", func() {
		run := newTeraSort(keptTeraSort)
		run.Spec.Cleanup = ptr.To(false)
		prom := watchProm(clusterName)
		DeferCleanup(prom.stop)
		Expect(k8sClient.Create(ctx, run)).To(Succeed())
		run = waitForRun(keptTeraSort)
		prom.stop()
		expectJobSeenInProm(prom)

		Expect(run.Status.Phase).To(Equal(v1alpha1.BenchmarkPhaseSucceeded), "%+v", run.Status)
		Expect(run.Status.Stages).To(HaveLen(3))
		byStage := map[v1alpha1.BenchmarkStage]v1alpha1.StageResult{}
		for _, s := range run.Status.Stages {
			Expect(s.Phase).To(Equal(v1alpha1.StagePhaseSucceeded))
			Expect(s.Duration).NotTo(BeNil())
			byStage[s.Stage] = s
		}
		gen, sorted, validated := byStage[v1alpha1.StageTeraGen], byStage[v1alpha1.StageTeraSort], byStage[v1alpha1.StageTeraValidate]
		Expect(gen.Bytes).To(Equal(int64(teraSortRows * 100)))
		Expect(gen.Counters).NotTo(BeNil())
		Expect(gen.Counters.TeraGenChecksum).NotTo(BeEmpty())
		Expect(sorted.Bytes).To(Equal(int64(teraSortRows * 100)))
		Expect(sorted.BytesPerSecond).To(BeNumerically(">", 0))
		Expect(sorted.HadoopJobs).NotTo(BeEmpty())
		By("finding each of the sort's MapReduce jobs on the JobHistory server, as the stage's links say")
		Expect(sorted.HistoryURLs).To(HaveLen(len(sorted.HadoopJobs)))
		for i, id := range sorted.HadoopJobs {
			Expect(sorted.HistoryURLs[i]).To(HaveSuffix("/jobhistory/job/" + id))
			Eventually(func(g Gomega) string {
				body, err := jobHistoryGet(clusterName, "/ws/v1/history/mapreduce/jobs/"+id+"?user.name=hadoop")
				g.Expect(err).NotTo(HaveOccurred())
				var answer struct {
					Job struct {
						State string `json:"state"`
					} `json:"job"`
				}
				g.Expect(json.Unmarshal(body, &answer)).To(Succeed())
				return answer.Job.State
			}).WithTimeout(2*time.Minute).Should(Equal("SUCCEEDED"), "job %s on the JobHistory server", id)
		}
		Expect(validated.TeraValidate).NotTo(BeNil())
		Expect(validated.TeraValidate.Errors).To(BeZero())
		Expect(validated.TeraValidate.Checksum).To(Equal(gen.Counters.TeraGenChecksum),
			"TeraValidate's checksum of the sorted rows equals TeraGen's")
		Expect(run.Status.Summary).NotTo(BeNil())
		Expect(run.Status.Summary.Duration).NotTo(BeNil())
		Expect(run.Status.Summary.Throughput).NotTo(BeEmpty())
	})

	It("runs TestDFSIO write and read, with throughput in status", func() {
		run := newRun("dfsio")
		run.Spec.TestDFSIO = &v1alpha1.TestDFSIOWorkload{
			Files:    2,
			FileSize: resource.MustParse("32Mi"),
			Modes:    []v1alpha1.DFSIOMode{v1alpha1.DFSIOWrite, v1alpha1.DFSIORead},
		}
		Expect(k8sClient.Create(ctx, run)).To(Succeed())
		run = waitForRun("dfsio")

		Expect(run.Status.Phase).To(Equal(v1alpha1.BenchmarkPhaseSucceeded), "%+v", run.Status)
		for _, stage := range []v1alpha1.BenchmarkStage{v1alpha1.StageDFSIOWrite, v1alpha1.StageDFSIORead} {
			Expect(run.Status.Stages).To(ContainElement(And(
				HaveField("Stage", stage),
				HaveField("Phase", v1alpha1.StagePhaseSucceeded),
				HaveField("TestDFSIO.Files", int64(2)),
				HaveField("TestDFSIO.Throughput", Not(BeEmpty())),
				HaveField("BytesPerSecond", BeNumerically(">", 0)),
			)), "stage %s", stage)
		}
		Expect(run.Status.Summary).NotTo(BeNil())
		Expect(run.Status.Summary.Stages).To(ContainElement(HaveField("Stage", v1alpha1.StageDFSIORead)))
	})

	operatorMetricsSpec()
}

// teraSortRows is the suite's TeraSort size: 50 MB, enough for several map tasks
// and a real shuffle, small enough for a 2-core node.
const teraSortRows = 500_000

func newTeraSort(name string) *v1alpha1.BenchmarkRun {
	return newTeraSortOn(name, clusterName)
}

// newTeraSortOn is the suite's TeraSort on a HadoopCluster.
func newTeraSortOn(name, cluster string) *v1alpha1.BenchmarkRun {
	run := newRunOn(name, cluster)
	run.Spec.TeraSort = &v1alpha1.TeraSortWorkload{
		Rows:    ptr.To[int64](teraSortRows),
		Maps:    ptr.To[int32](2),
		Reduces: ptr.To[int32](2),
	}
	return run
}

func newRun(name string) *v1alpha1.BenchmarkRun {
	return newRunOn(name, clusterName)
}

func newRunOn(name, cluster string) *v1alpha1.BenchmarkRun {
	return &v1alpha1.BenchmarkRun{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec: v1alpha1.BenchmarkRunSpec{
			ClusterRef: v1alpha1.LocalObjectReference{Name: cluster},
			Deadline:   &metav1.Duration{Duration: runTimeout},
		},
	}
}

// waitForRun waits until the run has finished and returns it.
func waitForRun(name string) *v1alpha1.BenchmarkRun {
	GinkgoHelper()
	run := &v1alpha1.BenchmarkRun{}
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, run)).To(Succeed())
		if p := run.Status.Progress; p != nil {
			GinkgoWriter.Printf("%s: %s %s\n", name, run.Status.Phase, p.Message)
		}
		g.Expect(run.Status.Phase).To(BeElementOf(v1alpha1.BenchmarkPhaseSucceeded, v1alpha1.BenchmarkPhaseFailed))
	}).WithTimeout(runTimeout).WithPolling(5 * time.Second).Should(Succeed())
	return run
}
