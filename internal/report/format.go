package report

import (
	"fmt"
	"math"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
)

// ratio is a over b as status.baseline writes it, two decimals rounded half up from
// thousandths, with an x: "1.03x". The arithmetic is the operator's, in integers, so
// that a ratio here is the one kubectl get shows for the same pair of runs. Empty
// when either is not positive: there is nothing to compare.
func ratio(a, b int64) string {
	if a <= 0 || b <= 0 {
		return ""
	}
	// a*1000/b rounded half up without overflowing for byte rates up to petabytes.
	q, r := a/b, a%b
	return benchmark.Milli(q*1000+(r*1000+b/2)/b).String() + "x"
}

// secondsText is a duration in seconds with one decimal, the unit of the charts.
func secondsText(s float64) string {
	return tenths(s) + "s"
}

// tenths is seconds with one decimal, rounded half up from the milliseconds the
// durations have, as the operator rounds: binary floating point would print 21.950 s
// as 21.9.
func tenths(s float64) string {
	t := (int64(math.Round(s*1000)) + 50) / 100
	return fmt.Sprintf("%d.%d", t/10, t%10)
}

// spreadText is the range of a result's repetitions, such as "98.0–104.3s", or "" with
// no repetition to take it from.
func spreadText(r Result) string {
	if len(r.Repetitions) == 0 {
		return ""
	}
	return tenths(r.MinSeconds) + "–" + tenths(r.MaxSeconds) + "s"
}

// repetitionsText lists a result's repetitions, such as "98.0, 101.2, 104.3".
func repetitionsText(r Result) string {
	var out string
	for i, rep := range r.Repetitions {
		if i > 0 {
			out += ", "
		}
		out += tenths(rep.Seconds)
	}
	return out
}

// mebibytesPerSecond is a throughput in the unit of benchmark.FormatThroughput.
func mebibytesPerSecond(bytesPerSecond int64) float64 {
	return float64(bytesPerSecond) / (1 << 20)
}
