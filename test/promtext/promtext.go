// Package promtext reads Prometheus text expositions, such as a Hadoop daemon's /prom
// and the operator's /metrics, with Prometheus's own parser (expfmt). The dashboards'
// tests and the e2e suite read a scrape as Prometheus would: what Prometheus would
// refuse (an error page scraped in place of metrics, a second TYPE line for a name) is
// an error here too, and label values are unescaped, not matched as text.
package promtext

import (
	"fmt"
	"io"
	"slices"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Exposition is a parsed scrape: its metric families by name.
type Exposition map[string]*dto.MetricFamily

// Parse parses a Prometheus text exposition.
func Parse(r io.Reader) (Exposition, error) {
	parser := expfmt.NewTextParser(model.LegacyValidation)
	families, err := parser.TextToMetricFamilies(r)
	if err != nil {
		return nil, fmt.Errorf("not a Prometheus text exposition: %w", err)
	}
	return families, nil
}

// Names returns the sorted names of the exposition's samples, which are the names
// PromQL selects: a histogram's x_bucket, x_sum and x_count, a summary's x, x_sum and
// x_count. A family announced by HELP or TYPE lines without samples has none.
func (e Exposition) Names() []string {
	var names []string
	for name, family := range e {
		if len(family.GetMetric()) == 0 {
			continue
		}
		switch family.GetType() {
		case dto.MetricType_HISTOGRAM, dto.MetricType_GAUGE_HISTOGRAM:
			names = append(names, name+"_bucket", name+"_sum", name+"_count")
		case dto.MetricType_SUMMARY:
			names = append(names, name, name+"_sum", name+"_count")
		default:
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// Value returns the value of the first sample of a counter, gauge or untyped metric
// whose labels include labels (nil: any sample of it), and whether there is one.
func (e Exposition) Value(metric string, labels map[string]string) (float64, bool) {
	for _, m := range e[metric].GetMetric() {
		if !hasLabels(m, labels) {
			continue
		}
		switch {
		case m.Counter != nil:
			return m.GetCounter().GetValue(), true
		case m.Gauge != nil:
			return m.GetGauge().GetValue(), true
		case m.Untyped != nil:
			return m.GetUntyped().GetValue(), true
		}
	}
	return 0, false
}

// Sum adds the values of every counter, gauge or untyped sample of metric whose labels
// include labels (nil: every sample of it): a controller's reconciles across results,
// or every work queue's depth.
func (e Exposition) Sum(metric string, labels map[string]string) float64 {
	var total float64
	for _, m := range e[metric].GetMetric() {
		if hasLabels(m, labels) {
			total += m.GetCounter().GetValue() + m.GetGauge().GetValue() + m.GetUntyped().GetValue()
		}
	}
	return total
}

// hasLabels tells whether m has every label of want, with the value want gives.
func hasLabels(m *dto.Metric, want map[string]string) bool {
	matched := 0
	for _, l := range m.GetLabel() {
		if v, ok := want[l.GetName()]; ok {
			if v != l.GetValue() {
				return false
			}
			matched++
		}
	}
	return matched == len(want)
}
