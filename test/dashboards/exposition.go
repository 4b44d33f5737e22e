package dashboards

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
)

// ExposedMetrics returns the sorted, distinct metric names of the samples in a
// Prometheus text exposition, such as the body of a Hadoop daemon's /prom: the name
// that starts each sample line, without its labels. Comment lines (# HELP, # TYPE)
// and blank lines are skipped; any other line that does not start with a metric name
// is an error, so that an error page scraped in place of metrics is not taken for an
// endpoint without them. A histogram's samples count under their own names (x_bucket,
// x_sum, x_count), which are the names PromQL selects.
func ExposedMetrics(r io.Reader) ([]string, error) {
	var names []string
	sc := bufio.NewScanner(r)
	// Help texts and label sets can be long; Scanner's default stops at 64 KiB.
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		end := strings.IndexAny(text, "{ \t")
		if end < 0 {
			return nil, fmt.Errorf("line %d: %q is a name without a value", line, text)
		}
		name := text[:end]
		if !validMetricName(name) {
			return nil, fmt.Errorf("line %d: %q does not start with a metric name", line, truncate(text))
		}
		names = append(names, name)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

func validMetricName(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentChar(s[i]) {
			return false
		}
	}
	return true
}

func truncate(s string) string {
	const limit = 80
	if len(s) <= limit {
		return s
	}
	return s[:limit] + "..."
}
