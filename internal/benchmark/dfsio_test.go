package benchmark

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

var (
	dfsioWrite = DFSIOResult{
		Test: "write", Date: "Sun Nov 22 04:05:08 UTC 2026", Files: 2, TotalMB: 8000,
		Throughput: 42330, AverageIORate: 42340, IORateStdDev: 670, ExecTime: 3560 * time.Millisecond,
	}
	dfsioRead = DFSIOResult{
		Test: "read", Date: "Sun Nov 22 04:05:15 UTC 2026", Files: 2, TotalMB: 8000,
		Throughput: 40820, AverageIORate: 50000, IORateStdDev: 21430, ExecTime: 3200 * time.Millisecond,
	}
	dfsioWriteHadoop2 = DFSIOResult{
		Test: "write", Date: "Sun Nov 22 04:06:39 UTC 2026", Files: 2, TotalMB: 8000,
		Throughput: 296300, AverageIORate: 333330, IORateStdDev: 111110, ExecTime: 2720 * time.Millisecond,
	}
	// Hadoop 1 prints doubles unrounded: 49.079754601226995 and so on.
	dfsioWriteHadoop1 = DFSIOResult{
		Test: "write", Date: "Sun Nov 22 04:06:46 UTC 2026", Files: 2, TotalMB: 8000,
		Throughput: 49080, AverageIORate: 63178, IORateStdDev: 29845, ExecTime: 3561 * time.Millisecond,
	}
)

func TestParseDFSIO(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		want    []DFSIOResult
	}{
		{fixture: "dfsio-write-result.txt", want: []DFSIOResult{dfsioWrite}},
		{fixture: "dfsio-read-result.txt", want: []DFSIOResult{dfsioRead}},
		// The client's log has the block behind log4j prefixes, after lines such as
		// "Number of bytes processed = 4194304" of the tasks.
		{fixture: "dfsio-write.log", want: []DFSIOResult{dfsioWrite}},
		{fixture: "dfsio-read.log", want: []DFSIOResult{dfsioRead}},
		{fixture: "dfsio-write-hadoop-2.10.2-result.txt", want: []DFSIOResult{dfsioWriteHadoop2}},
		{fixture: "dfsio-write-hadoop-2.10.2.log", want: []DFSIOResult{dfsioWriteHadoop2}},
		{fixture: "dfsio-write-hadoop-1.2.1-result.txt", want: []DFSIOResult{dfsioWriteHadoop1}},
		// Hadoop 1 logged through java.util.logging: "INFO: " before each line.
		{fixture: "dfsio-write-hadoop-1.2.1.log", want: []DFSIOResult{dfsioWriteHadoop1}},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			got, err := ParseDFSIO(fixture(t, tc.fixture))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
}

// TestDFSIO appends every test to its -resFile.
func TestParseDFSIOAppendedResults(t *testing.T) {
	got, err := ParseDFSIO(fixture(t, "dfsio-write-result.txt") + fixture(t, "dfsio-read-result.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []DFSIOResult{dfsioWrite, dfsioRead}; !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
	if b := got[0].Bytes(); b != 8<<20 {
		t.Errorf("Bytes() = %d, want %d", b, 8<<20)
	}
}

var throughput = regexp.MustCompile(`(Throughput mb/sec: ).*`)

func TestParseDFSIORefusesBrokenBlocks(t *testing.T) {
	whole := fixture(t, "dfsio-write-result.txt")
	beforeExecTime, _, _ := strings.Cut(whole, "     Test exec time")
	for name, text := range map[string]string{
		"cut after the rates":      beforeExecTime,
		"a rate that is no number": throughput.ReplaceAllString(whole, "${1}∞"),
		"a negative rate":          throughput.ReplaceAllString(whole, "${1}-1.5"),
	} {
		if got, err := ParseDFSIO(text); err == nil {
			t.Errorf("%s: parsed as %+v", name, got)
		}
	}
	if got, err := ParseDFSIO(fixture(t, "teragen.log")); err != nil || len(got) != 0 {
		t.Errorf("a log without TestDFSIO: %v, %v", got, err)
	}
}
