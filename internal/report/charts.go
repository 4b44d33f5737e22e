package report

import (
	"errors"
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// The charts are drawn for this size, a figure in a document; Write renders them at
// it. The legend's room above the bars is reckoned for it too.
const (
	chartWidth  = 16 * vg.Centimeter
	chartHeight = 10 * vg.Centimeter
	// pngDPI makes a PNG sharp on a slide and in a page at its printed size.
	pngDPI = 150
)

// palette tells up to eight runs apart with muted colors that print well; more runs
// repeat it.
var palette = []color.Color{
	color.RGBA{R: 0x4c, G: 0x72, B: 0xb0, A: 0xff},
	color.RGBA{R: 0xdd, G: 0x84, B: 0x52, A: 0xff},
	color.RGBA{R: 0x55, G: 0xa8, B: 0x68, A: 0xff},
	color.RGBA{R: 0xc4, G: 0x4e, B: 0x52, A: 0xff},
	color.RGBA{R: 0x81, G: 0x72, B: 0xb3, A: 0xff},
	color.RGBA{R: 0x93, G: 0x78, B: 0x60, A: 0xff},
	color.RGBA{R: 0xda, G: 0x8b, B: 0xc3, A: 0xff},
	color.RGBA{R: 0x8c, G: 0x8c, B: 0x8c, A: 0xff},
}

// StageTimesChart draws each stage's median time per run as grouped bars, one group
// per stage and one bar per run, with whiskers from the fastest to the slowest
// repetition.
func StageTimesChart(c *Comparison) (*plot.Plot, error) {
	return groupedBars(c, string(c.Workload)+" stage times", "seconds", func(r Result) bar {
		return bar{value: r.MedianSeconds, low: r.MinSeconds, high: r.MaxSeconds, measured: r.Measured, spread: len(r.Repetitions) > 1}
	})
}

// ThroughputChart draws each stage's median throughput per run in MiB/s, the unit of
// the operator's throughput text, with whiskers from the lowest to the highest
// repetition.
func ThroughputChart(c *Comparison) (*plot.Plot, error) {
	return groupedBars(c, string(c.Workload)+" throughput", "MiB/s", func(r Result) bar {
		b := bar{value: mebibytesPerSecond(r.BytesPerSecond), measured: r.Measured && r.BytesPerSecond > 0, spread: len(r.Repetitions) > 1}
		for i, rep := range r.Repetitions {
			v := mebibytesPerSecond(rep.BytesPerSecond)
			if i == 0 || v < b.low {
				b.low = v
			}
			b.high = max(b.high, v)
		}
		return b
	})
}

func groupedBars(c *Comparison, title, unit string, figure func(Result) bar) (*plot.Plot, error) {
	if len(c.Stages) == 0 || len(c.Runs) == 0 {
		return nil, errors.New("nothing to draw: the comparison has no stage")
	}
	p := plot.New()
	style(p)
	p.Title.Text = title
	p.Y.Label.Text = unit
	p.Y.Min = 0

	grid := plotter.NewGrid()
	grid.Vertical.Color = nil
	grid.Horizontal.Color = color.Gray{Y: 0xdd}
	p.Add(grid)

	names := make([]string, len(c.Stages))
	for i, s := range c.Stages {
		names[i] = string(s.Stage)
	}
	p.NominalX(names...)

	var top float64
	for i, run := range c.Runs {
		b := &bars{index: i, count: len(c.Runs), color: palette[i%len(palette)]}
		for _, s := range c.Stages {
			if i >= len(s.Results) {
				return nil, fmt.Errorf("stage %s has no result for run %s", s.Stage, run.Label)
			}
			b.values = append(b.values, figure(s.Results[i]))
		}
		_, _, _, ymax := b.DataRange()
		top = max(top, ymax)
		p.Add(b)
		p.Legend.Add(legendText(run), b)
	}
	p.X.Min, p.X.Max = -0.5, float64(len(c.Stages))-0.5
	p.Y.Max, p.Y.Tick.Marker = axisTop(top / (1 - legendShare(p, len(c.Runs))))
	return p, nil
}

// style sets sans-serif type, which reads better than the default serif at a
// figure's size, and puts the legend in the top left.
func style(p *plot.Plot) {
	sans := func(size vg.Length) font.Font {
		return font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
	}
	p.Title.TextStyle.Font = sans(12)
	p.Title.Padding = vg.Points(6)
	p.X.Label.TextStyle.Font = sans(10)
	p.Y.Label.TextStyle.Font = sans(10)
	p.X.Tick.Label.Font = sans(10)
	p.Y.Tick.Label.Font = sans(9)
	p.Legend.TextStyle.Font = sans(9)
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs = vg.Points(6)
	p.Legend.YOffs = -vg.Points(4)
	p.Legend.Padding = vg.Points(2)
	p.Legend.ThumbnailWidth = vg.Points(12)
}

// legendShare is the part of the data area's height that a legend of n entries
// takes at the charts' size, kept free above the highest bar so that the legend
// covers none.
func legendShare(p *plot.Plot, n int) float64 {
	entry := p.Legend.TextStyle.Rectangle("Xg").Size().Y + p.Legend.Padding
	legend := vg.Length(n)*entry + vg.Points(12)
	// The data area is the chart less its title and the stage names under it.
	area := chartHeight - vg.Centimeter*2
	return min(float64(legend/area), 0.6)
}
