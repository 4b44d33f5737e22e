package benchmark

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// rowBytes is the size of a TeraGen row.
const rowBytes = 100

// inputMissing is how FileInputFormat says that a job's input does not exist.
var inputMissing = regexp.MustCompile(`Input path does not exist: (\S+)`)

// StageReports are the reports of one stage of one repetition: one per pod, so
// several for ingest.
type StageReports struct {
	Stage   v1alpha1.BenchmarkStage
	Reports []*Report
	// Scheme is the counter prefix of the data's file system: SchemeCeph on a
	// HadoopCluster.
	Scheme string
	// TeraGenChecksum is the teraGenChecksum of the same repetition's teragen stage,
	// which TeraValidate's checksum must equal; "" skips the comparison.
	TeraGenChecksum string
}

// Outcome is what a stage's reports say in the API's terms.
type Outcome struct {
	// Result has every field the reports determine; the caller adds the repetition,
	// the Job's name and, for a stage without reports, times from the Job.
	Result v1alpha1.StageResult `json:"result"`
	// Reason is the BenchmarkRun condition reason of a failed stage: ReasonStageFailed,
	// ReasonValidationFailed, ReasonInputPathNotFound or ReasonResultUnreadable.
	Reason string `json:"reason,omitempty"`
}

// Evaluate reads a finished stage's reports: its phase, times, bytes, throughput and
// the tools' results.
func Evaluate(in StageReports) Outcome {
	res := v1alpha1.StageResult{Stage: in.Stage, Phase: v1alpha1.StagePhaseSucceeded}
	if len(in.Reports) == 0 {
		return failed(res, v1alpha1.ReasonResultUnreadable, "the stage left no report")
	}
	start, end := in.Reports[0].StartTime(), in.Reports[0].EndTime()
	var counters []Counters
	for _, r := range in.Reports {
		start, end = earliest(start, r.StartTime()), latest(end, r.EndTime())
		res.HadoopJobs = append(res.HadoopJobs, r.Jobs...)
		counters = append(counters, ParseCounters(strings.Join(r.Counters, "\n"))...)
	}
	setTimes(&res, start, end)
	res.Counters = jobCounters(counters, in.Scheme)

	for _, r := range in.Reports {
		switch {
		case r.Exit == ExitInputMissing:
			return failed(res, v1alpha1.ReasonInputPathNotFound, fmt.Sprintf("input path %s does not exist", r.Missing))
		case r.Exit != 0 && in.Stage != v1alpha1.StageIngest:
			// A path removed after the runner checked it fails the job itself.
			if m := inputMissing.FindStringSubmatch(r.Error); m != nil {
				return failed(res, v1alpha1.ReasonInputPathNotFound, fmt.Sprintf("input path %s does not exist", m[1]))
			}
			return failed(res, v1alpha1.ReasonStageFailed, exitMessage(r))
		}
	}

	var err error
	reason := v1alpha1.ReasonResultUnreadable
	switch in.Stage {
	// TeraSort's stages count rows, which are 100 bytes each: exact, where the byte
	// counters follow file system statistics, which count checksum files on file://
	// and are shared by the tasks of one JVM.
	case v1alpha1.StageTeraGen:
		res.Bytes = firstJob(counters)[CounterMapOutputRecords] * rowBytes
	case v1alpha1.StageTeraSort:
		res.Bytes = firstJob(counters)[CounterReduceOutputRecords] * rowBytes
	case v1alpha1.StageTeraValidate:
		res.Bytes = firstJob(counters)[CounterMapInputRecords] * rowBytes
		reason, err = teraValidate(&res, in)
	case v1alpha1.StageWordCount, v1alpha1.StageGrep:
		// Grep's second job sorts the matches; only the first reads the input.
		res.Bytes = firstJob(counters)[CounterBytesRead]
	case v1alpha1.StageDFSIOWrite, v1alpha1.StageDFSIORead:
		err = dfsio(&res, in.Reports[0])
	case v1alpha1.StageIngest:
		reason, err = ingest(&res, in.Reports)
	}
	if err != nil {
		return failed(res, reason, err.Error())
	}
	if res.BytesPerSecond == 0 && res.Duration != nil {
		res.BytesPerSecond = bytesPerSecond(res.Bytes, res.Duration.Duration)
	}
	res.Throughput = FormatThroughput(res.BytesPerSecond)
	return Outcome{Result: res}
}

func teraValidate(res *v1alpha1.StageResult, in StageReports) (string, error) {
	r := in.Reports[0]
	report := ParseTeraValidate(r.Validate)
	// The runner keeps the first lines and counts them all: lines beyond the ones it
	// kept are error lines too, since the checksum comes first.
	errors := len(report.Errors) + max(r.ValidateLines-len(r.Validate), 0)
	res.TeraValidate = &v1alpha1.TeraValidateResult{Checksum: truncate(report.Checksum, 64), Errors: int32(errors)}
	if len(report.Errors) > 0 {
		res.TeraValidate.FirstError = truncate(report.Errors[0], 512)
	}
	switch {
	case errors > 0:
		return v1alpha1.ReasonValidationFailed, fmt.Errorf("TeraValidate reported %d error lines, the first: %s", errors, res.TeraValidate.FirstError)
	case report.Checksum == "":
		return v1alpha1.ReasonResultUnreadable, fmt.Errorf("TeraValidate's report has no checksum")
	case in.TeraGenChecksum != "" && report.Checksum != in.TeraGenChecksum:
		return v1alpha1.ReasonValidationFailed, fmt.Errorf("TeraValidate's checksum %s differs from TeraGen's %s: rows were lost or changed", report.Checksum, in.TeraGenChecksum)
	}
	return "", nil
}

func dfsio(res *v1alpha1.StageResult, r *Report) error {
	results, err := ParseDFSIO(strings.Join(r.DFSIO, "\n"))
	if err != nil {
		return err
	}
	if len(results) == 0 {
		return fmt.Errorf("TestDFSIO printed no result")
	}
	// TestDFSIO appends to its result file; the pod's file is new, so the last block
	// is this stage's.
	d := results[len(results)-1]
	res.Bytes = d.Bytes()
	res.BytesPerSecond = bytesPerSecond(res.Bytes, d.ExecTime)
	res.TestDFSIO = &v1alpha1.TestDFSIOResult{
		Files:         d.Files,
		TotalMB:       d.TotalMB.String(),
		Throughput:    d.Throughput.String(),
		AverageIORate: d.AverageIORate.String(),
		IORateStdDev:  d.IORateStdDev.String(),
		ExecTime:      &metav1.Duration{Duration: d.ExecTime},
	}
	return nil
}

// ingest sums up the puts of every client. The stage lasts from the first put's start
// to the last one's end, over all clients, so its throughput is the aggregate rate at
// which data arrived.
func ingest(res *v1alpha1.StageResult, reports []*Report) (string, error) {
	var puts []Put
	var failedClient *Report
	for _, r := range reports {
		p, err := ParsePuts(r.Puts)
		if err != nil {
			return v1alpha1.ReasonResultUnreadable, err
		}
		if r.Exit != 0 && failedClient == nil {
			failedClient = r
		}
		puts = append(puts, p...)
	}
	sum := &v1alpha1.IngestResult{Clients: int32(len(reports)), Puts: int32(len(puts))}
	res.Ingest = sum
	var durations []time.Duration
	for i, p := range puts {
		if p.ExitStatus != 0 {
			sum.Failed++
			continue
		}
		res.Bytes += p.Bytes
		durations = append(durations, p.Duration())
		if i == 0 {
			setTimes(res, p.Start, p.End)
		} else {
			setTimes(res, earliest(res.StartTime.Time, p.Start), latest(res.CompletionTime.Time, p.End))
		}
	}
	if len(durations) > 0 {
		slices.Sort(durations)
		sum.Fastest = &metav1.Duration{Duration: durations[0]}
		sum.Median = &metav1.Duration{Duration: medianDuration(durations)}
		sum.Slowest = &metav1.Duration{Duration: durations[len(durations)-1]}
	}
	if failedClient != nil || sum.Failed > 0 || len(puts) == 0 {
		msg := fmt.Sprintf("%d of %d puts failed", sum.Failed, sum.Puts)
		if failedClient != nil {
			msg += ": " + exitMessage(failedClient)
		}
		return v1alpha1.ReasonStageFailed, fmt.Errorf("%s", msg)
	}
	return "", nil
}

func failed(res v1alpha1.StageResult, reason, message string) Outcome {
	res.Phase = v1alpha1.StagePhaseFailed
	res.Message = truncate(message, 1024)
	return Outcome{Result: res, Reason: reason}
}

func exitMessage(r *Report) string {
	if r.Error != "" {
		return fmt.Sprintf("exit status %d: %s", r.Exit, r.Error)
	}
	return fmt.Sprintf("exit status %d", r.Exit)
}

func setTimes(res *v1alpha1.StageResult, start, end time.Time) {
	res.StartTime = &metav1.Time{Time: start}
	res.CompletionTime = &metav1.Time{Time: end}
	res.Duration = &metav1.Duration{Duration: end.Sub(start)}
}

// jobCounters sums the counters the API shows over a stage's jobs.
func jobCounters(jobs []Counters, scheme string) *v1alpha1.JobCounters {
	if len(jobs) == 0 {
		return nil
	}
	var out v1alpha1.JobCounters
	for _, c := range jobs {
		read, written := c.FileSystemBytes(scheme)
		out.MapInputRecords += c[CounterMapInputRecords]
		out.MapOutputRecords += c[CounterMapOutputRecords]
		out.ReduceOutputRecords += c[CounterReduceOutputRecords]
		out.SpilledRecords += c[CounterSpilledRecords]
		out.InputBytes += c[CounterBytesRead]
		out.OutputBytes += c[CounterBytesWritten]
		out.FileSystemBytesRead += read
		out.FileSystemBytesWritten += written
		out.LaunchedMaps += c[CounterLaunchedMaps]
		out.LaunchedReduces += c[CounterLaunchedReduces]
		out.DataLocalMaps += c[CounterDataLocalMaps]
		out.RackLocalMaps += c[CounterRackLocalMaps]
		out.FailedTaskAttempts += c[CounterFailedMaps] + c[CounterFailedReduces]
		out.KilledTaskAttempts += c[CounterKilledMaps] + c[CounterKilledReduces]
		out.CPUMillis += c[CounterCPUMillis]
		out.GCMillis += c[CounterGCMillis]
		if sum, ok := c[CounterTeraGenChecksum]; ok {
			out.TeraGenChecksum = strconv.FormatInt(sum, 16)
		}
	}
	return &out
}

func firstJob(jobs []Counters) Counters {
	if len(jobs) == 0 {
		return Counters{}
	}
	return jobs[0]
}

// bytesPerSecond is bytes over d, 0 for no time.
func bytesPerSecond(bytes int64, d time.Duration) int64 {
	ms := d.Milliseconds()
	if ms <= 0 {
		return 0
	}
	return mulDiv(bytes, 1000, ms)
}

// FormatThroughput shows bytes per second in MiB/s with two decimals, or "" for none.
func FormatThroughput(bytesPerSecond int64) string {
	if bytesPerSecond <= 0 {
		return ""
	}
	return Milli(mulDiv(bytesPerSecond, 1000, 1<<20)).String() + " MiB/s"
}

func earliest(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// truncate cuts s to at most n bytes, on a character boundary, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("...")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// HistoryURLs are the JobHistory server's pages of jobs, given its web UI at base;
// none without a server.
func HistoryURLs(base string, jobs []string) []string {
	if base == "" || len(jobs) == 0 {
		return nil
	}
	out := make([]string, 0, len(jobs))
	for _, id := range jobs {
		out = append(out, strings.TrimSuffix(base, "/")+"/jobhistory/job/"+id)
	}
	return out
}
