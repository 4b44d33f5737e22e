package report

import (
	"fmt"
	"strings"
)

// The series charts' file names without extension, beside the comparison's in the
// same directory layout.
const (
	seriesStageTimesFile = "series-stage-times"
	seriesThroughputFile = "series-throughput"
)

// seriesCharts are the series' charts with their captions.
func seriesCharts(s *Series) []pageChart {
	against := " against " + s.Dimension.AxisLabel() + ": lines through the medians over repetitions, a ring for each repetition"
	return []pageChart{
		{seriesStageTimesFile + ".svg", "Stage times" + against},
		{seriesThroughputFile + ".svg", "Throughput per stage in MiB/s" + against},
	}
}

func seriesTitle(s *Series) string {
	names := make([]string, len(s.Points))
	for i, p := range s.Points {
		names[i] = p.Run.Label
	}
	return fmt.Sprintf("%s against %s: %s", s.Workload, s.Dimension.Parameter, strings.Join(names, ", "))
}

// seriesExplanation says what the points are and where the figures come from.
func seriesExplanation(s *Series) string {
	return fmt.Sprintf("Each point is a run at one value of %s; the runs did the same work on the same storage otherwise. "+
		"Medians are the operator's, over the repetitions in which every stage succeeded; "+
		"min–max is the fastest and the slowest of those repetitions, each of which the charts show.", s.Dimension.Parameter)
}

// SeriesMarkdown is s as a page for a repository or a wiki: the runs with their
// values, the series table and the charts, which it expects next to it as
// WriteSeries writes them.
func SeriesMarkdown(s *Series) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s\n\n", md(seriesTitle(s)), md(seriesExplanation(s)))
	dim := md(s.Dimension.Parameter)

	b.WriteString("## Runs\n\n")
	fmt.Fprintf(&b, "| %s | %s |\n| ---: | %s |\n", dim, runHeader, runAlignment)
	for _, p := range s.Points {
		fmt.Fprintf(&b, "| %s | %s |\n", md(p.Text), runCells(p.Run))
	}

	b.WriteString("\n## Series\n\n")
	fmt.Fprintf(&b, "| Stage | %s | Run | Median | Min–max | Repetitions (s) | Throughput |\n", dim)
	b.WriteString("| --- | ---: | --- | ---: | ---: | ---: | ---: |\n")
	for _, row := range rows(s.Stages, s.Total) {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", stageLabel(row), md(s.Points[row.Run].Text), md(row.Result.Run), figureCells(row.Result))
	}
	writeEnd(&b, s.Total, s.Notes, seriesCharts(s))
	return []byte(b.String())
}

// SeriesHTML is s as a self-contained page, styles included, that shows the charts by
// relative file name: it expects them next to it, as WriteSeries writes them.
func SeriesHTML(s *Series) []byte {
	return executePage("series.html.tmpl", struct {
		Series                          *Series
		Title, Explanation, TotalStages string
		Rows                            []row
		Notes                           []string
		Charts                          []pageChart
	}{
		Series:      s,
		Title:       seriesTitle(s),
		Explanation: seriesExplanation(s),
		TotalStages: stageList(s.Total.Stages),
		Rows:        rows(s.Stages, s.Total),
		Notes:       s.Notes,
		Charts:      seriesCharts(s),
	})
}
