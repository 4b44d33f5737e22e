package report

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// groupShare is how much of the space between two stages a stage's group of bars
// takes, and barShare how much of its slot in the group a bar fills.
const (
	groupShare = 0.8
	barShare   = 0.9
)

// bars is one run's bars, one per stage, at the run's place in each stage's group,
// with whiskers for the spread over the repetitions. plotter.BarChart sizes bars in
// absolute lengths, which would have to guess the size of the canvas; bars are sized
// in the axis' units, so any number of runs and stages fits any canvas.
type bars struct {
	values       []bar
	index, count int
	color        color.Color
}

// bar is one stage's value and its spread; a stage the run did not measure has none.
type bar struct {
	value, low, high float64
	measured         bool
	// spread is false with a single repetition, which has no whisker to draw.
	spread bool
}

var whiskerStyle = draw.LineStyle{Color: color.Gray{Y: 0x30}, Width: vg.Points(1)}

// Plot draws the bars, then the whiskers over them.
func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	slot := groupShare / float64(b.count)
	for stage, v := range b.values {
		if !v.measured {
			continue
		}
		left := float64(stage) - groupShare/2 + float64(b.index)*slot
		margin := slot * (1 - barShare) / 2
		x0, x1 := trX(left+margin), trX(left+slot-margin)
		y0, y1 := trY(0), trY(v.value)
		c.FillPolygon(b.color, c.ClipPolygonY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}))
		if !v.spread {
			continue
		}
		mid, capHalf := (x0+x1)/2, (x1-x0)/5
		lo, hi := trY(v.low), trY(v.high)
		c.StrokeLine2(whiskerStyle, mid, lo, mid, hi)
		c.StrokeLine2(whiskerStyle, mid-capHalf, lo, mid+capHalf, lo)
		c.StrokeLine2(whiskerStyle, mid-capHalf, hi, mid+capHalf, hi)
	}
}

// DataRange spans every stage's group and the highest whisker.
func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	for _, v := range b.values {
		ymax = max(ymax, v.value, v.high)
	}
	return -0.5, float64(len(b.values)) - 0.5, 0, ymax
}

// Thumbnail is the legend's swatch of the run's color.
func (b *bars) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	c.FillPolygon(b.color, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}})
}
