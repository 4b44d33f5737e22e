package report

import (
	"fmt"
	"strings"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// pageChart is a chart as the pages show it: its SVG, by a name relative to the page,
// and its caption, which is the image's alternative text too.
type pageChart struct {
	SVG, Caption string
}

var comparisonCharts = []pageChart{
	{stageTimesFile + ".svg", "Stage times: median over repetitions, whiskers from the fastest to the slowest"},
	{throughputFile + ".svg", "Throughput per stage in MiB/s: median over repetitions, whiskers from the lowest to the highest"},
}

// explanation says how to read the ratios and where the figures come from.
func explanation(c *Comparison) string {
	return fmt.Sprintf("Ratios are each run's over %s's: time below 1.00x and throughput above 1.00x are faster. "+
		"Medians are the operator's, over the repetitions in which every stage succeeded; "+
		"min–max is the fastest and the slowest of those repetitions.", c.Reference)
}

func runNames(c *Comparison) []string {
	names := make([]string, len(c.Runs))
	for i, r := range c.Runs {
		names[i] = r.Label
	}
	return names
}

func stageList(stages []v1alpha1.BenchmarkStage) string {
	names := make([]string, len(stages))
	for i, s := range stages {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}
