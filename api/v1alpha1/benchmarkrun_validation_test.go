package v1alpha1_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// The smallest valid spec of each workload, as a user would write it.
const (
	clusterRef   = `clusterRef: {name: analytics}`
	teraSortBase = `{` + clusterRef + `, teraSort: {size: 10Gi}}`
	dfsioBase    = `{` + clusterRef + `, testDFSIO: {files: 4, fileSize: 1Gi}}`
	ingestBase   = `{` + clusterRef + `, ingest: {clients: 3, fileSize: 1Gi}}`
	wordCountRun = `{` + clusterRef + `, wordCount: {inputPath: /datasets/wiki}}`
	grepBase     = `{` + clusterRef + `, grep: {inputPath: /datasets/wiki, pattern: "dfs[a-z.]+"}}`
)

func teraSort(patch string) spec { return spec{base: teraSortBase, patch: `{teraSort: ` + patch + `}`} }
func dfsio(patch string) spec    { return spec{base: dfsioBase, patch: `{testDFSIO: ` + patch + `}`} }
func ingest(patch string) spec   { return spec{base: ingestBase, patch: `{ingest: ` + patch + `}`} }
func grep(patch string) spec     { return spec{base: grepBase, patch: `{grep: ` + patch + `}`} }
func wordCount(patch string) spec {
	return spec{base: wordCountRun, patch: `{wordCount: ` + patch + `}`}
}

// benchmarkRun is what a user would apply, untyped like storageBackend.
func benchmarkRun(s spec) *unstructured.Unstructured { return object("BenchmarkRun", "br-", s) }

var _ = Describe("BenchmarkRun admission", func() {
	DescribeTable("rejects bad input, naming the field and what it allows",
		func(ctx SpecContext, in spec, field, phrase string) {
			Expect(k8sClient.Create(ctx, benchmarkRun(in))).To(beInvalidAt(field, phrase))
		},
		Entry("no workload", spec{base: `{` + clusterRef + `}`}, "spec", "exactly one workload must be set: teraSort, testDFSIO, ingest, wordCount or grep"),
		Entry("two workloads", spec{base: teraSortBase, patch: `{wordCount: {inputPath: /datasets/wiki}}`}, "spec", "exactly one workload must be set"),
		Entry("no clusterRef", spec{base: `{wordCount: {inputPath: /datasets/wiki}}`}, "spec.clusterRef", "Required value"),
		Entry("empty cluster name", spec{base: wordCountRun, patch: `{clusterRef: {name: ""}}`}, "spec.clusterRef.name", "at least 1 chars long"),

		Entry("teraSort: neither size nor rows", teraSort(`{size: null}`), "spec.teraSort", "exactly one of size or rows must be set"),
		Entry("teraSort: both size and rows", teraSort(`{rows: 1000}`), "spec.teraSort", "exactly one of size or rows must be set"),
		Entry("teraSort: size under one row", teraSort(`{size: "99"}`), "spec.teraSort.size", "must be at least 100 (one 100-byte row)"),
		Entry("teraSort: size 0", teraSort(`{size: "0"}`), "spec.teraSort.size", "must be at least 100"),
		Entry("teraSort: size over 1Pi", teraSort(`{size: 2Pi}`), "spec.teraSort.size", "must be at most 1Pi"),
		Entry("teraSort: no rows", teraSort(`{size: null, rows: 0}`), "spec.teraSort.rows", "greater than or equal to 1"),
		Entry("teraSort: maps 0", teraSort(`{maps: 0}`), "spec.teraSort.maps", "greater than or equal to 1"),
		Entry("teraSort: reduces 0", teraSort(`{reduces: 0}`), "spec.teraSort.reduces", "greater than or equal to 1"),
		Entry("teraSort: outputReplication 11", teraSort(`{outputReplication: 11}`), "spec.teraSort.outputReplication", "less than or equal to 10"),

		Entry("testDFSIO: no files", dfsio(`{files: 0}`), "spec.testDFSIO.files", "greater than or equal to 1"),
		Entry("testDFSIO: fileSize under 1Mi", dfsio(`{fileSize: 512Ki}`), "spec.testDFSIO.fileSize", "must be at least 1Mi"),
		Entry("testDFSIO: no fileSize", dfsio(`{fileSize: null}`), "spec.testDFSIO.fileSize", "Required value"),
		Entry("testDFSIO: read without write", dfsio(`{modes: [read]}`), "spec.testDFSIO", "read needs write"),
		Entry("testDFSIO: no modes", dfsio(`{modes: []}`), "spec.testDFSIO.modes", "at least 1 items"),
		Entry("testDFSIO: unknown mode", dfsio(`{modes: [write, append]}`), "spec.testDFSIO.modes[1]", `supported values: "write", "read"`),
		Entry("testDFSIO: a mode twice", dfsio(`{modes: [write, write]}`), "spec.testDFSIO.modes[1]", "Duplicate value"),

		Entry("ingest: no clients", ingest(`{clients: 0}`), "spec.ingest.clients", "greater than or equal to 1"),
		Entry("ingest: 257 clients", ingest(`{clients: 257}`), "spec.ingest.clients", "less than or equal to 256"),
		Entry("ingest: 65 parallel puts", ingest(`{parallelPuts: 65}`), "spec.ingest.parallelPuts", "less than or equal to 64"),
		Entry("ingest: empty files", ingest(`{fileSize: "0"}`), "spec.ingest.fileSize", "must be at least 1 byte"),
		Entry("ingest: files over 1Ti", ingest(`{fileSize: 2Ti}`), "spec.ingest.fileSize", "must be at most 1Ti"),

		Entry("wordCount: relative input path", wordCount(`{inputPath: datasets/wiki}`), "spec.wordCount.inputPath", "must be an absolute path"),
		Entry("wordCount: input path with ..", wordCount(`{inputPath: /datasets/../etc}`), "spec.wordCount.inputPath", "must not contain '..'"),
		Entry("wordCount: empty input path", wordCount(`{inputPath: ""}`), "spec.wordCount.inputPath", "at least 1 chars long"),
		Entry("grep: no pattern", grep(`{pattern: null}`), "spec.grep.pattern", "Required value"),
		Entry("grep: relative input path", grep(`{inputPath: wiki}`), "spec.grep.inputPath", "must be an absolute path"),
		Entry("grep: group 101", grep(`{group: 101}`), "spec.grep.group", "less than or equal to 100"),

		Entry("no repetitions", spec{base: wordCountRun, patch: `{repetitions: 0}`}, "spec.repetitions", "greater than or equal to 1"),
		Entry("11 repetitions", spec{base: wordCountRun, patch: `{repetitions: 11}`}, "spec.repetitions", "less than or equal to 10"),
		Entry("deadline under a minute", spec{base: wordCountRun, patch: `{deadline: 30s}`}, "spec.deadline", "must be a duration between 1m and 720h"),
		Entry("deadline over 30 days", spec{base: wordCountRun, patch: `{deadline: 721h}`}, "spec.deadline", "must be a duration between 1m and 720h"),
		Entry("deadline that is not a duration", spec{base: wordCountRun, patch: `{deadline: soon}`}, "spec.deadline", "should match"),
		Entry("baseline without name", spec{base: wordCountRun, patch: `{baselineRef: {}}`}, "spec.baselineRef.name", "Required value"),
		Entry("a cluster no HadoopCluster could be called", spec{base: wordCountRun, patch: `{clusterRef: {name: Analytics}}`}, "spec.clusterRef.name", "must be a HadoopCluster name"),
		Entry("a cluster name over 36 characters", spec{base: wordCountRun, patch: `{clusterRef: {name: ` + strings.Repeat("a", 37) + `}}`}, "spec.clusterRef.name", "must be a HadoopCluster name"),
		Entry("a baseline no BenchmarkRun could be called", spec{base: wordCountRun, patch: `{baselineRef: {name: run_1}}`}, "spec.baselineRef.name", "must be a BenchmarkRun name"),
	)

	It("rejects a run without a spec", func(ctx SpecContext) {
		br := benchmarkRun(spec{base: wordCountRun})
		unstructured.RemoveNestedField(br.Object, "spec")
		Expect(k8sClient.Create(ctx, br)).To(beInvalidAt("spec", "Required value"))
	})

	It("rejects a name too long for the stage Jobs' names", func(ctx SpecContext) {
		br := benchmarkRun(spec{base: wordCountRun})
		br.SetGenerateName("")
		br.SetName(strings.Repeat("b", 47))
		Expect(k8sClient.Create(ctx, br)).To(beInvalidAt("metadata", "name must start with a letter and be at most 46 characters"))
	})

	It("accepts a name of 46 characters", func(ctx SpecContext) {
		br := benchmarkRun(spec{base: wordCountRun})
		br.SetGenerateName("")
		br.SetName(strings.Repeat("b", 46))
		Expect(k8sClient.Create(ctx, br)).To(Succeed())
	})

	It("rejects a run that is its own baseline", func(ctx SpecContext) {
		br := benchmarkRun(spec{base: wordCountRun, patch: `{baselineRef: {name: self-compare}}`})
		br.SetGenerateName("")
		br.SetName("self-compare")
		Expect(k8sClient.Create(ctx, br)).To(beInvalidAt("spec.baselineRef.name", "must name another BenchmarkRun"))
	})

	DescribeTable("rejects any change to the spec, naming the field changed",
		func(ctx SpecContext, created, update spec, field string) {
			br := benchmarkRun(created)
			Expect(k8sClient.Create(ctx, br)).To(Succeed())
			Expect(k8sClient.Patch(ctx, br, update.specPatch())).To(beInvalidAt(field, "is immutable"))
		},
		Entry("repetitions", spec{base: teraSortBase}, spec{patch: `{repetitions: 3}`}, "spec.repetitions"),
		Entry("size", spec{base: teraSortBase}, spec{patch: `{teraSort: {size: 1Ti}}`}, "spec.teraSort"),
		Entry("another cluster", spec{base: teraSortBase}, spec{patch: `{clusterRef: {name: other}}`}, "spec.clusterRef"),
		Entry("a baseline added", spec{base: teraSortBase}, spec{patch: `{baselineRef: {name: before}}`}, "spec.baselineRef"),
		Entry("cleanup turned off", spec{base: teraSortBase}, spec{patch: `{cleanup: false}`}, "spec.cleanup"),
		Entry("a default cleared", spec{base: dfsioBase}, spec{patch: `{testDFSIO: {modes: [write]}}`}, "spec.testDFSIO"),
		Entry("deadline", spec{base: teraSortBase}, spec{patch: `{deadline: 2h}`}, "spec.deadline"),
		Entry("size to rows", spec{base: teraSortBase}, spec{patch: `{teraSort: {size: null, rows: 5}}`}, "spec.teraSort"),
		Entry("maps", spec{base: teraSortBase}, spec{patch: `{teraSort: {maps: 8}}`}, "spec.teraSort"),
		Entry("reduces", spec{base: teraSortBase}, spec{patch: `{teraSort: {reduces: 8}}`}, "spec.teraSort"),
		Entry("output replication", spec{base: teraSortBase}, spec{patch: `{teraSort: {outputReplication: 3}}`}, "spec.teraSort"),
		Entry("validate", spec{base: teraSortBase}, spec{patch: `{teraSort: {validate: false}}`}, "spec.teraSort"),
		Entry("another workload (the old one)", spec{base: teraSortBase}, spec{patch: `{teraSort: null, wordCount: {inputPath: /datasets/wiki}}`}, "spec.teraSort"),
		Entry("another workload (the new one)", spec{base: teraSortBase}, spec{patch: `{teraSort: null, wordCount: {inputPath: /datasets/wiki}}`}, "spec.wordCount"),
		Entry("a baseline cleared", spec{base: teraSortBase, patch: `{baselineRef: {name: before}}`}, spec{patch: `{baselineRef: null}`}, "spec.baselineRef"),
		Entry("TestDFSIO files", spec{base: dfsioBase}, spec{patch: `{testDFSIO: {files: 8}}`}, "spec.testDFSIO"),
		Entry("TestDFSIO file size", spec{base: dfsioBase}, spec{patch: `{testDFSIO: {fileSize: 2Gi}}`}, "spec.testDFSIO"),
		Entry("ingest clients", spec{base: ingestBase}, spec{patch: `{ingest: {clients: 4}}`}, "spec.ingest"),
		Entry("ingest parallel puts", spec{base: ingestBase}, spec{patch: `{ingest: {parallelPuts: 6}}`}, "spec.ingest"),
		Entry("ingest file size", spec{base: ingestBase}, spec{patch: `{ingest: {fileSize: 5Gi}}`}, "spec.ingest"),
		Entry("wordCount input", spec{base: wordCountRun}, spec{patch: `{wordCount: {inputPath: /datasets/other}}`}, "spec.wordCount"),
		Entry("grep pattern", spec{base: grepBase}, spec{patch: `{grep: {pattern: "x+"}}`}, "spec.grep"),
	)

	// Go clients write durations and quantities in their canonical form, so an Update
	// through the typed API sends "24h0m0s" for "24h" and "1Gi" for "1024Mi". That is
	// the same spec and must pass the immutability rule.
	It("accepts a typed Update of a run whose durations and quantities were written another way", func(ctx SpecContext) {
		for _, in := range []spec{
			{base: `{` + clusterRef + `, teraSort: {size: 1024Mi}, deadline: 90m}`},
			{base: `{` + clusterRef + `, testDFSIO: {files: 2, fileSize: 1536Mi}}`},
			{base: `{` + clusterRef + `, ingest: {clients: 1, fileSize: "1000M"}}`},
		} {
			u := benchmarkRun(in)
			Expect(k8sClient.Create(ctx, u)).To(Succeed())
			typed := &v1alpha1.BenchmarkRun{}
			Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(u), typed)).To(Succeed())
			typed.Labels = map[string]string{"team": "storage"}
			Expect(k8sClient.Update(ctx, typed)).To(Succeed())
		}
	})

	It("accepts the same spec sent again, and changes outside the spec", func(ctx SpecContext) {
		br := benchmarkRun(spec{base: ingestBase})
		Expect(k8sClient.Create(ctx, br)).To(Succeed())
		Expect(k8sClient.Patch(ctx, br, spec{patch: ingestBase}.specPatch())).To(Succeed())
		br.SetLabels(map[string]string{"team": "storage"})
		Expect(k8sClient.Update(ctx, br)).To(Succeed())
	})

	DescribeTable("fills in the defaults of a minimal spec",
		func(ctx SpecContext, in spec, want string) {
			br := benchmarkRun(in)
			Expect(k8sClient.Create(ctx, br)).To(Succeed())
			Expect(br.Object["spec"]).To(Equal(mergeSpec(yamlToJSON(`{`+clusterRef+`, repetitions: 1, cleanup: true, deadline: 24h}`), want)))
		},
		Entry("teraSort", spec{base: teraSortBase}, `{teraSort: {size: 10Gi, validate: true}}`),
		Entry("teraSort by rows", teraSort(`{size: null, rows: 1}`), `{teraSort: {rows: 1, validate: true}}`),
		Entry("testDFSIO", spec{base: dfsioBase}, `{testDFSIO: {files: 4, fileSize: 1Gi, modes: [write, read]}}`),
		Entry("ingest", spec{base: ingestBase}, `{ingest: {clients: 3, parallelPuts: 1, fileSize: 1Gi}}`),
		Entry("wordCount", spec{base: wordCountRun}, `{wordCount: {inputPath: /datasets/wiki}}`),
		Entry("grep", spec{base: grepBase}, `{grep: {inputPath: /datasets/wiki, pattern: "dfs[a-z.]+"}}`),
	)

	DescribeTable("accepts the limits",
		func(ctx SpecContext, in spec) {
			Expect(k8sClient.Create(ctx, benchmarkRun(in))).To(Succeed())
		},
		Entry("one row", teraSort(`{size: "100"}`)),
		Entry("1Pi", teraSort(`{size: 1Pi, maps: 100000, reduces: 100000, outputReplication: 10}`)),
		Entry("TestDFSIO write only, 1Mi files", dfsio(`{fileSize: 1Mi, modes: [write]}`)),
		Entry("TestDFSIO modes listed read first", dfsio(`{modes: [read, write]}`)),
		Entry("256 clients of 64 puts of 1Ti", ingest(`{clients: 256, parallelPuts: 64, fileSize: 1Ti}`)),
		Entry("one-byte files", ingest(`{fileSize: "1"}`)),
		Entry("10 repetitions, deadline 1m", spec{base: wordCountRun, patch: `{repetitions: 10, deadline: 1m}`}),
		Entry("deadline 720h", spec{base: wordCountRun, patch: `{deadline: 720h}`}),
		Entry("deadline 1h30m", spec{base: wordCountRun, patch: `{deadline: 1h30m}`}),
		Entry("grep group 0 and a long pattern", grep(`{group: 0, pattern: "`+strings.Repeat("a", 1024)+`"}`)),
		Entry("a path with dots in names", wordCount(`{inputPath: /data/.hidden/v1..2}`)),
	)

	// The operator builds runs in Go in its tests: what they leave out must reach the
	// server as absent, or the defaults never apply.
	It("defaults a run built with the Go types", func(ctx SpecContext) {
		br := &v1alpha1.BenchmarkRun{
			ObjectMeta: metav1.ObjectMeta{Namespace: namespace, GenerateName: "br-"},
			Spec: v1alpha1.BenchmarkRunSpec{
				ClusterRef: v1alpha1.LocalObjectReference{Name: "analytics"},
				TeraSort:   &v1alpha1.TeraSortWorkload{Rows: ptr.To[int64](1000000)},
			},
		}
		Expect(k8sClient.Create(ctx, br)).To(Succeed())
		Expect(br.Spec).To(Equal(v1alpha1.BenchmarkRunSpec{
			ClusterRef:  v1alpha1.LocalObjectReference{Name: "analytics"},
			TeraSort:    &v1alpha1.TeraSortWorkload{Rows: ptr.To[int64](1000000), Validate: ptr.To(true)},
			Repetitions: 1,
			Cleanup:     ptr.To(true),
			Deadline:    &metav1.Duration{Duration: 24 * 60 * 60 * 1e9},
		}))
	})

	It("stores results in status through the status subresource", func(ctx SpecContext) {
		br := &v1alpha1.BenchmarkRun{
			ObjectMeta: metav1.ObjectMeta{Namespace: namespace, GenerateName: "br-"},
			Spec: v1alpha1.BenchmarkRunSpec{
				ClusterRef: v1alpha1.LocalObjectReference{Name: "analytics"},
				TestDFSIO:  &v1alpha1.TestDFSIOWorkload{Files: 2, FileSize: resource.MustParse("4Mi")},
			},
		}
		Expect(k8sClient.Create(ctx, br)).To(Succeed())
		status := v1alpha1.BenchmarkRunStatus{
			Phase:    v1alpha1.BenchmarkPhaseSucceeded,
			Workload: v1alpha1.WorkloadTestDFSIO,
			Stages: []v1alpha1.StageResult{{
				Stage: v1alpha1.StageDFSIOWrite, Repetition: 1, Phase: v1alpha1.StagePhaseSucceeded,
				JobName: br.Name + "-dfsio-write-r1", HadoopJobs: []string{"job_1763779000000_0001"},
				Bytes: 8 << 20, BytesPerSecond: 2 << 20, Throughput: "2.00 MiB/s",
				TestDFSIO: &v1alpha1.TestDFSIOResult{Files: 2, TotalMB: "8.00", Throughput: "2.10", AverageIORate: "2.11", IORateStdDev: "0.05"},
			}},
			Summary:  &v1alpha1.BenchmarkSummary{Repetitions: 1, Throughput: "write 2.00 MiB/s"},
			Baseline: &v1alpha1.BaselineComparison{Name: "before", Ratio: "1.19x"},
		}
		br.Status = status
		Expect(k8sClient.Status().Update(ctx, br)).To(Succeed())
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(br), br)).To(Succeed())
		Expect(br.Status).To(Equal(status))
	})

	It("keeps status.setup as first recorded, and stores the differences from a baseline", func(ctx SpecContext) {
		br := &v1alpha1.BenchmarkRun{
			ObjectMeta: metav1.ObjectMeta{Namespace: namespace, GenerateName: "br-"},
			Spec: v1alpha1.BenchmarkRunSpec{
				ClusterRef: v1alpha1.LocalObjectReference{Name: "analytics"},
				TeraSort:   &v1alpha1.TeraSortWorkload{Rows: ptr.To[int64](1000)},
			},
		}
		Expect(k8sClient.Create(ctx, br)).To(Succeed())
		ceph := v1alpha1.StorageSetup{Backend: "ceph", Mode: "External", RawOverhead: "3"}
		br.Status = v1alpha1.BenchmarkRunStatus{
			Setup: &v1alpha1.BenchmarkSetup{
				Cluster: "analytics", Storage: ceph, Repetitions: 1,
				NodeManagers: v1alpha1.NodeManagersSetup{Replicas: 3, MemoryMiB: 6144, VCores: 4},
				TeraSort:     &v1alpha1.TeraSortSetup{Maps: 2, Reduces: 1, OutputReplication: 3},
				Network: &v1alpha1.NetworkSetup{
					DataInterface: "net1", Rate: "10Gbit",
					Attachment:        &v1alpha1.NetworkAttachmentReference{Namespace: namespace, Name: "data"},
					CephPublicNetwork: &v1alpha1.NetworkAttachmentReference{Namespace: "rook-ceph", Name: "public"},
				},
			},
			Baseline: &v1alpha1.BaselineComparison{
				Name: "on-hdfs", Storage: &ceph, BaselineStorage: &v1alpha1.StorageSetup{Backend: "hdfs", Mode: "HDFS"},
				Differences: []v1alpha1.BaselineDifference{{Parameter: "rows", Value: "1000", BaselineValue: "100"}},
				Unknown:     []string{"reduces"},
			},
		}
		status := br.Status
		Expect(k8sClient.Status().Update(ctx, br)).To(Succeed())
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(br), br)).To(Succeed())
		Expect(br.Status).To(Equal(status))

		changed := br.DeepCopy()
		changed.Status.Setup.NodeManagers.Replicas = 1
		Expect(k8sClient.Status().Update(ctx, changed)).To(beInvalidAt("status.setup", "is recorded once, when the first stage starts, and never changes"))
		rated := br.DeepCopy()
		rated.Status.Setup.Network.Rate = "1Gbit"
		Expect(k8sClient.Status().Update(ctx, rated)).To(beInvalidAt("status.setup", "never changes"))
		cleared := br.DeepCopy()
		cleared.Status.Setup = nil
		Expect(k8sClient.Status().Update(ctx, cleared)).To(beInvalidAt("status.setup", "never changes"))
		sent := br.DeepCopy()
		sent.Status.Phase = v1alpha1.BenchmarkPhaseRunning
		Expect(k8sClient.Status().Update(ctx, sent)).To(Succeed())
	})
})
