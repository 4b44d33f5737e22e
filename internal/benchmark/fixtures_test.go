package benchmark

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The fixtures in testdata/ are real output of Hadoop 3.4.2 (and of TestDFSIO from
// Hadoop 2.10.2 and 1.2.1), made by hack/capture-benchmark-fixtures.sh as
// testdata/README.md describes. <name>.log is what the runner and the tool printed,
// <name>.termination-log.json the report the runner wrote.

func fixture(t *testing.T, name string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// fixtureLines are the lines of a fixture without the final newline's empty line.
func fixtureLines(t *testing.T, name string) []string {
	t.Helper()
	return strings.Split(strings.TrimSuffix(fixture(t, name), "\n"), "\n")
}

func fixtureReport(t *testing.T, name string) *Report {
	t.Helper()
	r, err := DecodeReport(fixture(t, name+".termination-log.json"))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return r
}
