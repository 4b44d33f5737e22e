package benchmark

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/golden"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// teraGenChecksum is the CHECKSUM counter of the captured TeraGen run, in hexadecimal.
const teraGenChecksum = "c327a1c42c28"

// TestEvaluateGolden compares what each captured report says, in the API's terms,
// with testdata/results/<name>.yaml.
func TestEvaluateGolden(t *testing.T) {
	for _, tc := range []struct {
		name   string
		reason string
	}{
		{name: "teragen"},
		{name: "terasort"},
		{name: "teravalidate"},
		{name: "teravalidate-swapped", reason: v1alpha1.ReasonValidationFailed},
		{name: "teravalidate-unsorted", reason: v1alpha1.ReasonValidationFailed},
		{name: "dfsio-write"},
		{name: "dfsio-read"},
		{name: "wordcount"},
		{name: "grep"},
		{name: "wordcount-missing-input", reason: v1alpha1.ReasonInputPathNotFound},
		// The job's own failure names the path too.
		{name: "wordcount-unchecked-missing-input", reason: v1alpha1.ReasonInputPathNotFound},
		{name: "ingest"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := fixtureReport(t, tc.name)
			out := Evaluate(StageReports{
				Stage: v1alpha1.BenchmarkStage(r.Stage), Reports: []*Report{r},
				Scheme: SchemeCeph, TeraGenChecksum: teraGenChecksum,
			})
			if out.Reason != tc.reason {
				t.Errorf("reason %q, want %q (message %q)", out.Reason, tc.reason, out.Result.Message)
			}
			golden.Assert(t, filepath.Join("results", tc.name+".yaml"), golden.YAML(t, out))
		})
	}
}

func TestEvaluateTeraSortStages(t *testing.T) {
	gen := Evaluate(StageReports{Stage: v1alpha1.StageTeraGen, Reports: []*Report{fixtureReport(t, "teragen")}, Scheme: SchemeCeph})
	if got := gen.Result.Counters.TeraGenChecksum; got != teraGenChecksum {
		t.Errorf("TeraGen's checksum %q, want %q", got, teraGenChecksum)
	}
	// 100,000 rows of 100 bytes, whatever the byte counters say: TeraSort's "Bytes
	// Written" counts more in local mode, where the reducers share one JVM's file
	// system statistics.
	for _, name := range []string{"teragen", "terasort", "teravalidate"} {
		r := fixtureReport(t, name)
		out := Evaluate(StageReports{Stage: v1alpha1.BenchmarkStage(r.Stage), Reports: []*Report{r}, Scheme: SchemeCeph})
		if out.Result.Bytes != 10000000 {
			t.Errorf("%s: %d bytes, want 10000000", name, out.Result.Bytes)
		}
	}
}

func TestEvaluateChecksumMismatch(t *testing.T) {
	out := Evaluate(StageReports{
		Stage: v1alpha1.StageTeraValidate, Reports: []*Report{fixtureReport(t, "teravalidate")},
		Scheme: SchemeCeph, TeraGenChecksum: "c327a1c42c29",
	})
	if out.Reason != v1alpha1.ReasonValidationFailed || !strings.Contains(out.Result.Message, "differs from TeraGen's c327a1c42c29") {
		t.Errorf("reason %q, message %q", out.Reason, out.Result.Message)
	}
}

// The runner keeps the first report lines and counts them all; the count decides.
func TestEvaluateCountsErrorsTheRunnerLeftOut(t *testing.T) {
	r := fixtureReport(t, "teravalidate-unsorted")
	r.Validate = r.Validate[:2]
	r.ValidateLines = 5001
	out := Evaluate(StageReports{Stage: v1alpha1.StageTeraValidate, Reports: []*Report{r}, Scheme: SchemeCeph})
	if v := out.Result.TeraValidate; v == nil || v.Errors != 5000 {
		t.Errorf("TeraValidate result %+v, want 5000 errors", v)
	}
}

func TestEvaluateIngestClients(t *testing.T) {
	first := fixtureReport(t, "ingest")
	second := *first
	second.Puts = []string{"0 0 8388608 1795320377600 1795320391000", "1 1 0 1795320377610 1795320378000"}
	second.Exit = 1
	second.Error = "put: Input/output error"

	ok := Evaluate(StageReports{Stage: v1alpha1.StageIngest, Reports: []*Report{first}, Scheme: SchemeCeph})
	if ok.Reason != "" {
		t.Fatalf("one client: %q %q", ok.Reason, ok.Result.Message)
	}
	out := Evaluate(StageReports{Stage: v1alpha1.StageIngest, Reports: []*Report{first, &second}, Scheme: SchemeCeph})
	if out.Reason != v1alpha1.ReasonStageFailed || !strings.Contains(out.Result.Message, "1 of 5 puts failed") {
		t.Errorf("reason %q, message %q", out.Reason, out.Result.Message)
	}
	in := out.Result.Ingest
	if in.Clients != 2 || in.Puts != 5 || in.Failed != 1 || out.Result.Bytes != 4*8388608 {
		t.Errorf("ingest %+v, %d bytes", in, out.Result.Bytes)
	}
	// From the earliest put's start to the latest one's end, over both clients.
	if d := out.Result.Duration.Milliseconds(); d != 1795320391000-1795320377600 {
		t.Errorf("duration %d ms", d)
	}
}

func TestEvaluateWithoutReports(t *testing.T) {
	out := Evaluate(StageReports{Stage: v1alpha1.StageTeraGen})
	if out.Reason != v1alpha1.ReasonResultUnreadable || out.Result.Phase != v1alpha1.StagePhaseFailed {
		t.Errorf("%+v", out)
	}
}

func TestEvaluateDFSIOWithoutResult(t *testing.T) {
	r := fixtureReport(t, "dfsio-write")
	r.DFSIO = nil
	out := Evaluate(StageReports{Stage: v1alpha1.StageDFSIOWrite, Reports: []*Report{r}, Scheme: SchemeCeph})
	if out.Reason != v1alpha1.ReasonResultUnreadable {
		t.Errorf("reason %q, message %q", out.Reason, out.Result.Message)
	}
}

func TestFormatThroughput(t *testing.T) {
	for bps, want := range map[int64]string{0: "", 1 << 20: "1.00 MiB/s", 871_000_000: "830.65 MiB/s", 5243: "0.01 MiB/s"} {
		if got := FormatThroughput(bps); got != want {
			t.Errorf("FormatThroughput(%d) = %q, want %q", bps, got, want)
		}
	}
}

func TestTruncate(t *testing.T) {
	if got := truncate("Eingabepfad für Größe", 17); got != "Eingabepfad f..." {
		t.Errorf("truncate = %q", got)
	}
	if got := truncate("short", 15); got != "short" {
		t.Errorf("truncate = %q", got)
	}
}

func TestHistoryURLs(t *testing.T) {
	got := HistoryURLs("http://demo-jobhistory.ns.svc:19888/", []string{"job_1_0001", "job_1_0002"})
	want := []string{
		"http://demo-jobhistory.ns.svc:19888/jobhistory/job/job_1_0001",
		"http://demo-jobhistory.ns.svc:19888/jobhistory/job/job_1_0002",
	}
	if !slices.Equal(got, want) {
		t.Errorf("HistoryURLs = %v, want %v", got, want)
	}
	if got := HistoryURLs("", []string{"job_1_0001"}); got != nil {
		t.Errorf("without a JobHistory server: %v, want none", got)
	}
}
