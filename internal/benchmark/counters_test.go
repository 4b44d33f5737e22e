package benchmark

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseCountersFromClientLog(t *testing.T) {
	got := ParseCounters(fixture(t, "teragen.log"))
	want := []Counters{{
		"CEPH: Number of bytes read":            0,
		"CEPH: Number of bytes written":         10000000,
		"CEPH: Number of read operations":       0,
		"CEPH: Number of large read operations": 0,
		"CEPH: Number of write operations":      0,
		"FILE: Number of bytes read":            281759,
		"FILE: Number of bytes written":         747591,
		"FILE: Number of read operations":       0,
		"FILE: Number of large read operations": 0,
		"FILE: Number of write operations":      0,
		"Map input records":                     100000,
		"Map output records":                    100000,
		"Input split bytes":                     82,
		"Spilled Records":                       0,
		"Failed Shuffles":                       0,
		"Merged Map outputs":                    0,
		"GC time elapsed (ms)":                  0,
		"Total committed heap usage (bytes)":    398458880,
		"CHECKSUM":                              214574985129000,
		"Bytes Read":                            0,
		"Bytes Written":                         10000000,
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseCounters(teragen.log) =\n%v\nwant\n%v", got, want)
	}
	if read, written := got[0].FileSystemBytes(SchemeCeph); read != 0 || written != 10000000 {
		t.Errorf("CEPH bytes read %d, written %d; want 0 and 10000000", read, written)
	}
}

// The runner keeps a subset of the lines; what it keeps must read the same as the
// full log.
func TestParseCountersFromReportMatchesLog(t *testing.T) {
	for _, name := range []string{"teragen", "terasort", "teravalidate", "dfsio-write", "wordcount", "grep"} {
		t.Run(name, func(t *testing.T) {
			full := ParseCounters(fixture(t, name+".log"))
			selected := ParseCounters(strings.Join(fixtureReport(t, name).Counters, "\n"))
			if len(full) == 0 || len(full) != len(selected) {
				t.Fatalf("%d jobs in the log, %d in the report", len(full), len(selected))
			}
			for i := range selected {
				for k, v := range selected[i] {
					if full[i][k] != v {
						t.Errorf("job %d: %s=%d in the report, %d in the log", i, k, v, full[i][k])
					}
				}
			}
		})
	}
}

func TestParseCountersOfEveryJob(t *testing.T) {
	jobs := ParseCounters(fixture(t, "grep.log"))
	if len(jobs) != 2 {
		t.Fatalf("grep ran 2 jobs, parsed %d", len(jobs))
	}
	// The search reads the text; the sort reads the search's 6 matches.
	if jobs[0][CounterMapInputRecords] != 4000 || jobs[1][CounterMapInputRecords] != 6 {
		t.Errorf("map input records %d and %d, want 4000 and 6", jobs[0][CounterMapInputRecords], jobs[1][CounterMapInputRecords])
	}
}

func TestParseCountersWithoutJob(t *testing.T) {
	if got := ParseCounters(fixture(t, "wordcount-unchecked-missing-input.log")); len(got) != 0 {
		t.Errorf("a client that failed before submitting printed counters: %v", got)
	}
	// A job that failed before counting prints "Counters: 0".
	got := ParseCounters("2026-11-22 03:49:52,340 INFO mapreduce.Job: Counters: 0\n2026-11-22 03:49:52,340 INFO terasort.TeraSort: done\n")
	if len(got) != 1 || len(got[0]) != 0 {
		t.Errorf("Counters: 0 parsed as %v", got)
	}
}

// Failed and killed attempts appear in the client's counters only when there were
// some; the stage's counters sum both kinds over maps and reduces.
func TestJobCountersSumFailedAndKilledAttempts(t *testing.T) {
	log := "2026-11-24 20:15:06,011 INFO mapreduce.Job: Counters: 5\n" +
		"\tJob Counters \n" +
		"\t\tFailed map tasks=1\n" +
		"\t\tKilled map tasks=2\n" +
		"\t\tKilled reduce tasks=1\n" +
		"\t\tLaunched map tasks=5\n" +
		"\t\tLaunched reduce tasks=3\n"
	c := jobCounters(ParseCounters(log), SchemeCeph)
	if c.FailedTaskAttempts != 1 || c.KilledTaskAttempts != 3 || c.LaunchedMaps != 5 {
		t.Errorf("counters %+v: want 1 failed and 3 killed attempts of 5 maps", c)
	}
	clean := jobCounters(ParseCounters("x INFO mapreduce.Job: Counters: 1\n\tJob Counters \n\t\tLaunched map tasks=2\n"), SchemeCeph)
	if clean.FailedTaskAttempts != 0 || clean.KilledTaskAttempts != 0 {
		t.Errorf("a clean job: %+v", clean)
	}
}

func TestJobCountersLocality(t *testing.T) {
	log := "2026-11-24 20:15:06,011 INFO mapreduce.Job: Counters: 3\n" +
		"\tJob Counters \n" +
		"\t\tLaunched map tasks=8\n" +
		"\t\tData-local map tasks=5\n" +
		"\t\tRack-local map tasks=2\n"
	c := jobCounters(ParseCounters(log), SchemeCeph)
	if c.DataLocalMaps != 5 || c.RackLocalMaps != 2 || c.LaunchedMaps != 8 {
		t.Errorf("counters %+v: want 5 data-local and 2 rack-local of 8 maps", c)
	}
}
