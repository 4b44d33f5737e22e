package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// BenchmarkRunSpec declares one benchmark on a HadoopCluster: exactly one workload,
// run repetitions times. The whole spec is immutable from creation, so the results in
// status always describe the spec next to them and the operator never has to reconcile
// a change against stages that already ran. A run that waits in the queue is cheap to
// replace: delete it and create another.
// One rule per field, so a refused change names the field. The rules compare
// durations and quantities by value, not as written: Go clients re-serialize them
// ("24h" as "24h0m0s", "1024Mi" as "1Gi"), and a plain self == oldSelf would then refuse
// every typed Update, even one that only adds a label. A field added to the spec needs
// a rule here too; the admission tests change each one.
// +kubebuilder:validation:XValidation:rule="self.clusterRef == oldSelf.clusterRef",message="is immutable: create a new BenchmarkRun",fieldPath=".clusterRef"
// +kubebuilder:validation:XValidation:rule="self.?repetitions == oldSelf.?repetitions",message="is immutable: create a new BenchmarkRun",fieldPath=".repetitions"
// +kubebuilder:validation:XValidation:rule="has(self.baselineRef) == has(oldSelf.baselineRef) && (!has(self.baselineRef) || self.baselineRef == oldSelf.baselineRef)",message="is immutable, including setting or clearing it: create a new BenchmarkRun",fieldPath=".baselineRef"
// +kubebuilder:validation:XValidation:rule="self.?cleanup == oldSelf.?cleanup",message="is immutable: create a new BenchmarkRun",fieldPath=".cleanup"
// +kubebuilder:validation:XValidation:rule="has(self.deadline) == has(oldSelf.deadline) && (!has(self.deadline) || duration(self.deadline) == duration(oldSelf.deadline))",message="is immutable: create a new BenchmarkRun",fieldPath=".deadline"
// +kubebuilder:validation:XValidation:rule="has(self.wordCount) == has(oldSelf.wordCount) && (!has(self.wordCount) || self.wordCount == oldSelf.wordCount)",message="is immutable, including setting or clearing it: create a new BenchmarkRun",fieldPath=".wordCount"
// +kubebuilder:validation:XValidation:rule="has(self.grep) == has(oldSelf.grep) && (!has(self.grep) || self.grep == oldSelf.grep)",message="is immutable, including setting or clearing it: create a new BenchmarkRun",fieldPath=".grep"
// +kubebuilder:validation:XValidation:rule="has(self.teraSort) == has(oldSelf.teraSort) && (!has(self.teraSort) || (self.teraSort.?rows == oldSelf.teraSort.?rows && self.teraSort.?maps == oldSelf.teraSort.?maps && self.teraSort.?reduces == oldSelf.teraSort.?reduces && self.teraSort.?outputReplication == oldSelf.teraSort.?outputReplication && self.teraSort.?validate == oldSelf.teraSort.?validate && has(self.teraSort.size) == has(oldSelf.teraSort.size) && (!has(self.teraSort.size) || quantity(string(self.teraSort.size)).compareTo(quantity(string(oldSelf.teraSort.size))) == 0)))",message="is immutable, including setting or clearing it: create a new BenchmarkRun",fieldPath=".teraSort"
// +kubebuilder:validation:XValidation:rule="has(self.testDFSIO) == has(oldSelf.testDFSIO) && (!has(self.testDFSIO) || (self.testDFSIO.files == oldSelf.testDFSIO.files && has(self.testDFSIO.modes) == has(oldSelf.testDFSIO.modes) && (!has(self.testDFSIO.modes) || self.testDFSIO.modes == oldSelf.testDFSIO.modes) && quantity(string(self.testDFSIO.fileSize)).compareTo(quantity(string(oldSelf.testDFSIO.fileSize))) == 0))",message="is immutable, including setting or clearing it: create a new BenchmarkRun",fieldPath=".testDFSIO"
// +kubebuilder:validation:XValidation:rule="has(self.ingest) == has(oldSelf.ingest) && (!has(self.ingest) || (self.ingest.clients == oldSelf.ingest.clients && self.ingest.?parallelPuts == oldSelf.ingest.?parallelPuts && quantity(string(self.ingest.fileSize)).compareTo(quantity(string(oldSelf.ingest.fileSize))) == 0))",message="is immutable, including setting or clearing it: create a new BenchmarkRun",fieldPath=".ingest"
// +kubebuilder:validation:XValidation:rule="[has(self.teraSort), has(self.testDFSIO), has(self.ingest), has(self.wordCount), has(self.grep)].filter(x, x).size() == 1",message="exactly one workload must be set: teraSort, testDFSIO, ingest, wordCount or grep"
type BenchmarkRunSpec struct {
	// ClusterRef names the HadoopCluster in this namespace to run on. Its image,
	// Hadoop configuration and CephFS client config run every stage.
	// +kubebuilder:validation:XValidation:rule="self.name.size() <= 36 && self.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')",message="must be a HadoopCluster name: a letter, then at most 35 of a-z, 0-9 and '-', not ending with '-'",fieldPath=".name",fieldPath=".name"
	ClusterRef LocalObjectReference `json:"clusterRef"`

	// TeraSort generates rows with TeraGen, sorts them with TeraSort and, unless
	// validate is false, checks the order with TeraValidate.
	// +optional
	TeraSort *TeraSortWorkload `json:"teraSort,omitempty"`

	// TestDFSIO writes, then reads, files with Hadoop's TestDFSIO.
	// +optional
	TestDFSIO *TestDFSIOWorkload `json:"testDFSIO,omitempty"`

	// Ingest copies data into CephFS with `hadoop fs -put` from several client pods
	// at once, as data arrives in a cluster from outside.
	// +optional
	Ingest *IngestWorkload `json:"ingest,omitempty"`

	// WordCount counts the words of data already on CephFS, in place.
	// +optional
	WordCount *WordCountWorkload `json:"wordCount,omitempty"`

	// Grep counts the matches of a regular expression in data already on CephFS, in
	// place.
	// +optional
	Grep *GrepWorkload `json:"grep,omitempty"`

	// Repetitions of the workload; status reports each and their median.
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10
	// +optional
	Repetitions int32 `json:"repetitions,omitempty"`

	// Queue is the YARN queue of the run's MapReduce jobs (mapreduce.job.queuename),
	// one of the HadoopCluster's spec.yarn.queues; unset, its default queue. A run
	// naming a queue the cluster does not have waits for it.
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([a-z0-9_-]*[a-z0-9])?$`
	// +optional
	Queue string `json:"queue,omitempty"`

	// BaselineRef names another BenchmarkRun in this namespace, of the same workload,
	// whose results this run is compared with, stage by stage. The comparison waits
	// until the baseline has succeeded, and gives no ratios when the runs' parameters
	// or NodeManagers differ (status.baseline.differences).
	// +optional
	// +kubebuilder:validation:XValidation:rule="self.name.size() <= 46 && self.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')",message="must be a BenchmarkRun name: a letter, then at most 45 of a-z, 0-9 and '-', not ending with '-'",fieldPath=".name"
	BaselineRef *LocalObjectReference `json:"baselineRef,omitempty"`

	// Cleanup removes the data a repetition generated once it is measured (TeraGen and
	// TeraSort output, TestDFSIO files, ingested files, WordCount and Grep output),
	// and the run's directory after the last one. Input paths of wordCount and grep
	// are never removed.
	// +kubebuilder:default=true
	// +optional
	Cleanup *bool `json:"cleanup,omitempty"`

	// Deadline bounds the whole run from its start, queueing excluded: a stage still
	// running when it passes is stopped and the run fails. Each stage's Job gets the
	// time that is left as its activeDeadlineSeconds.
	// +kubebuilder:default="24h"
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|ms|s|m|h))+$`
	// +kubebuilder:validation:XValidation:rule="duration(self) >= duration('1m') && duration(self) <= duration('720h')",message="must be a duration between 1m and 720h, such as 90m or 6h"
	// +optional
	Deadline *metav1.Duration `json:"deadline,omitempty"`
}

// TeraSortWorkload sizes TeraGen, TeraSort and TeraValidate. TeraGen rows are 100
// bytes, so size 1Ti is 10995116277 rows.
// +kubebuilder:validation:XValidation:rule="has(self.size) != has(self.rows)",message="exactly one of size or rows must be set"
type TeraSortWorkload struct {
	// Size of the data TeraGen generates, at least one row (100 bytes); rounded down
	// to whole rows.
	// +kubebuilder:validation:XValidation:rule="quantity(string(self)).compareTo(quantity('100')) >= 0",message="must be at least 100 (one 100-byte row)"
	// +kubebuilder:validation:XValidation:rule="quantity(string(self)).compareTo(quantity('1Pi')) <= 0",message="must be at most 1Pi"
	// +optional
	Size *resource.Quantity `json:"size,omitempty"`

	// Rows TeraGen generates.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=11258999068426
	// +optional
	Rows *int64 `json:"rows,omitempty"`

	// Maps of TeraGen (mapreduce.job.maps), which is how many files it writes in
	// parallel. Unset takes the cluster's spec.config.mapredSite, else Hadoop's
	// default (2).
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100000
	// +optional
	Maps *int32 `json:"maps,omitempty"`

	// Reduces of TeraSort (mapreduce.job.reduces), which is how many sorted files it
	// writes. Unset takes the cluster's spec.config.mapredSite, else Hadoop's default
	// (1).
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100000
	// +optional
	Reduces *int32 `json:"reduces,omitempty"`

	// OutputReplication is TeraSort's mapreduce.terasort.output.replication, set
	// explicitly because TeraSort otherwise writes its output with replication 1
	// whatever dfs.replication says. Unset takes dfs.replication from the cluster's
	// spec.config.coreSite, else an HDFS backend's replication, else Hadoop's default
	// of 3. On CephFS the data pool
	// decides how many copies exist; the value only selects among ceph.data.pools.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10
	// +optional
	OutputReplication *int32 `json:"outputReplication,omitempty"`

	// Validate runs TeraValidate after TeraSort. Any error line in its report fails
	// the run.
	// +kubebuilder:default=true
	// +optional
	Validate *bool `json:"validate,omitempty"`
}

// DFSIOMode is a TestDFSIO test.
// +kubebuilder:validation:Enum=write;read
type DFSIOMode string

const (
	DFSIOWrite DFSIOMode = "write"
	DFSIORead  DFSIOMode = "read"
)

// TestDFSIOWorkload sizes TestDFSIO. With little data the jobs measure job start-up
// more than I/O: use several GiB in total when comparing throughput.
// +kubebuilder:validation:XValidation:rule="!(self.modes.exists(m, m == 'read')) || self.modes.exists(m, m == 'write')",message="read needs write: TestDFSIO reads the files its write test created"
type TestDFSIOWorkload struct {
	// Files is TestDFSIO's -nrFiles: one map task per file.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100000
	Files int32 `json:"files"`

	// FileSize of each file, at least 1Mi. TestDFSIO counts in MiB and reports
	// MiB/s (its "mb/sec").
	// +kubebuilder:validation:XValidation:rule="quantity(string(self)).compareTo(quantity('1Mi')) >= 0",message="must be at least 1Mi"
	// +kubebuilder:validation:XValidation:rule="quantity(string(self)).compareTo(quantity('1Pi')) <= 0",message="must be at most 1Pi"
	FileSize resource.Quantity `json:"fileSize"`

	// Modes run in this order: write, then read.
	// +kubebuilder:default={write,read}
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=2
	// +listType=set
	// +optional
	Modes []DFSIOMode `json:"modes,omitempty"`
}

// IngestWorkload is `clients` pods, each running parallelPuts `hadoop fs -put`s of one
// file of fileSize at the same time. Each pod generates its file (random bytes) in its
// /tmp before the clock starts, so the node needs fileSize of ephemeral storage per
// client.
type IngestWorkload struct {
	// Clients is the number of client pods, all running at once.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=256
	Clients int32 `json:"clients"`

	// ParallelPuts per client, each a separate `hadoop fs -put` of the same file.
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=64
	// +optional
	ParallelPuts int32 `json:"parallelPuts,omitempty"`

	// FileSize of the file each put copies.
	// +kubebuilder:validation:XValidation:rule="quantity(string(self)).compareTo(quantity('1')) >= 0",message="must be at least 1 byte"
	// +kubebuilder:validation:XValidation:rule="quantity(string(self)).compareTo(quantity('1Ti')) <= 0",message="must be at most 1Ti"
	FileSize resource.Quantity `json:"fileSize"`
}

// WordCountWorkload counts words in data already on CephFS.
type WordCountWorkload struct {
	// InputPath is a file or directory on the cluster's CephFS, absolute from
	// Hadoop's root. A path that does not exist fails the run, naming the path.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:XValidation:rule="self.startsWith('/')",message="must be an absolute path, such as /datasets/wiki"
	// +kubebuilder:validation:XValidation:rule="!self.split('/').exists(s, s == '..')",message="must not contain '..'"
	InputPath string `json:"inputPath"`
}

// GrepWorkload counts the matches of a regular expression in data already on
// CephFS, with Hadoop's Grep example (a search job, then a sort job).
type GrepWorkload struct {
	// InputPath is a file or directory on the cluster's CephFS, absolute from
	// Hadoop's root. A path that does not exist fails the run, naming the path.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:XValidation:rule="self.startsWith('/')",message="must be an absolute path, such as /datasets/wiki"
	// +kubebuilder:validation:XValidation:rule="!self.split('/').exists(s, s == '..')",message="must not contain '..'"
	InputPath string `json:"inputPath"`

	// Pattern is a Java regular expression.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	Pattern string `json:"pattern"`

	// Group of the pattern whose text is counted; the whole match when unset.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	// +optional
	Group *int32 `json:"group,omitempty"`
}

// BenchmarkPhase is where a run is in its life.
// +kubebuilder:validation:Enum=Pending;Queued;Running;Succeeded;Failed
type BenchmarkPhase string

const (
	BenchmarkPhasePending   BenchmarkPhase = "Pending"
	BenchmarkPhaseQueued    BenchmarkPhase = "Queued"
	BenchmarkPhaseRunning   BenchmarkPhase = "Running"
	BenchmarkPhaseSucceeded BenchmarkPhase = "Succeeded"
	BenchmarkPhaseFailed    BenchmarkPhase = "Failed"
)

// BenchmarkWorkload names the workload of a run, as status.workload shows it.
// +kubebuilder:validation:Enum=TeraSort;TestDFSIO;Ingest;WordCount;Grep
type BenchmarkWorkload string

const (
	WorkloadTeraSort  BenchmarkWorkload = "TeraSort"
	WorkloadTestDFSIO BenchmarkWorkload = "TestDFSIO"
	WorkloadIngest    BenchmarkWorkload = "Ingest"
	WorkloadWordCount BenchmarkWorkload = "WordCount"
	WorkloadGrep      BenchmarkWorkload = "Grep"
)

// BenchmarkStage is one step of a workload, run as one Kubernetes Job per repetition.
// +kubebuilder:validation:Enum=teragen;terasort;teravalidate;dfsio-write;dfsio-read;ingest;wordcount;grep;cleanup
type BenchmarkStage string

const (
	StageTeraGen      BenchmarkStage = "teragen"
	StageTeraSort     BenchmarkStage = "terasort"
	StageTeraValidate BenchmarkStage = "teravalidate"
	StageDFSIOWrite   BenchmarkStage = "dfsio-write"
	StageDFSIORead    BenchmarkStage = "dfsio-read"
	StageIngest       BenchmarkStage = "ingest"
	StageWordCount    BenchmarkStage = "wordcount"
	StageGrep         BenchmarkStage = "grep"
	// StageCleanup removes a repetition's data; it is not measured.
	StageCleanup BenchmarkStage = "cleanup"
)

// StagePhase is where one stage of one repetition is.
// +kubebuilder:validation:Enum=Running;Succeeded;Failed
type StagePhase string

const (
	StagePhaseRunning   StagePhase = "Running"
	StagePhaseSucceeded StagePhase = "Succeeded"
	StagePhaseFailed    StagePhase = "Failed"
)

// Throughputs are exact integers in bytes per second (bytesPerSecond), for sorting and
// metrics, and text with two decimals in MiB/s (throughput), for people: the API has
// no floating point numbers. TestDFSIO's own "mb/sec" figures are MiB/s too.

// BenchmarkRunStatus reports progress and results. The operator rebuilds it from the
// stage Jobs and their termination messages.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.setup) || (has(self.setup) && self.setup == oldSelf.setup)",message="is recorded once, when the first stage starts, and never changes",fieldPath=".setup"
type BenchmarkRunStatus struct {
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// Phase: Pending (waiting for the cluster or checking the spec), Queued (another
	// run uses the cluster), Running, Succeeded or Failed.
	// +optional
	Phase BenchmarkPhase `json:"phase,omitempty"`

	// Workload is the spec's workload, for kubectl get.
	// +optional
	Workload BenchmarkWorkload `json:"workload,omitempty"`

	// StartTime is when the first stage started, after queueing.
	// +optional
	StartTime *metav1.Time `json:"startTime,omitempty"`

	// Setup is what the run measured, recorded with startTime and never changed: the
	// HadoopCluster and its StorageBackend can change or be deleted later, and a
	// comparison with a baseline needs them as they were. Runs that started before the
	// operator recorded it have none.
	// +optional
	Setup *BenchmarkSetup `json:"setup,omitempty"`

	// CompletionTime is when the run succeeded or failed.
	// +optional
	CompletionTime *metav1.Time `json:"completionTime,omitempty"`

	// Progress is the stage that runs now.
	// +optional
	Progress *BenchmarkProgress `json:"progress,omitempty"`

	// Stages has one entry per stage and repetition that started, in order.
	// +kubebuilder:validation:MaxItems=64
	// +listType=atomic
	// +optional
	Stages []StageResult `json:"stages,omitempty"`

	// Summary has the medians over the repetitions that succeeded.
	// +optional
	Summary *BenchmarkSummary `json:"summary,omitempty"`

	// Baseline compares the summary with spec.baselineRef's.
	// +optional
	Baseline *BaselineComparison `json:"baseline,omitempty"`

	// Conditions: Ready (True once the run succeeded), ClusterReady and, with a
	// baseline, BaselineCompared.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// BenchmarkProgress says how far a run is.
type BenchmarkProgress struct {
	// Step is the 1-based number of the current stage among all stages of all
	// repetitions, cleanup included.
	// +kubebuilder:validation:Minimum=0
	Step int32 `json:"step"`

	// Steps is the number of stages of all repetitions.
	// +kubebuilder:validation:Minimum=0
	Steps int32 `json:"steps"`

	// Stage and Repetition are the current stage.
	// +optional
	Stage BenchmarkStage `json:"stage,omitempty"`
	// +optional
	Repetition int32 `json:"repetition,omitempty"`

	// Percent of the current stage's MapReduce jobs done, as YARN reports them; absent
	// while YARN lists none of them, for stages without one, and when the operator
	// cannot reach the ResourceManager.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	// +optional
	Percent *int32 `json:"percent,omitempty"`

	// Message is the progress for people, such as "stage 2 of 8: terasort, repetition
	// 1, 45%".
	// +kubebuilder:validation:MaxLength=256
	// +optional
	Message string `json:"message,omitempty"`
}

// StageResult is one stage of one repetition.
type StageResult struct {
	// +kubebuilder:validation:MaxLength=32
	Stage BenchmarkStage `json:"stage"`

	// +kubebuilder:validation:Minimum=1
	Repetition int32 `json:"repetition"`

	// Phase of the stage.
	Phase StagePhase `json:"phase"`

	// JobName is the Kubernetes Job that runs the stage.
	// +kubebuilder:validation:MaxLength=63
	// +optional
	JobName string `json:"jobName,omitempty"`

	// HadoopJobs are the MapReduce job ids the stage ran, for the JobHistory server.
	// +kubebuilder:validation:MaxItems=8
	// +listType=atomic
	// +optional
	HadoopJobs []string `json:"hadoopJobs,omitempty"`

	// HistoryURLs are the JobHistory server's pages of HadoopJobs, in the same order:
	// counters, tasks and attempts of each job after it ended. Empty when the cluster
	// runs no JobHistory server.
	// +kubebuilder:validation:MaxItems=8
	// +listType=atomic
	// +optional
	HistoryURLs []string `json:"historyURLs,omitempty"`

	// +optional
	StartTime *metav1.Time `json:"startTime,omitempty"`
	// +optional
	CompletionTime *metav1.Time `json:"completionTime,omitempty"`

	// Duration of the stage as the runner measured it, in milliseconds' precision.
	// +optional
	Duration *metav1.Duration `json:"duration,omitempty"`

	// Bytes the stage moved: written by TeraGen, TeraSort, TestDFSIO write and
	// ingest, read by TeraValidate, TestDFSIO read, WordCount and Grep. TeraSort's
	// stages count their rows times 100 bytes.
	// +optional
	Bytes int64 `json:"bytes,omitempty"`

	// BytesPerSecond is bytes over duration; for TestDFSIO, over its "Test exec
	// time", the job's own wall time, as TestDFSIO users compare it.
	// +optional
	BytesPerSecond int64 `json:"bytesPerSecond,omitempty"`

	// Throughput is bytesPerSecond in MiB/s with two decimals, such as "812.40 MiB/s".
	// +kubebuilder:validation:MaxLength=32
	// +optional
	Throughput string `json:"throughput,omitempty"`

	// Counters are selected MapReduce job counters, summed over the stage's jobs.
	// +optional
	Counters *JobCounters `json:"counters,omitempty"`

	// TeraValidate is TeraValidate's report.
	// +optional
	TeraValidate *TeraValidateResult `json:"teraValidate,omitempty"`

	// TestDFSIO is TestDFSIO's result.
	// +optional
	TestDFSIO *TestDFSIOResult `json:"testDFSIO,omitempty"`

	// Ingest sums up the puts of every client.
	// +optional
	Ingest *IngestResult `json:"ingest,omitempty"`

	// Message explains a failure: the tool's last error, or what was missing.
	// +kubebuilder:validation:MaxLength=1024
	// +optional
	Message string `json:"message,omitempty"`
}

// JobCounters are MapReduce job counters the client printed, summed over the stage's
// jobs.
type JobCounters struct {
	// +optional
	MapInputRecords int64 `json:"mapInputRecords,omitempty"`
	// +optional
	MapOutputRecords int64 `json:"mapOutputRecords,omitempty"`
	// +optional
	ReduceOutputRecords int64 `json:"reduceOutputRecords,omitempty"`
	// +optional
	SpilledRecords int64 `json:"spilledRecords,omitempty"`
	// InputBytes is "Bytes Read" of the input format.
	// +optional
	InputBytes int64 `json:"inputBytes,omitempty"`
	// OutputBytes is "Bytes Written" of the output format.
	// +optional
	OutputBytes int64 `json:"outputBytes,omitempty"`
	// FileSystemBytesRead and FileSystemBytesWritten are "<SCHEME>: Number of bytes
	// read/written" of the cluster's default file system (CEPH); the FILE counters,
	// which count spills and shuffle on local disks, are left out.
	// +optional
	FileSystemBytesRead int64 `json:"fileSystemBytesRead,omitempty"`
	// +optional
	FileSystemBytesWritten int64 `json:"fileSystemBytesWritten,omitempty"`
	// +optional
	LaunchedMaps int64 `json:"launchedMaps,omitempty"`
	// +optional
	LaunchedReduces int64 `json:"launchedReduces,omitempty"`
	// DataLocalMaps ran on a node that holds their input, as the connector reports
	// block locations.
	// +optional
	DataLocalMaps int64 `json:"dataLocalMaps,omitempty"`
	// RackLocalMaps ran on another node of the rack that holds their input, by the
	// topology YARN knows.
	// +optional
	RackLocalMaps int64 `json:"rackLocalMaps,omitempty"`
	// FailedTaskAttempts are map and reduce attempts that failed, and
	// KilledTaskAttempts those killed, for example with a NodeManager that went away
	// or by speculative execution; MapReduce ran each again.
	// +optional
	FailedTaskAttempts int64 `json:"failedTaskAttempts,omitempty"`
	// +optional
	KilledTaskAttempts int64 `json:"killedTaskAttempts,omitempty"`
	// +optional
	CPUMillis int64 `json:"cpuMillis,omitempty"`
	// +optional
	GCMillis int64 `json:"gcMillis,omitempty"`
	// TeraGenChecksum is TeraGen's CHECKSUM counter in hexadecimal, which
	// TeraValidate's checksum of the sorted rows must equal.
	// +kubebuilder:validation:MaxLength=32
	// +optional
	TeraGenChecksum string `json:"teraGenChecksum,omitempty"`
}

// TeraValidateResult is TeraValidate's report.
type TeraValidateResult struct {
	// Checksum of the sorted rows (TeraValidate's "checksum" line), equal for equal
	// data whatever the file system. A checksum other than the repetition's
	// TeraGen checksum fails the run: rows were lost or changed.
	// +kubebuilder:validation:MaxLength=64
	// +optional
	Checksum string `json:"checksum,omitempty"`

	// Errors is the number of error lines in the report.
	// +optional
	Errors int32 `json:"errors,omitempty"`

	// FirstError is the first of them.
	// +kubebuilder:validation:MaxLength=512
	// +optional
	FirstError string `json:"firstError,omitempty"`
}

// TestDFSIOResult is TestDFSIO's result block. Rates are MiB/s with two decimals.
type TestDFSIOResult struct {
	// +optional
	Files int64 `json:"files,omitempty"`
	// TotalMB is "Total MBytes processed" (MiB).
	// +kubebuilder:validation:MaxLength=32
	// +optional
	TotalMB string `json:"totalMB,omitempty"`
	// Throughput is "Throughput mb/sec": total MiB over the sum of the tasks' I/O
	// times, so a per-task rate.
	// +kubebuilder:validation:MaxLength=32
	// +optional
	Throughput string `json:"throughput,omitempty"`
	// AverageIORate is "Average IO rate mb/sec", the mean of the tasks' rates.
	// +kubebuilder:validation:MaxLength=32
	// +optional
	AverageIORate string `json:"averageIORate,omitempty"`
	// IORateStdDev is "IO rate std deviation".
	// +kubebuilder:validation:MaxLength=32
	// +optional
	IORateStdDev string `json:"ioRateStdDev,omitempty"`
	// ExecTime is "Test exec time sec", the job's wall time.
	// +optional
	ExecTime *metav1.Duration `json:"execTime,omitempty"`
}

// IngestResult sums up the puts of a stage.
type IngestResult struct {
	// Clients that reported.
	// +optional
	Clients int32 `json:"clients,omitempty"`
	// Puts that ran, and Failed of them.
	// +optional
	Puts int32 `json:"puts,omitempty"`
	// +optional
	Failed int32 `json:"failed,omitempty"`
	// Fastest, Median and Slowest put.
	// +optional
	Fastest *metav1.Duration `json:"fastest,omitempty"`
	// +optional
	Median *metav1.Duration `json:"median,omitempty"`
	// +optional
	Slowest *metav1.Duration `json:"slowest,omitempty"`
}

// BenchmarkSummary has the medians over the repetitions that succeeded.
type BenchmarkSummary struct {
	// Repetitions that succeeded, which the medians are of.
	// +optional
	Repetitions int32 `json:"repetitions,omitempty"`

	// Stages has the median of each measured stage (cleanup is not).
	// +kubebuilder:validation:MaxItems=8
	// +listType=atomic
	// +optional
	Stages []StageSummary `json:"stages,omitempty"`

	// Duration is the median over repetitions of their measured stages' total.
	// +optional
	Duration *metav1.Duration `json:"duration,omitempty"`

	// Throughput is the workload's headline figure, for kubectl get: TeraSort's
	// terasort stage, TestDFSIO's write (and read) stage, ingest, WordCount and Grep.
	// +kubebuilder:validation:MaxLength=64
	// +optional
	Throughput string `json:"throughput,omitempty"`
}

// StageSummary is the median of one stage over the repetitions.
type StageSummary struct {
	// +kubebuilder:validation:MaxLength=32
	Stage BenchmarkStage `json:"stage"`
	// +optional
	Duration *metav1.Duration `json:"duration,omitempty"`
	// +optional
	Bytes int64 `json:"bytes,omitempty"`
	// +optional
	BytesPerSecond int64 `json:"bytesPerSecond,omitempty"`
	// +kubebuilder:validation:MaxLength=32
	// +optional
	Throughput string `json:"throughput,omitempty"`
}

// BenchmarkSetup is what a run measured: its cluster and storage, and the parameters
// its cluster's configuration decided, as they were when its first stage started.
type BenchmarkSetup struct {
	// Cluster is the name of the HadoopCluster the run ran on.
	// +kubebuilder:validation:MaxLength=253
	Cluster string `json:"cluster"`

	// Storage is the cluster's StorageBackend.
	Storage StorageSetup `json:"storage"`

	// NodeManagers are the cluster's NodeManagers as YARN saw them.
	NodeManagers NodeManagersSetup `json:"nodeManagers"`

	// Repetitions of the workload the run was to measure (spec.repetitions).
	// +kubebuilder:validation:Minimum=1
	Repetitions int32 `json:"repetitions"`

	// TeraSort has the TeraSort parameters that the cluster's configuration decides
	// when the spec leaves them unset; only for TeraSort runs.
	// +optional
	TeraSort *TeraSortSetup `json:"teraSort,omitempty"`

	// Network is what carried the run's Hadoop data traffic. Runs recorded before the
	// operator recorded it, or whose storage could not be resolved when they started,
	// have none.
	// +optional
	Network *NetworkSetup `json:"network,omitempty"`
}

// NetworkSetup is what carried a run's Hadoop data traffic, the shuffle between
// NodeManagers and the CephFS I/O of the YARN containers and the stages, from the
// cluster's spec.network as it was when the first stage started.
type NetworkSetup struct {
	// HostNetwork: the pods used their nodes' network (spec.network.hostNetwork).
	// +optional
	HostNetwork bool `json:"hostNetwork,omitempty"`

	// DataInterface is the interface whose address the NodeManagers advertised, so
	// the shuffle ran over it: spec.network.dataInterface, or, when that is empty,
	// eth0, the pod's own interface on the pod network. Empty only with hostNetwork
	// and no dataInterface: the NodeManagers advertised their node's address.
	// +kubebuilder:validation:MaxLength=15
	// +optional
	DataInterface string `json:"dataInterface,omitempty"`

	// Attachment is the NetworkAttachmentDefinition DataInterface is on, when it is an
	// attachment's: one of spec.network.attachments, or Rook's Multus public network.
	// +optional
	Attachment *NetworkAttachmentReference `json:"attachment,omitempty"`

	// CephPublicNetwork is Rook's Multus public network, which every pod joined to
	// reach Ceph, so CephFS I/O ran over it; none when Ceph was reached over the pod's
	// (or node's) own network.
	// +optional
	CephPublicNetwork *NetworkAttachmentReference `json:"cephPublicNetwork,omitempty"`

	// Rate is the link rate of Attachment's network, as the hadoopceph.io/link-rate
	// annotation of its NetworkAttachmentDefinition gave it (such as 10Gbit): the
	// operator cannot see a link's rate. Empty when not known: no attachment, no
	// annotation, or one that is not a rate, which the HadoopCluster's NetworkReady
	// names.
	// +kubebuilder:validation:MaxLength=32
	// +optional
	Rate string `json:"rate,omitempty"`
}

// NetworkAttachmentReference is a NetworkAttachmentDefinition, its namespace filled in.
type NetworkAttachmentReference struct {
	// Namespace of the NetworkAttachmentDefinition.
	// +kubebuilder:validation:MaxLength=63
	Namespace string `json:"namespace"`
	// Name of the NetworkAttachmentDefinition.
	// +kubebuilder:validation:MaxLength=63
	Name string `json:"name"`
}

// StorageSetup is a StorageBackend as a run measured it.
type StorageSetup struct {
	// Backend is the name of the StorageBackend.
	// +kubebuilder:validation:MaxLength=253
	Backend string `json:"backend"`

	// Mode is the StorageBackend's status.mode, such as Rook or External; empty when
	// it reported none.
	// +kubebuilder:validation:MaxLength=64
	// +optional
	Mode string `json:"mode,omitempty"`

	// RawOverhead is the StorageBackend's status.rawOverhead: raw bytes stored per
	// byte written, a replicated pool's size or an erasure-coded pool's (k+m)/k.
	// +kubebuilder:validation:MaxLength=32
	// +optional
	RawOverhead string `json:"rawOverhead,omitempty"`

	// Pool is how the data pool Hadoop's root was laid out on stored data, as the
	// StorageBackend reported it (status.dataPools): replicated with its size, or
	// erasure-coded with its data and coding chunks. None on an HDFS backend (its
	// replication is RawOverhead), and on runs recorded before the operator recorded
	// pools.
	// +optional
	Pool *PoolSetup `json:"pool,omitempty"`
}

// PoolSetup is a Ceph pool's layout as a run measured it.
type PoolSetup struct {
	// Name is the Ceph pool's name.
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// Kind is Replicated, ErasureCoded or Unknown (an external pool that the operator
	// could not read).
	Kind PoolKind `json:"kind"`

	// Size is the number of copies of a replicated pool.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Size int32 `json:"size,omitempty"`

	// DataChunks (k) of an erasure-coded pool.
	// +kubebuilder:validation:Minimum=0
	// +optional
	DataChunks int32 `json:"dataChunks,omitempty"`

	// CodingChunks (m) of an erasure-coded pool.
	// +kubebuilder:validation:Minimum=0
	// +optional
	CodingChunks int32 `json:"codingChunks,omitempty"`
}

// NodeManagersSetup is how many NodeManagers a cluster had and what each offered YARN.
type NodeManagersSetup struct {
	// Replicas is the number of NodeManagers that were ready.
	// +kubebuilder:validation:Minimum=0
	Replicas int32 `json:"replicas"`

	// MemoryMiB is what each NodeManager offered YARN's containers
	// (yarn.nodemanager.resource.memory-mb).
	// +kubebuilder:validation:Minimum=0
	MemoryMiB int64 `json:"memoryMiB"`

	// VCores is what each NodeManager offered YARN's containers
	// (yarn.nodemanager.resource.cpu-vcores).
	// +kubebuilder:validation:Minimum=0
	VCores int32 `json:"vcores"`

	// Resources are the CPU and memory requests and limits of each NodeManager
	// container (spec.nodeManagers.resources), inside which its YARN containers run:
	// the same YARN offer on pods of fewer cores does the same work more slowly. Runs
	// recorded before the operator recorded them have none.
	// +optional
	Resources *PodResourcesSetup `json:"resources,omitempty"`
}

// PodResourcesSetup are a container's CPU and memory requests and limits; other
// resources (network devices among them) are left out.
type PodResourcesSetup struct {
	// Requests of cpu and memory; empty when the container requested neither.
	// +optional
	Requests corev1.ResourceList `json:"requests,omitempty"`

	// Limits of cpu and memory; empty when the container had neither.
	// +optional
	Limits corev1.ResourceList `json:"limits,omitempty"`
}

// TeraSortSetup has a TeraSort's maps, reduces and output replication as they ran:
// the spec's values, else the cluster's configuration, else Hadoop's defaults.
type TeraSortSetup struct {
	// Maps of TeraGen: spec.teraSort.maps, else the cluster's mapreduce.job.maps
	// (spec.config.mapredSite), else 2.
	// +optional
	Maps int32 `json:"maps,omitempty"`

	// Reduces of TeraSort: spec.teraSort.reduces, else the cluster's
	// mapreduce.job.reduces (spec.config.mapredSite), else 1.
	// +optional
	Reduces int32 `json:"reduces,omitempty"`

	// OutputReplication of TeraSort: spec.teraSort.outputReplication, else the
	// cluster's dfs.replication (spec.config.coreSite), else an HDFS backend's
	// replication, else 3.
	// +optional
	OutputReplication int32 `json:"outputReplication,omitempty"`
}

// BaselineComparison is this run's summary over the baseline's. Ratios are text with
// two decimals: throughput above 1.00 and duration below 1.00 mean this run was
// faster. Runs whose parameters differ in what changes the work or the cluster that
// did it have differences and no ratios.
type BaselineComparison struct {
	// Name of the baseline BenchmarkRun.
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// Stages has one ratio per stage that both runs measured.
	// +kubebuilder:validation:MaxItems=8
	// +listType=atomic
	// +optional
	Stages []StageRatio `json:"stages,omitempty"`

	// Ratio is the headline throughput ratio, such as "1.19x", for kubectl get. Empty
	// when the runs are not comparable.
	// +kubebuilder:validation:MaxLength=16
	// +optional
	Ratio string `json:"ratio,omitempty"`

	// Storage is this run's storage and BaselineStorage the baseline's, from their
	// status.setup: what the comparison is between. Storage never makes runs
	// incomparable; it is what a baseline is usually there to vary. Absent for a run
	// without a setup.
	// +optional
	Storage *StorageSetup `json:"storage,omitempty"`
	// +optional
	BaselineStorage *StorageSetup `json:"baselineStorage,omitempty"`

	// Differences are the parameters in which the runs differ so that a ratio would
	// mean nothing; when there are any, there are no ratios.
	// +kubebuilder:validation:MaxItems=16
	// +listType=atomic
	// +optional
	Differences []BaselineDifference `json:"differences,omitempty"`

	// Flagged are the parameters in which the runs differ that change the figures
	// only in some conditions, such as nodeManagerRequests, the NodeManager pods'
	// requests, which decide their share of a node's CPU only when it is contended:
	// the runs are compared, with these named beside the ratios.
	// +kubebuilder:validation:MaxItems=16
	// +listType=atomic
	// +optional
	Flagged []BaselineDifference `json:"flagged,omitempty"`

	// Unknown names the parameters that could not be compared because a run started
	// before the operator recorded status.setup.
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:items:MaxLength=32
	// +listType=atomic
	// +optional
	Unknown []string `json:"unknown,omitempty"`
}

// BaselineDifference is one parameter in which a run and its baseline differ.
type BaselineDifference struct {
	// Parameter is the spec field, such as rows, or NodeManagers for the cluster's
	// NodeManagers.
	// +kubebuilder:validation:MaxLength=32
	Parameter string `json:"parameter"`
	// Value is this run's, as it ran.
	// +kubebuilder:validation:MaxLength=1024
	Value string `json:"value"`
	// BaselineValue is the baseline's.
	// +kubebuilder:validation:MaxLength=1024
	BaselineValue string `json:"baselineValue"`
}

// StageRatio compares one stage's medians.
type StageRatio struct {
	// +kubebuilder:validation:MaxLength=32
	Stage BenchmarkStage `json:"stage"`
	// ThroughputRatio is this run's bytes per second over the baseline's.
	// +kubebuilder:validation:MaxLength=16
	// +optional
	ThroughputRatio string `json:"throughputRatio,omitempty"`
	// DurationRatio is this run's duration over the baseline's.
	// +kubebuilder:validation:MaxLength=16
	// +optional
	DurationRatio string `json:"durationRatio,omitempty"`
}

// BenchmarkRun is one benchmark on one HadoopCluster, with its results in status.
// Names are limited to 46 characters so that stage Jobs, named
// <run>-<stage>-r<repetition>, stay valid labels.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=br,categories=hadoopceph
// +kubebuilder:printcolumn:name="Cluster",type=string,JSONPath=`.spec.clusterRef.name`
// +kubebuilder:printcolumn:name="Workload",type=string,JSONPath=`.status.workload`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Duration",type=string,JSONPath=`.status.summary.duration`
// +kubebuilder:printcolumn:name="Throughput",type=string,JSONPath=`.status.summary.throughput`
// +kubebuilder:printcolumn:name="Vs Baseline",type=string,JSONPath=`.status.baseline.ratio`
// +kubebuilder:printcolumn:name="Progress",type=string,JSONPath=`.status.progress.message`,priority=1
// +kubebuilder:printcolumn:name="Comparison",type=string,JSONPath=`.status.conditions[?(@.type=="BaselineCompared")].reason`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="!has(self.spec.baselineRef) || self.spec.baselineRef.name != self.metadata.name",message="must name another BenchmarkRun: a run cannot be its own baseline",fieldPath=".spec.baselineRef.name"
// +kubebuilder:validation:XValidation:rule="self.metadata.name.size() <= 46 && self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')",message="name must start with a letter and be at most 46 characters of a-z, 0-9 and '-': stage Jobs are named <name>-<stage>-r<repetition> and must stay valid labels",fieldPath=".metadata"
type BenchmarkRun struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is required: a run without a workload has nothing to do.
	Spec   BenchmarkRunSpec   `json:"spec"`
	Status BenchmarkRunStatus `json:"status,omitempty"`
}

// BenchmarkRunList is a list of BenchmarkRuns.
// +kubebuilder:object:root=true
type BenchmarkRunList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []BenchmarkRun `json:"items"`
}

func init() {
	SchemeBuilder.Register(&BenchmarkRun{}, &BenchmarkRunList{})
}
