package benchmark

import (
	"regexp"
	"strconv"
	"strings"
)

// Counters are one MapReduce job's counters, as the job client prints them when the
// job ends: a "Counters: N" line, then groups of tab-indented name=value lines.
// Values are keyed by counter name alone: the names the operator reads are unique
// across Hadoop's groups, and the runner keeps no group headers.
type Counters map[string]int64

// Counter names the operator reads.
const (
	CounterMapInputRecords     = "Map input records"
	CounterMapOutputRecords    = "Map output records"
	CounterReduceOutputRecords = "Reduce output records"
	CounterSpilledRecords      = "Spilled Records"
	CounterBytesRead           = "Bytes Read"
	CounterBytesWritten        = "Bytes Written"
	CounterLaunchedMaps        = "Launched map tasks"
	CounterLaunchedReduces     = "Launched reduce tasks"
	CounterDataLocalMaps       = "Data-local map tasks"
	CounterRackLocalMaps       = "Rack-local map tasks"
	// Failed and killed task attempts: MapReduce prints them only when there were
	// some. An attempt killed with its NodeManager counts as killed.
	CounterFailedMaps    = "Failed map tasks"
	CounterFailedReduces = "Failed reduce tasks"
	CounterKilledMaps    = "Killed map tasks"
	CounterKilledReduces = "Killed reduce tasks"
	CounterCPUMillis     = "CPU time spent (ms)"
	CounterGCMillis      = "GC time elapsed (ms)"
	// CounterTeraGenChecksum is TeraGen's sum of the rows' CRC32s, the number
	// TeraValidate prints in hexadecimal as its checksum.
	CounterTeraGenChecksum = "CHECKSUM"
)

// SchemeCeph is the counter prefix of the connector's file system; the others, such
// as FILE for spills and shuffle on local disks, are not the data's.
const SchemeCeph = "CEPH"

var (
	countersHeader = regexp.MustCompile(`Counters: \d+$`)
	counterLine    = regexp.MustCompile(`^(\S.*)=(-?\d+)$`)
)

// ParseCounters returns the counters of every job in text, in the order the jobs
// ran. text is a job client's log, or the counter lines the runner selected from one.
// A job that failed before it counted anything has empty Counters.
func ParseCounters(text string) []Counters {
	var jobs []Counters
	var current Counters
	for _, raw := range strings.Split(text, "\n") {
		line := strings.TrimRight(raw, " \r")
		if countersHeader.MatchString(line) {
			current = Counters{}
			jobs = append(jobs, current)
			continue
		}
		if current == nil {
			continue
		}
		if m := counterLine.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			if v, err := strconv.ParseInt(m[2], 10, 64); err == nil {
				current[m[1]] = v
				continue
			}
		}
		// Group headers are indented; anything else ends the block.
		if !strings.HasPrefix(line, "\t") && !strings.HasPrefix(line, " ") {
			current = nil
		}
	}
	return jobs
}

// FileSystemBytes are "<scheme>: Number of bytes read" and "... written".
func (c Counters) FileSystemBytes(scheme string) (read, written int64) {
	return c[scheme+": Number of bytes read"], c[scheme+": Number of bytes written"]
}
