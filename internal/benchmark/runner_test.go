package benchmark

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// fakeHadoop stands in for the image's `hadoop` command: `hadoop jar` prints
// $FAKE_OUTPUT and exits with $FAKE_EXIT, `hadoop fs -cat` prints $FAKE_REPORT,
// `-test -e` fails for paths with "missing" in them and `-put` fails for
// destinations ending in -p1 when $FAKE_FAIL_PUT is set.
const fakeHadoop = `#!/usr/bin/env bash
case "$1 $2" in
  "jar "*) cat "$FAKE_OUTPUT"; exit "${FAKE_EXIT:-0}" ;;
  "fs -cat") cat "$FAKE_REPORT" ;;
  "fs -test") [[ "$4" != *missing* ]] ;;
  "fs -mkdir") exit 0 ;;
  "fs -put")
    if [ -n "${FAKE_FAIL_PUT:-}" ] && [[ "$5" == *-p1 ]]; then echo "put: Input/output error" >&2; exit 1; fi
    [ "$(stat -c %s "$4")" = "$FAKE_SIZE" ] ;;
  *) echo "fake hadoop: $*" >&2; exit 1 ;;
esac
`

// runRunner runs runner/run-benchmark with args and env, returning its exit status
// and the report it wrote.
func runRunner(t *testing.T, env map[string]string, args ...string) (int, string) {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "hadoop"), []byte(fakeHadoop), 0o755); err != nil {
		t.Fatal(err)
	}
	termination := filepath.Join(dir, "termination-log")
	cmd := exec.Command(filepath.Join("runner", "run-benchmark"), args...)
	cmd.Env = append(os.Environ(),
		"PATH="+bin+":"+os.Getenv("PATH"),
		"TMPDIR="+dir,
		"BENCHMARK_TERMINATION_LOG="+termination,
	)
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	status := 0
	if exit := (*exec.ExitError)(nil); errors.As(err, &exit) {
		status = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("run-benchmark: %v\n%s", err, out)
	}
	report, _ := os.ReadFile(termination)
	return status, string(report)
}

func decoded(t *testing.T, report string) *Report {
	t.Helper()
	if len(report) > MaxReportBytes {
		t.Errorf("report of %d bytes, over %d", len(report), MaxReportBytes)
	}
	r, err := DecodeReport(report)
	if err != nil {
		t.Fatalf("%v\n%s", err, report)
	}
	return r
}

// The runner's selection from a real log reads as the captured report does.
func TestRunnerSelectsWhatTheParsersRead(t *testing.T) {
	status, report := runRunner(t, map[string]string{
		"FAKE_OUTPUT": filepath.Join("testdata", "teravalidate-swapped.log"),
		"FAKE_REPORT": filepath.Join("testdata", "teravalidate-swapped-report.txt"),
	}, "exec", "--stage", "teravalidate", "--validate-report", "/out/report", "--", "hadoop", "jar", "examples.jar", "teravalidate")
	if status != 0 {
		t.Fatalf("exit status %d", status)
	}
	got, want := decoded(t, report), fixtureReport(t, "teravalidate-swapped")
	if strings.Join(got.Counters, "\n") != strings.Join(want.Counters, "\n") ||
		strings.Join(got.Validate, "\n") != strings.Join(want.Validate, "\n") ||
		strings.Join(got.Jobs, ",") != strings.Join(want.Jobs, ",") || got.ValidateLines != want.ValidateLines {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
}

// A TeraValidate report of thousands of errors and many counters still fits: the
// runner keeps fewer report lines, counts them all, and says so.
func TestRunnerKeepsReportsWithinTheLimit(t *testing.T) {
	dir := t.TempDir()
	var report strings.Builder
	report.WriteString("checksum\tc327a1c42c28\n")
	for range 5000 {
		report.WriteString("error\tmisorder in part-m-00000 between " + strings.Repeat("6a 59 45 1b e8 ", 30) + "\n")
	}
	reportFile := filepath.Join(dir, "report.txt")
	outputFile := filepath.Join(dir, "output.log")
	// Eight jobs with file system counters of long scheme names: more counter lines
	// than the runner keeps.
	var log strings.Builder
	for job := range 8 {
		log.WriteString("2026-11-22 03:57:16,046 INFO mapreduce.Job: Running job: job_local1081552546_000" + strconv.Itoa(job) + "\n")
		log.WriteString("2026-11-22 03:57:25,011 INFO mapreduce.Job: Counters: 35\n\tFile System Counters\n")
		for _, scheme := range []string{"CEPH", "FILE", "HDFS", "S3A", "ABFS", "GS", "VIEWFS", "WEBHDFS"} {
			log.WriteString("\t\t" + scheme + ": Number of bytes read=109820112345\n")
		}
	}
	if err := os.WriteFile(reportFile, []byte(report.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outputFile, []byte(log.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	status, raw := runRunner(t, map[string]string{"FAKE_OUTPUT": outputFile, "FAKE_REPORT": reportFile},
		"exec", "--stage", "teravalidate", "--validate-report", "/out/report", "--", "hadoop", "jar", "examples.jar", "teravalidate")
	r := decoded(t, raw)
	if status != 0 || !r.Truncated || r.ValidateLines != 5001 || len(r.Validate) == 0 || r.Validate[0] != "checksum\tc327a1c42c28" {
		t.Fatalf("exit status %d, report %+v", status, r)
	}
	out := Evaluate(StageReports{Stage: v1alpha1.StageTeraValidate, Reports: []*Report{r}, Scheme: SchemeCeph})
	if out.Reason != v1alpha1.ReasonValidationFailed || out.Result.TeraValidate.Errors != 5000 {
		t.Errorf("reason %q, result %+v", out.Reason, out.Result.TeraValidate)
	}
}

func TestRunnerReportsAMissingInput(t *testing.T) {
	status, raw := runRunner(t, map[string]string{"FAKE_OUTPUT": "/dev/null"},
		"exec", "--stage", "wordcount", "--require-path", "/datasets/missing", "--", "hadoop", "jar", "examples.jar", "wordcount")
	r := decoded(t, raw)
	if status != ExitInputMissing || r.Exit != ExitInputMissing || r.Missing != "/datasets/missing" {
		t.Errorf("exit status %d, report %+v", status, r)
	}
}

func TestRunnerReportsAFailedTool(t *testing.T) {
	status, raw := runRunner(t, map[string]string{
		"FAKE_OUTPUT": filepath.Join("testdata", "wordcount-unchecked-missing-input.log"),
		"FAKE_EXIT":   "255",
	}, "exec", "--stage", "wordcount", "--", "hadoop", "jar", "examples.jar", "wordcount")
	r := decoded(t, raw)
	if status != 255 || r.Exit != 255 || !strings.Contains(r.Error, "Input path does not exist") {
		t.Errorf("exit status %d, report %+v", status, r)
	}
}

func TestRunnerIngest(t *testing.T) {
	for _, tc := range []struct {
		name   string
		fail   string
		status int
		reason string
	}{
		{name: "every put succeeds", status: 0},
		{name: "one put fails", fail: "1", status: 1, reason: v1alpha1.ReasonStageFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, raw := runRunner(t, map[string]string{"FAKE_SIZE": "65536", "FAKE_FAIL_PUT": tc.fail, "JOB_COMPLETION_INDEX": "2"},
				"ingest", "--stage", "ingest", "--puts", "3", "--size", "65536", "--dest", "/benchmarks/ingest")
			r := decoded(t, raw)
			if status != tc.status || len(r.Puts) != 3 {
				t.Fatalf("exit status %d, report %+v", status, r)
			}
			out := Evaluate(StageReports{Stage: v1alpha1.StageIngest, Reports: []*Report{r}, Scheme: SchemeCeph})
			if out.Reason != tc.reason {
				t.Errorf("reason %q, message %q", out.Reason, out.Result.Message)
			}
		})
	}
}

func TestRunnerRefusesUnknownArguments(t *testing.T) {
	for _, args := range [][]string{{"bogus"}, {"exec", "--stage", "teragen"}, {"exec", "--frobnicate", "--", "true"}, {"ingest", "--stage", "ingest"}} {
		if status, _ := runRunner(t, nil, args...); status != ExitUsage {
			t.Errorf("%v: exit status %d, want %d", args, status, ExitUsage)
		}
	}
}
