package benchmark

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ReportVersion is the version of Report this operator reads.
const ReportVersion = 1

// Report is what the runner writes to a stage pod's termination message: one line
// of JSON of at most MaxReportBytes. It carries the tools' own output lines, selected
// but never interpreted by the runner, so that this package's parsers are the only
// reading of Hadoop's output. docs/benchmarking.md documents each field for image
// builders.
type Report struct {
	// Version is ReportVersion; a report of another version is refused rather than
	// misread.
	Version int `json:"v"`
	// Stage is the runner's --stage.
	Stage string `json:"stage"`
	// Exit is the stage's exit status: the tool's, ExitInputMissing, or 1 when a put
	// failed or the TeraValidate report could not be read.
	Exit int `json:"exit"`
	// Start and End bound the timed part of the stage, in milliseconds since the
	// Unix epoch. An ingest client's data generation is not in it.
	Start int64 `json:"start"`
	End   int64 `json:"end"`
	// Jobs are the MapReduce job ids from the client's "Running job:" lines.
	Jobs []string `json:"jobs,omitempty"`
	// Counters are the "Counters: N" lines and the selected "name=value" lines that
	// follow them, without their indentation.
	Counters []string `json:"counters,omitempty"`
	// DFSIO is TestDFSIO's -resFile, blank lines and indentation removed.
	DFSIO []string `json:"dfsio,omitempty"`
	// Validate are the first lines of TeraValidate's report and ValidateLines the
	// number of lines it has in all.
	Validate      []string `json:"validate,omitempty"`
	ValidateLines int      `json:"validateLines,omitempty"`
	// Puts are the ingest client's puts, one line each (see Put).
	Puts []string `json:"puts,omitempty"`
	// Missing is the --require-path that does not exist.
	Missing string `json:"missing,omitempty"`
	// Error is the last line of the tool's output that looks like an error, when the
	// stage failed.
	Error string `json:"error,omitempty"`
	// Truncated says the runner left out validate lines or counters to stay within
	// the termination message's limit.
	Truncated bool `json:"truncated,omitempty"`
}

// ErrNoReport is returned for an empty termination message: the runner did not get
// as far as writing one, for example because the pod was killed.
var ErrNoReport = errors.New("no report in the termination message")

// DecodeReport reads a termination message.
func DecodeReport(message string) (*Report, error) {
	message = strings.TrimSpace(message)
	if message == "" {
		return nil, ErrNoReport
	}
	var r Report
	if err := json.Unmarshal([]byte(message), &r); err != nil {
		return nil, fmt.Errorf("termination message is not a runner report: %w", err)
	}
	if r.Version != ReportVersion {
		return nil, fmt.Errorf("runner report version %d, this operator reads version %d: the image's run-benchmark and the operator do not match", r.Version, ReportVersion)
	}
	if r.End < r.Start {
		return nil, fmt.Errorf("runner report ends (%d) before it starts (%d)", r.End, r.Start)
	}
	return &r, nil
}

// Duration of the timed part of the stage.
func (r *Report) Duration() time.Duration {
	return time.Duration(r.End-r.Start) * time.Millisecond
}

// StartTime and EndTime are Start and End as times.
func (r *Report) StartTime() time.Time { return time.UnixMilli(r.Start).UTC() }
func (r *Report) EndTime() time.Time   { return time.UnixMilli(r.End).UTC() }
