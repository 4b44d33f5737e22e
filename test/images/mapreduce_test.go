//go:build imagetest

package images

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
)

const (
	examplesJar  = "/opt/hadoop/share/hadoop/mapreduce/hadoop-mapreduce-examples.jar"
	jobClientJar = "/opt/hadoop/share/hadoop/mapreduce/hadoop-mapreduce-client-jobclient-tests.jar"
)

// small fits the test's jobs into the NodeManager's 4 GB.
var small = []string{"-Dyarn.app.mapreduce.am.resource.mb=768", "-Dmapreduce.map.memory.mb=512", "-Dmapreduce.reduce.memory.mb=512"}

func mapReduceSpecs() {
	Describe("MapReduce on YARN through the runner", func() {
		It("TeraGen on YARN", func(ctx SpecContext) {
			runStage(ctx, "teragen", nil, "-Dmapreduce.job.maps=2", "20000", "/bench/teragen")
			stageSucceeded("teragen")
		})
		It("TeraSort on YARN (shuffle)", func(ctx SpecContext) {
			runStage(ctx, "terasort", []string{"--require-path", "/bench/teragen"},
				"-Dmapreduce.job.reduces=2", "/bench/teragen", "/bench/terasort")
			stageSucceeded("terasort")
		})
		It("TeraValidate on YARN", func(ctx SpecContext) {
			runStage(ctx, "teravalidate", []string{"--require-path", "/bench/terasort", "--validate-report", "/bench/teravalidate"},
				"/bench/terasort", "/bench/teravalidate")
			stageSucceeded("teravalidate")
		})
		It("the runner read TeraValidate's report (checksum)", func() {
			r, err := stageReport("teravalidate")
			Expect(err).NotTo(HaveOccurred())
			Expect(r.Validate).NotTo(BeEmpty())
			key, _, _ := strings.Cut(r.Validate[0], "\t")
			Expect(key).To(Equal("checksum"), "the report's first line: %q", r.Validate[0])
		})
		It("TeraSort's counters count CephFS bytes", func() {
			r, err := stageReport("terasort")
			Expect(err).NotTo(HaveOccurred())
			Expect(slices.ContainsFunc(r.Counters, func(c string) bool {
				return strings.HasPrefix(c, "CEPH: Number of bytes written=")
			})).To(BeTrue(), "counters: %q", r.Counters)
		})
	})
}

// runStage runs the examples jar's tool stage through the benchmark runner as a
// BenchmarkRun's Job does, with the runner's options and the tool's args, its report in
// /tmp/STAGE.json (the termination log) and its output in WORK/STAGE.log.
func runStage(ctx context.Context, stage string, options []string, args ...string) {
	command := slices.Concat([]string{"run-benchmark", "exec", "--stage", stage}, options,
		[]string{"--", "hadoop", "jar", examplesJar, stage}, small, args)
	inImage.limit(600*time.Second).
		with("POD_NAME=image-test-"+stage, "BENCHMARK_TERMINATION_LOG=/tmp/"+stage+".json").
		runLogged(ctx, filepath.Join(work, stage+".log"), command...)
}

// stageReport reads a stage's report as the operator reads a termination message.
func stageReport(stage string) (*benchmark.Report, error) {
	b, err := os.ReadFile(filepath.Join(work, "volumes", "tmp", stage+".json"))
	if err != nil {
		return nil, err
	}
	return benchmark.DecodeReport(string(b))
}

// stageSucceeded expects the stage's report to say it exited 0 after a job or more.
func stageSucceeded(stage string) {
	GinkgoHelper()
	r, err := stageReport(stage)
	if err == nil && r.Exit == 0 && len(r.Jobs) >= 1 {
		return
	}
	Fail(fmt.Sprintf("%s's report: %s (%v)\nthe end of its log:\n%s", stage,
		readText(filepath.Join(work, "volumes", "tmp", stage+".json")), err, tailFile(filepath.Join(work, stage+".log"), 30)))
}

var applicationID = regexp.MustCompile(`application_[0-9]+_[0-9]+`)

func stopNodeManagerSpecs() {
	Describe("stop-nodemanager with a task running", func() {
		It("a sleep task runs in a YARN container", func(ctx SpecContext) {
			inImage.start("sleep", slices.Concat([]string{"hadoop", "jar", jobClientJar, "sleep"}, small,
				[]string{"-m", "1", "-r", "0", "-mt", "600000"})...)
			task := tries(ctx, 240, 500*time.Millisecond, func() bool {
				return len(processes("org.apache.hadoop.mapred.YarnChild")) > 0
			})
			Expect(task).To(BeTrue(), "no YarnChild; the end of the sleep job's log:\n%s", tailFile(filepath.Join(work, "sleep.log"), 30))
		})
		It("stop-nodemanager returned after the NodeManager, AM and task exited", func(ctx SpecContext) {
			tracked := processes("org.apache.hadoop.yarn.server.nodemanager.NodeManager", "MRAppMaster", "YarnChild")
			start := time.Now()
			res := inImage.limit(120*time.Second).runLogged(ctx, filepath.Join(work, "stop-nodemanager.log"), "/opt/hadoop-ceph/bin/stop-nodemanager")
			took := time.Since(start).Round(time.Second)
			left := slices.DeleteFunc(slices.Clone(tracked), func(pid int) bool { return !alive(pid) })
			GinkgoWriter.Printf("stop-nodemanager returned after %s; the NodeManager, AM and task were %v, of which %v are left. Its log:\n", took, tracked, left)
			for line := range strings.Lines(readText(res.log)) {
				GinkgoWriter.Print("    " + line)
			}
			succeeded(res)
			Expect(left).To(BeEmpty(), "processes of the NodeManager, AM and task %v left after stop-nodemanager returned (%s)", tracked, took)
		})
		// The job, should stop-nodemanager have left it to YARN, and its client.
		AfterAll(func(ctx SpecContext) {
			if app := applicationID.FindString(readText(filepath.Join(work, "sleep.log"))); app != "" {
				inImage.limit(60*time.Second).run(ctx, "yarn", "application", "-kill", app)
			}
			if err := stopped(ctx, "sleep", 30*time.Second); err != nil {
				GinkgoWriter.Printf("stopping the sleep job's client: %v\n", err)
			}
		})
	})
}
