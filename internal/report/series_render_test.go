package report

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/golden"
)

// seriesCases are the series the golden files show: the TeraSorts against their rows,
// and the TestDFSIOs against their file size.
func seriesCases(t *testing.T) map[string]*Series {
	t.Helper()
	return map[string]*Series{
		"series-terasort-rows":   mustSeries(t, teraSortRowsSeries()),
		"series-dfsio-file-size": mustSeries(t, dfsioFileSizeSeries()),
	}
}

func TestSeriesMarkdown(t *testing.T) {
	for name, s := range seriesCases(t) {
		t.Run(name, func(t *testing.T) {
			golden.Assert(t, name+".md", SeriesMarkdown(s))
		})
	}
}

func TestSeriesHTML(t *testing.T) {
	for name, s := range seriesCases(t) {
		t.Run(name, func(t *testing.T) {
			golden.Assert(t, name+".html", SeriesHTML(s))
		})
	}
}

func TestSeriesHTMLEscapesNames(t *testing.T) {
	s := seriesCases(t)["series-terasort-rows"]
	s.Points[0].Run.Name = `<script>alert("x")</script>`
	got := string(SeriesHTML(s))
	if strings.Contains(got, "<script>") || !strings.Contains(got, "&lt;script&gt;") {
		t.Error("a run's name is not escaped")
	}
}

var seriesChartFuncs = map[string]func(*Series) (*plot.Plot, error){
	"stage times": SeriesStageTimesChart,
	"throughput":  SeriesThroughputChart,
}

func TestSeriesChartsSVG(t *testing.T) {
	for caseName, s := range seriesCases(t) {
		for name, chart := range seriesChartFuncs {
			t.Run(caseName+"/"+name, func(t *testing.T) {
				p, err := chart(s)
				_, texts := renderedSVG(t, p, err)
				if !slices.Contains(texts, s.Dimension.AxisLabel()) {
					t.Errorf("no axis label %q among %q", s.Dimension.AxisLabel(), texts)
				}
				for _, pt := range s.Points {
					if tick := compactNumber(pt.Value); !slices.Contains(texts, tick) {
						t.Errorf("no tick %q for %s among %q", tick, pt.Run.Label, texts)
					}
				}
				for _, st := range s.Stages {
					if !slices.Contains(texts, string(st.Stage)) {
						t.Errorf("no legend %q among %q", st.Stage, texts)
					}
				}
				if slices.Contains(texts, "total") != (name == "stage times") {
					t.Errorf("legend %q: want the total on the stage times alone", texts)
				}
			})
		}
	}
	if got := compactNumber(1e8); got != "100M" {
		t.Errorf("the 100M rows tick reads %q", got)
	}
}

// Every repetition is a point of its stage's line, at its run's value: a run of two
// repetitions among runs of three gives 3+3+2.
func TestSeriesLinesShowEveryRepetition(t *testing.T) {
	twice := cephSetup()
	twice.Repetitions = 2
	runs := teraSortRowsSeries()
	runs[1] = teraSortRun("terasort-100m", "analytics", twice, teraSortRowDurations[100_000_000], started.Add(time.Hour),
		func(s *v1alpha1.BenchmarkRunSpec) { *s.TeraSort.Rows = 100_000_000 })
	s := mustSeries(t, runs)

	for name, lines := range map[string][]seriesLine{"stage times": timeLines(s), "throughput": throughputLines(s)} {
		wantLines := 3
		if name == "stage times" {
			wantLines = 4 // and the total
		}
		if len(lines) != wantLines {
			t.Fatalf("%s: %d lines, want %d", name, len(lines), wantLines)
		}
		for _, l := range lines {
			if len(l.repetitions) != 3+3+2 {
				t.Errorf("%s/%s: %d repetition points, want 8", name, l.name, len(l.repetitions))
			}
			var xs []float64
			for _, m := range l.medians {
				xs = append(xs, m.X)
			}
			if want := []float64{1e6, 1e7, 1e8}; !slices.Equal(xs, want) {
				t.Errorf("%s/%s: medians at %v, want %v", name, l.name, xs, want)
			}
			perValue := map[float64]int{}
			for _, r := range l.repetitions {
				perValue[r.X]++
			}
			if perValue[1e6] != 3 || perValue[1e7] != 3 || perValue[1e8] != 2 {
				t.Errorf("%s/%s: repetitions per value %v, want 3, 3 and 2", name, l.name, perValue)
			}
		}
	}
	// The 100M run's repetitions are its own, not its median repeated.
	sortLine := timeLines(s)[1]
	var at100M []float64
	for _, r := range sortLine.repetitions {
		if r.X == 1e8 {
			at100M = append(at100M, r.Y)
		}
	}
	if want := []float64{842.915, 869.304}; !slices.Equal(at100M, want) {
		t.Errorf("terasort at 100M rows: repetitions %v, want %v", at100M, want)
	}
}

// The PNG is the comparison charts' size, and every line is there in its color.
func TestSeriesChartsPNG(t *testing.T) {
	s := seriesCases(t)["series-terasort-rows"]
	for name, chart := range seriesChartFuncs {
		t.Run(name, func(t *testing.T) {
			p, err := chart(s)
			assertPNG(t, p, err, len(s.Stages), 100)
		})
	}
}

func TestSeriesChartsRefuseAnEmptySeries(t *testing.T) {
	if _, err := SeriesStageTimesChart(&Series{}); err == nil {
		t.Error("a chart of nothing")
	}
}

func TestWriteSeries(t *testing.T) {
	s := seriesCases(t)["series-terasort-rows"]
	dir := filepath.Join(t.TempDir(), "reports", "terasort-rows")
	paths, err := WriteSeries(dir, s)
	read := written(t, dir, paths, err, "report.md", "report.html", "series-stage-times.svg", "series-stage-times.png", "series-throughput.svg", "series-throughput.png")
	if !bytes.Equal(read("report.md"), SeriesMarkdown(s)) || !bytes.Equal(read("report.html"), SeriesHTML(s)) {
		t.Error("the written pages differ from SeriesMarkdown and SeriesHTML")
	}
	for _, chart := range []string{"series-stage-times.svg", "series-throughput.svg"} {
		if texts := svgTexts(t, read(chart)); !slices.Contains(texts, "rows") {
			t.Errorf("%s has no axis label rows among %q", chart, texts)
		}
	}
	for _, chart := range []string{"series-stage-times.png", "series-throughput.png"} {
		if _, err := pngDecode(read(chart)); err != nil {
			t.Errorf("%s: %v", chart, err)
		}
	}
}
