package dashboards

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	promclient "github.com/prometheus/client_golang/prometheus"
)

// DescribedMetrics returns, by name, the label names of every metric that a collector
// such as a registry describes: what a program registered, including the vectors that
// have no series yet, which a Gather would leave out. A metric that may be a histogram
// or a summary counts under the names PromQL selects its samples by too (x_bucket,
// x_sum, x_count): a description does not tell a histogram from a gauge.
func DescribedMetrics(c promclient.Collector) (map[string][]string, error) {
	descs := make(chan *promclient.Desc)
	go func() {
		c.Describe(descs)
		close(descs)
	}()
	out := map[string][]string{}
	var errs []error
	for d := range descs {
		name, labels, err := parseDesc(d)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, n := range []string{name, name + "_bucket", name + "_sum", name + "_count"} {
			out[n] = labels
		}
		// A histogram's and a summary's buckets and quantiles are labelled le and quantile.
		out[name+"_bucket"] = append(slices.Clone(labels), "le")
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("reading the descriptions: %v", errs)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the collector describes no metric")
	}
	return out, nil
}

// descString is how client_golang prints a description, the only way it shows a
// description's name and labels outside its own package.
var descString = regexp.MustCompile(`^Desc\{fqName: "([^"]*)", help: "(?:[^"\\]|\\.)*", unit: "(?:[^"\\]|\\.)*", constLabels: \{([^}]*)\}, variableLabels: \{([^}]*)\}\}$`)

func parseDesc(d *promclient.Desc) (string, []string, error) {
	if err := d.Err(); err != nil {
		return "", nil, err
	}
	m := descString.FindStringSubmatch(d.String())
	if m == nil {
		return "", nil, fmt.Errorf("a description in an unknown format: %s", d)
	}
	var labels []string
	for _, pair := range strings.Split(m[2], ",") {
		if name, _, ok := strings.Cut(pair, "="); ok {
			labels = append(labels, name)
		}
	}
	for _, l := range strings.Split(m[3], ",") {
		// A label with a constraint prints as c(name).
		if l = strings.TrimSuffix(strings.TrimPrefix(l, "c("), ")"); l != "" {
			labels = append(labels, l)
		}
	}
	slices.Sort(labels)
	return m[1], labels, nil
}

// Names returns the sorted names of metrics, for Missing.
func Names(metrics map[string][]string) []string {
	names := make([]string, 0, len(metrics))
	for n := range metrics {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
