package report

import (
	"slices"
	"testing"
)

func TestAxisTop(t *testing.T) {
	cases := []struct {
		top, want, step float64
		labels          []string
	}{
		{top: 140.3, want: 150, step: 50, labels: []string{"0", "50", "100", "150"}},
		{top: 52.1, want: 60, step: 20, labels: []string{"0", "20", "40", "60"}},
		{top: 11.4, want: 12.5, step: 2.5, labels: []string{"0.0", "2.5", "5.0", "7.5", "10.0", "12.5"}},
		{top: 0.9, want: 1, step: 0.2, labels: []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}},
		{top: 5000, want: 5000, step: 1000, labels: []string{"0", "1000", "2000", "3000", "4000", "5000"}},
	}
	for _, tc := range cases {
		top, ticks := axisTop(tc.top)
		if top != tc.want || ticks.step != tc.step {
			t.Errorf("axisTop(%v) = %v step %v, want %v step %v", tc.top, top, ticks.step, tc.want, tc.step)
		}
		var labels []string
		for _, tick := range ticks.Ticks(0, top) {
			labels = append(labels, tick.Label)
		}
		if !slices.Equal(labels, tc.labels) {
			t.Errorf("labels up to %v: %q, want %q", top, labels, tc.labels)
		}
	}
}
