package jobhistory

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A TeraSort's history as the ApplicationMaster wrote it on the local cluster, in
// Avro's binary encoding (Hadoop 3's default): two maps, each data-local on the
// NodeManager TeraScheduler chose for its split.
func TestMapAttemptsBinary(t *testing.T) {
	got := mapAttemptsOf(t, "testdata/terasort-binary.jhist")
	nm := func(i int) string {
		return "rook-rep-nodemanager-" + string(rune('0'+i)) + ".rook-rep-nodemanager.e2e-724vg.svc.cluster.local"
	}
	want := []MapAttempt{
		{
			Task: "task_1795678301851_0002_m_000000", Attempt: "attempt_1795678301851_0002_m_000000_0",
			SplitLocations: []string{nm(0)}, Locality: "NODE_LOCAL", Host: nm(0), Rack: "/default-rack", Status: "SUCCEEDED",
		},
		{
			Task: "task_1795678301851_0002_m_000001", Attempt: "attempt_1795678301851_0002_m_000001_0",
			SplitLocations: []string{nm(1)}, Locality: "NODE_LOCAL", Host: nm(1), Rack: "/default-rack", Status: "SUCCEEDED",
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("MapAttempts() mismatch (-want +got):\n%s", diff)
	}
}

// The JSON encoding (mapreduce.jobhistory.jhist.format=json), with a killed attempt and
// its retry, a reduce task whose split is none, and unions written both ways.
func TestMapAttemptsJSON(t *testing.T) {
	got := mapAttemptsOf(t, "testdata/terasort.jhist")
	nm0 := "rook-rep-nodemanager-0.rook-rep-nodemanager.e2e.svc.cluster.local"
	nm1 := "rook-rep-nodemanager-1.rook-rep-nodemanager.e2e.svc.cluster.local"
	want := []MapAttempt{
		{
			Task: "task_1764140000000_0002_m_000000", Attempt: "attempt_1764140000000_0002_m_000000_0",
			SplitLocations: []string{nm1, "n2-hco-test", "vm"}, Locality: "NODE_LOCAL",
			Host: nm1, Rack: "/default-rack", Status: "SUCCEEDED",
		},
		{
			Task: "task_1764140000000_0002_m_000001", Attempt: "attempt_1764140000000_0002_m_000001_0",
			SplitLocations: []string{"n3", "vm"}, Locality: "OFF_SWITCH",
			Host: nm0, Rack: "/default-rack", Status: "KILLED",
		},
		{
			Task: "task_1764140000000_0002_m_000001", Attempt: "attempt_1764140000000_0002_m_000001_1",
			SplitLocations: []string{"n3", "vm"}, Locality: "RACK_LOCAL",
			Host: nm1, Rack: "/default-rack", Status: "SUCCEEDED",
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("MapAttempts() mismatch (-want +got):\n%s", diff)
	}
}

// The killed map of the JSON fixture, with its reason; the binary one lost none.
func TestLostAttempts(t *testing.T) {
	for file, want := range map[string][]LostAttempt{
		"testdata/terasort.jhist": {{
			Attempt: "attempt_1764140000000_0002_m_000001_0", TaskType: "MAP",
			Host:   "rook-rep-nodemanager-0.rook-rep-nodemanager.e2e.svc.cluster.local",
			Status: "KILLED", Error: "Container released on a *lost* node",
		}},
		"testdata/terasort-binary.jhist": nil,
	} {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		got, err := LostAttempts(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: LostAttempts() mismatch (-want +got):\n%s", file, diff)
		}
	}
}

func TestMapAttemptsRefuses(t *testing.T) {
	for name, text := range map[string]string{
		"empty":                       "",
		"unknown format":              "Avro-Xml\n{}\n",
		"binary without a schema":     "Avro-Binary\n",
		"binary with an unknown type": "Avro-Binary\n\"Event\"\n\x00",
		"binary cut short":            "Avro-Binary\n" + `{"type":"record","name":"E","fields":[{"name":"s","type":"string"}]}` + "\n\x10ab",
		"no schema":                   "Avro-Json\n",
		"broken event":                "Avro-Json\n{}\n{\"type\":\"TASK_STARTED\",\n",
		"two records": "Avro-Json\n{}\n" +
			`{"type":"TASK_STARTED","event":{"a":{"taskid":"t"},"b":{"taskid":"u"}}}` + "\n",
		"locality neither string nor union": "Avro-Json\n{}\n" +
			`{"type":"MAP_ATTEMPT_STARTED","event":{"x":{"attemptId":"a","locality":7}}}` + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := MapAttempts(strings.NewReader(text)); err == nil {
				t.Error("MapAttempts() accepted it")
			}
		})
	}
}

// mapAttemptsOf reads the map attempts of a history file.
func mapAttemptsOf(t *testing.T, file string) []MapAttempt {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	got, err := MapAttempts(f)
	if err != nil {
		t.Fatal(err)
	}
	return got
}
