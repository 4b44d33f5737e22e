package controllers

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/benchmarkrun"
)

// fakeResourceManager answers the Cluster Applications API for every cluster of the
// specs, in the shape internal/yarn/testdata shows: the applications a spec gave a
// tag, else {"apps":null}. The real ResourceManager is the end-to-end suite's. A
// cluster a spec cuts off gets the address of a port that drops every connection.
type fakeResourceManager struct {
	server   *httptest.Server
	dropping net.Listener

	mu      sync.Mutex
	apps    map[string][]map[string]any
	cut     map[client.ObjectKey]bool
	dropped int
}

func newFakeResourceManager() *fakeResourceManager {
	rm := &fakeResourceManager{apps: map[string][]map[string]any{}, cut: map[client.ObjectKey]bool{}}
	rm.server = httptest.NewServer(http.HandlerFunc(rm.serve))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	rm.dropping = ln
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			rm.mu.Lock()
			rm.dropped++
			rm.mu.Unlock()
			_ = conn.Close()
		}
	}()
	return rm
}

func (rm *fakeResourceManager) close() {
	rm.server.Close()
	_ = rm.dropping.Close()
}

// source is what the operator's reconciler asks: the real client of the REST API,
// with the suite's server in place of each cluster's ResourceManager Service.
func (rm *fakeResourceManager) source() benchmarkrun.YARNApplications {
	return benchmarkrun.NewResourceManagers(func(hc *v1alpha1.HadoopCluster) string {
		rm.mu.Lock()
		defer rm.mu.Unlock()
		if rm.cut[client.ObjectKeyFromObject(hc)] {
			return "http://" + rm.dropping.Addr().String()
		}
		return rm.server.URL
	}, clock.RealClock{})
}

func (rm *fakeResourceManager) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/ws/v1/cluster/apps" {
		http.NotFound(w, r)
		return
	}
	rm.mu.Lock()
	apps := rm.apps[r.URL.Query().Get("applicationTags")]
	rm.mu.Unlock()
	body := map[string]any{"apps": nil}
	if len(apps) > 0 {
		body["apps"] = map[string]any{"app": apps}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(body)
}

// setApps makes the applications tagged tag apps.
func (rm *fakeResourceManager) setApps(tag string, apps ...map[string]any) {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	rm.apps[tag] = apps
}

// cutOff makes hc's ResourceManager unreachable.
func (rm *fakeResourceManager) cutOff(hc *v1alpha1.HadoopCluster) {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	rm.cut[client.ObjectKeyFromObject(hc)] = true
}

func (rm *fakeResourceManager) droppedConnections() int {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	return rm.dropped
}

// mapReduceApp is the application of job's MapReduce job number seq, started a few
// seconds after the Job, with progress percent.
func mapReduceApp(job *batchv1.Job, seq int, state string, progress float64) map[string]any {
	started := job.CreationTimestamp.Add(3 * time.Second)
	final := "UNDEFINED"
	if state == "FINISHED" {
		final = "SUCCEEDED"
	}
	return map[string]any{
		"id":              fmt.Sprintf("application_1795318800000_%04d", seq),
		"user":            "hadoop",
		"name":            "TestDFSIO",
		"queue":           "default",
		"state":           state,
		"finalStatus":     final,
		"progress":        progress,
		"trackingUI":      "ApplicationMaster",
		"applicationType": "MAPREDUCE",
		"applicationTags": job.Name,
		"startedTime":     started.UnixMilli(),
		"finishedTime":    0,
	}
}

// pokeRun changes an annotation of run, which brings a pass at once.
func pokeRun(run *v1alpha1.BenchmarkRun) {
	patch := `{"metadata":{"annotations":{"example.com/poke":"` + time.Now().Format(time.RFC3339Nano) + `"}}}`
	Expect(k8sClient.Patch(ctx, run.DeepCopy(), client.RawPatch(types.MergePatchType, []byte(patch)))).To(Succeed())
}

func runProgress(run *v1alpha1.BenchmarkRun) func(Gomega) v1alpha1.BenchmarkProgress {
	return func(g Gomega) v1alpha1.BenchmarkProgress {
		p := fresh(run)(g).Status.Progress
		g.Expect(p).NotTo(BeNil())
		return *p
	}
}

var _ = Describe("BenchmarkRun progress", Label("envtest"), func() {
	var ns string
	BeforeEach(func() { ns = createNamespace("progress") })

	It("reports how far YARN is with a running stage, follows it, and clears it when the stage ends", func() {
		readyCluster(ns, "yarn")
		run := createRun(ns, "dfsio", "yarn", func(s *v1alpha1.BenchmarkRunSpec) {
			s.TestDFSIO = &v1alpha1.TestDFSIOWorkload{Files: 4, FileSize: resource.MustParse("64Mi")}
		})

		By("reporting no percent before YARN lists the stage's application")
		write := stageJob(run, v1alpha1.StageDFSIOWrite, 1)
		Eventually(runProgress(run)).Should(Equal(v1alpha1.BenchmarkProgress{
			Step: 1, Steps: 2, Stage: v1alpha1.StageDFSIOWrite, Repetition: 1,
			Message: "stage 1 of 2: dfsio-write, repetition 1",
		}))

		By("reporting the application's progress once YARN lists it")
		resourceManager.setApps(write.Name, mapReduceApp(write, 1, "RUNNING", 42.5))
		pokeRun(run)
		Eventually(runProgress(run)).Should(Equal(v1alpha1.BenchmarkProgress{
			Step: 1, Steps: 2, Stage: v1alpha1.StageDFSIOWrite, Repetition: 1, Percent: ptr.To[int32](42),
			Message: "stage 1 of 2: dfsio-write, repetition 1, 42%",
		}))
		Expect(conditionMessage(run, v1alpha1.ConditionReady)(Default)).To(Equal("stage 1 of 2: dfsio-write, repetition 1"))

		By("reading it again while the stage runs, with nothing else changing")
		resourceManager.setApps(write.Name, mapReduceApp(write, 1, "RUNNING", 80))
		Eventually(func(g Gomega) *int32 { return runProgress(run)(g).Percent }, benchmarkrun.ProgressInterval+5*time.Second).
			Should(Equal(ptr.To[int32](80)))

		By("starting the next stage without a percent")
		resourceManager.setApps(write.Name, mapReduceApp(write, 1, "FINISHED", 100))
		playStage(run, v1alpha1.StageDFSIOWrite, 1, report("dfsio-write"))
		read := stageJob(run, v1alpha1.StageDFSIORead, 1)
		Eventually(runProgress(run)).Should(Equal(v1alpha1.BenchmarkProgress{
			Step: 2, Steps: 2, Stage: v1alpha1.StageDFSIORead, Repetition: 1,
			Message: "stage 2 of 2: dfsio-read, repetition 1",
		}))
		resourceManager.setApps(read.Name, mapReduceApp(read, 2, "RUNNING", 12.5))
		pokeRun(run)
		Eventually(func(g Gomega) *int32 { return runProgress(run)(g).Percent }).Should(Equal(ptr.To[int32](12)))

		By("clearing it when the run ends")
		playStage(run, v1alpha1.StageDFSIORead, 1, report("dfsio-read"))
		Eventually(runPhase(run)).Should(Equal(v1alpha1.BenchmarkPhaseSucceeded))
		Expect(runProgress(run)(Default)).To(Equal(v1alpha1.BenchmarkProgress{
			Step: 2, Steps: 2, Stage: v1alpha1.StageDFSIORead, Repetition: 1, Message: "done: 2 of 2 stages",
		}))
	})

	It("runs on without a percent when the ResourceManager cannot be reached", func() {
		hc := readyCluster(ns, "dark")
		resourceManager.cutOff(hc)
		dropped := resourceManager.droppedConnections()
		run := createRun(ns, "blind", "dark", wordCount)
		stageJob(run, v1alpha1.StageWordCount, 1)

		Eventually(resourceManager.droppedConnections).Should(BeNumerically(">", dropped))
		Consistently(func(g Gomega) {
			got := fresh(run)(g)
			g.Expect(got.Status.Phase).To(Equal(v1alpha1.BenchmarkPhaseRunning))
			g.Expect(got.Status.ObservedGeneration).To(Equal(got.Generation))
			g.Expect(got.Status.Progress.Percent).To(BeNil())
			g.Expect(got.Status.Progress.Message).To(Equal("stage 1 of 1: wordcount, repetition 1"))
			ready := meta.FindStatusCondition(got.Status.Conditions, v1alpha1.ConditionReady)
			g.Expect(ready.Reason).To(Equal(v1alpha1.ReasonRunning))
		}, 2*time.Second).Should(Succeed())
		Expect(eventReasons(run)(Default)).To(ConsistOf(v1alpha1.EventReasonStageStarted))

		playStage(run, v1alpha1.StageWordCount, 1, report("wordcount"))
		Eventually(runPhase(run)).Should(Equal(v1alpha1.BenchmarkPhaseSucceeded))
	})
})
