package benchmark

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// Every report the runner wrote in the captures decodes and fits the termination
// message.
func TestDecodeReportFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.termination-log.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no reports in testdata: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".termination-log.json")
		raw := fixture(t, filepath.Base(f))
		if len(raw) > MaxReportBytes {
			t.Errorf("%s: %d bytes, over the termination message's %d", name, len(raw), MaxReportBytes)
		}
		r := fixtureReport(t, name)
		if r.Stage == "" || r.Start == 0 || r.Duration() <= 0 {
			t.Errorf("%s: stage %q, start %d, duration %v", name, r.Stage, r.Start, r.Duration())
		}
	}
}

func TestDecodeReport(t *testing.T) {
	r, err := DecodeReport(fixture(t, "wordcount-missing-input.termination-log.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := Report{Version: 1, Stage: "wordcount", Exit: ExitInputMissing, Start: 1795320359734, End: 1795320365308, Missing: "/benchmark-fixtures/no-such-input"}
	if !reflect.DeepEqual(*r, want) {
		t.Errorf("got %+v\nwant %+v", *r, want)
	}
	if d := r.Duration(); d != 5574*time.Millisecond {
		t.Errorf("Duration() = %v", d)
	}
	if s := r.StartTime(); !s.Equal(time.UnixMilli(1795320359734)) || s.Location() != time.UTC {
		t.Errorf("StartTime() = %v", s)
	}
}

func TestDecodeReportRefuses(t *testing.T) {
	if _, err := DecodeReport(" \n"); !errors.Is(err, ErrNoReport) {
		t.Errorf("empty message: %v", err)
	}
	for name, message := range map[string]string{
		// What Kubernetes puts there from the log when the runner died first
		// (terminationMessagePolicy FallbackToLogsOnError).
		"a log tail":      "java.lang.OutOfMemoryError: Java heap space\n\tat org.apache.hadoop...",
		"another version": `{"v":2,"stage":"teragen","exit":0,"start":1,"end":2}`,
		"no version":      `{"stage":"teragen","exit":0,"start":1,"end":2}`,
		"ends first":      `{"v":1,"stage":"teragen","exit":0,"start":2,"end":1}`,
	} {
		if r, err := DecodeReport(message); err == nil {
			t.Errorf("%s: decoded as %+v", name, r)
		}
	}
}
