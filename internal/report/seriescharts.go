package report

import (
	"errors"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// SeriesStageTimesChart draws each stage's time, and the total's, against the
// dimension: a line through the medians, and a ring for every repetition.
func SeriesStageTimesChart(s *Series) (*plot.Plot, error) {
	return seriesChart(s, string(s.Workload)+" stage times against "+s.Dimension.Parameter, "seconds", timeLines(s))
}

// SeriesThroughputChart draws each stage's throughput in MiB/s against the
// dimension: a line through the medians, and a ring for every repetition.
func SeriesThroughputChart(s *Series) (*plot.Plot, error) {
	return seriesChart(s, string(s.Workload)+" throughput against "+s.Dimension.Parameter, "MiB/s", throughputLines(s))
}

// seriesLine is one stage's figures across a series: its medians at the points that
// measured it, and each of their repetitions.
type seriesLine struct {
	name        string
	total       bool
	medians     plotter.XYs
	repetitions plotter.XYs
}

func timeLines(s *Series) []seriesLine {
	var lines []seriesLine
	for _, st := range s.Stages {
		lines = append(lines, lineOf(s, string(st.Stage), st.Results, timeFigure))
	}
	if len(s.Total.Stages) > 0 {
		l := lineOf(s, "total", s.Total.Results, timeFigure)
		l.total = true
		lines = append(lines, l)
	}
	return lines
}

// throughputLines leave out the stages that report no throughput.
func throughputLines(s *Series) []seriesLine {
	var lines []seriesLine
	for _, st := range s.Stages {
		if l := lineOf(s, string(st.Stage), st.Results, throughputFigure); len(l.medians) > 0 {
			lines = append(lines, l)
		}
	}
	return lines
}

// A figure is a result's median and its repetitions' values, none when the result
// has none to draw.
type figure func(Result) (median float64, repetitions []float64, ok bool)

func timeFigure(r Result) (float64, []float64, bool) {
	reps := make([]float64, len(r.Repetitions))
	for i, rep := range r.Repetitions {
		reps[i] = rep.Seconds
	}
	return r.MedianSeconds, reps, r.Measured
}

func throughputFigure(r Result) (float64, []float64, bool) {
	var reps []float64
	for _, rep := range r.Repetitions {
		if rep.BytesPerSecond > 0 {
			reps = append(reps, mebibytesPerSecond(rep.BytesPerSecond))
		}
	}
	return mebibytesPerSecond(r.BytesPerSecond), reps, r.Measured && r.BytesPerSecond > 0
}

func lineOf(s *Series, name string, results []Result, fig figure) seriesLine {
	l := seriesLine{name: name}
	for i, r := range results {
		median, reps, ok := fig(r)
		if !ok {
			continue
		}
		x := s.Points[i].Value
		l.medians = append(l.medians, plotter.XY{X: x, Y: median})
		for _, v := range reps {
			l.repetitions = append(l.repetitions, plotter.XY{X: x, Y: v})
		}
	}
	return l
}

// The total's line is dashed: it is the sum of the others, not a stage of its own.
var totalDashes = []vg.Length{vg.Points(5), vg.Points(3)}

func seriesChart(s *Series, title, unit string, lines []seriesLine) (*plot.Plot, error) {
	if len(lines) == 0 || len(s.Points) == 0 {
		return nil, errors.New("nothing to draw: the series has no figure")
	}
	p := plot.New()
	style(p)
	p.Title.Text = title
	p.X.Label.Text = s.Dimension.AxisLabel()
	p.Y.Label.Text = unit

	grid := plotter.NewGrid()
	grid.Vertical.Color = nil
	grid.Horizontal.Color = color.Gray{Y: 0xdd}
	p.Add(grid)

	var top float64
	for i, l := range lines {
		c := palette[i%len(palette)]
		line, err := plotter.NewLine(l.medians)
		if err != nil {
			return nil, err
		}
		line.Color, line.Width = c, vg.Points(1.5)
		if l.total {
			line.Dashes = totalDashes
		}
		medians, err := plotter.NewScatter(l.medians)
		if err != nil {
			return nil, err
		}
		medians.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(2), Shape: draw.CircleGlyph{}}
		reps, err := plotter.NewScatter(l.repetitions)
		if err != nil {
			return nil, err
		}
		reps.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(3.5), Shape: draw.RingGlyph{}}
		p.Add(line, medians, reps)
		p.Legend.Add(l.name, line, reps)
		for _, xy := range append(l.medians, l.repetitions...) {
			top = max(top, xy.Y)
		}
	}
	xAxis(p, s.Points)
	p.Y.Min = 0
	p.Y.Max, p.Y.Tick.Marker = axisTop(top / (1 - legendShare(p, len(lines))))
	return p, nil
}

// xAxis puts a tick at each point's value. Values that span a factor of ten or more,
// as sizes in a series often do (1, 10 and 100 million rows), are drawn on a
// logarithmic axis, which spaces them evenly; closer ones on a linear axis.
func xAxis(p *plot.Plot, points []Point) {
	lo, hi := points[0].Value, points[0].Value
	var ticks plot.ConstantTicks
	for _, pt := range points {
		lo, hi = min(lo, pt.Value), max(hi, pt.Value)
		ticks = append(ticks, plot.Tick{Value: pt.Value, Label: compactNumber(pt.Value)})
	}
	p.X.Tick.Marker = ticks
	// A margin keeps the outermost points and their rings off the axes' ends.
	const margin = 0.08
	if lo > 0 && hi/lo >= 10 {
		p.X.Scale = plot.LogScale{}
		f := math.Pow(hi/lo, margin)
		p.X.Min, p.X.Max = lo/f, hi*f
		return
	}
	pad := (hi - lo) * margin
	p.X.Min, p.X.Max = lo-pad, hi+pad
}

// compactNumber is a value as a tick reads it: from ten thousand up in thousands,
// millions, billions and trillions ("10M" rows), below as it is ("1024" MiB); four
// significant digits of a value that is not whole ("12.35k", "0.5").
func compactNumber(v float64) string {
	for _, u := range []struct {
		from, scale float64
		suffix      string
	}{{1e12, 1e12, "T"}, {1e9, 1e9, "G"}, {1e6, 1e6, "M"}, {1e4, 1e3, "k"}} {
		if v >= u.from {
			return shortNumber(v/u.scale) + u.suffix
		}
	}
	return shortNumber(v)
}

func shortNumber(v float64) string {
	if v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}
