package benchmark

import "github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"

// The runner contract: what stage Jobs assume about the Hadoop image beyond
// internal/hadoop's image contract. docs/benchmarking.md describes it for image
// builders; runner/run-benchmark is the implementation the image installs.
const (
	// RunnerPath runs one stage and writes its report to the termination log.
	RunnerPath = "/opt/hadoop-ceph/bin/run-benchmark"

	// ExamplesJar and JobClientTestsJar are version-less links, in the image, to
	// Hadoop's hadoop-mapreduce-examples-<version>.jar (TeraGen, TeraSort,
	// TeraValidate, WordCount, Grep) and hadoop-mapreduce-client-jobclient-<version>-tests.jar
	// (TestDFSIO), so that a Job names its program without knowing Hadoop's version.
	ExamplesJar       = hadoop.HadoopHome + "/share/hadoop/mapreduce/hadoop-mapreduce-examples.jar"
	JobClientTestsJar = hadoop.HadoopHome + "/share/hadoop/mapreduce/hadoop-mapreduce-client-jobclient-tests.jar"

	// TerminationLogPath is where the runner writes its report: Kubernetes' default
	// terminationMessagePath, limited to MaxReportBytes.
	TerminationLogPath = "/dev/termination-log"
	MaxReportBytes     = 4096

	// ExitInputMissing is the runner's exit status when a --require-path does not
	// exist (sysexits.h EX_NOINPUT); the report's "missing" names the path.
	ExitInputMissing = 66
	// ExitUsage is the runner's exit status for arguments it does not understand
	// (EX_USAGE): an operator and image that disagree on the contract.
	ExitUsage = 64

	// dfsioResultFile is TestDFSIO's -resFile inside the pod, which the runner
	// copies into its report.
	dfsioResultFile = hadoop.TmpDir + "/dfsio-result.txt"
)
