package benchmark

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// DFSIOResult is one "----- TestDFSIO ----- : <test>" block: what TestDFSIO appends
// to its -resFile and logs. Rates are MiB/s (TestDFSIO's "mb/sec" divides by 2^20).
type DFSIOResult struct {
	// Test is "write", "read", "append", "truncate" or a read variant such as
	// "read (random)".
	Test string
	// Date is TestDFSIO's "Date & time", as printed.
	Date          string
	Files         int64
	TotalMB       Milli
	Throughput    Milli
	AverageIORate Milli
	IORateStdDev  Milli
	ExecTime      time.Duration
}

// Bytes is TotalMB in bytes.
func (r DFSIOResult) Bytes() int64 { return mulDiv(int64(r.TotalMB), 1<<20, 1000) }

const dfsioHeader = "----- TestDFSIO ----- :"

// dfsioFields are the keys of a block. Releases align them differently (Hadoop 1
// right-aligns them one column to the left of Hadoop 2 and 3) and print the numbers
// differently (Hadoop 1 prints unrounded doubles), so keys are found anywhere in a
// line and lines without one are skipped.
var dfsioFields = map[string]func(*DFSIOResult, string) error{
	"Date & time": func(r *DFSIOResult, v string) error { r.Date = v; return nil },
	"Number of files": func(r *DFSIOResult, v string) (err error) {
		r.Files, err = strconv.ParseInt(v, 10, 64)
		return err
	},
	"Total MBytes processed": milliField(func(r *DFSIOResult) *Milli { return &r.TotalMB }),
	"Throughput mb/sec":      milliField(func(r *DFSIOResult) *Milli { return &r.Throughput }),
	"Average IO rate mb/sec": milliField(func(r *DFSIOResult) *Milli { return &r.AverageIORate }),
	"IO rate std deviation":  milliField(func(r *DFSIOResult) *Milli { return &r.IORateStdDev }),
	"Test exec time sec": func(r *DFSIOResult, v string) error {
		m, err := ParseMilli(v)
		r.ExecTime = time.Duration(m) * time.Millisecond
		return err
	},
}

func milliField(field func(*DFSIOResult) *Milli) func(*DFSIOResult, string) error {
	return func(r *DFSIOResult, v string) (err error) {
		*field(r), err = ParseMilli(v)
		return err
	}
}

// dfsioField finds a known key and its value in line, wherever a log prefix puts it:
// a log4j line ends its prefix in "TestDFSIO: ", a java.util.logging line in "INFO: ".
func dfsioField(line string) (key, value string, found bool) {
	for key := range dfsioFields {
		if i := strings.Index(line, key+":"); i >= 0 {
			return key, strings.TrimSpace(line[i+len(key)+1:]), true
		}
	}
	return "", "", false
}

// ParseDFSIO returns every result block in text, which is a -resFile, a client log
// whose lines carry log4j prefixes, or the lines the runner selected.
func ParseDFSIO(text string) ([]DFSIOResult, error) {
	var results []DFSIOResult
	var current *DFSIOResult
	for _, raw := range strings.Split(text, "\n") {
		line := strings.TrimRight(raw, " \r")
		if i := strings.Index(line, dfsioHeader); i >= 0 {
			results = append(results, DFSIOResult{Test: strings.TrimSpace(line[i+len(dfsioHeader):])})
			current = &results[len(results)-1]
			continue
		}
		if current == nil {
			continue
		}
		key, value, found := dfsioField(line)
		if !found {
			continue
		}
		set := dfsioFields[key]
		if err := set(current, value); err != nil {
			return nil, fmt.Errorf("TestDFSIO %s: %s: %w", current.Test, key, err)
		}
	}
	for _, r := range results {
		if r.Files == 0 || r.ExecTime == 0 {
			return nil, fmt.Errorf("TestDFSIO %s: incomplete result, no number of files or exec time", r.Test)
		}
	}
	return results, nil
}
