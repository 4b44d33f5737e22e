package benchmark

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Put is one `hadoop fs -put` of an ingest client, as the runner timed it. The runner
// reports each as "<index> <exit status> <bytes> <start ms> <end ms>", with times in
// milliseconds since the Unix epoch: short enough for 64 puts in one termination
// message.
type Put struct {
	Index      int
	ExitStatus int
	Bytes      int64
	Start, End time.Time
}

// Duration of the put.
func (p Put) Duration() time.Duration { return p.End.Sub(p.Start) }

// ParsePuts reads the runner's put lines.
func ParsePuts(lines []string) ([]Put, error) {
	puts := make([]Put, 0, len(lines))
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) != 5 {
			return nil, fmt.Errorf("put %q: want 5 fields: index, exit status, bytes, start and end in ms", line)
		}
		var n [5]int64
		for i, s := range f {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil || v < 0 {
				return nil, fmt.Errorf("put %q: field %d is not a non-negative integer", line, i+1)
			}
			n[i] = v
		}
		if n[4] < n[3] {
			return nil, fmt.Errorf("put %q: ends before it starts", line)
		}
		puts = append(puts, Put{
			Index: int(n[0]), ExitStatus: int(n[1]), Bytes: n[2],
			Start: time.UnixMilli(n[3]).UTC(), End: time.UnixMilli(n[4]).UTC(),
		})
	}
	return puts, nil
}
