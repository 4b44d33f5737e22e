package report

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// valueTicks labels a value axis from 0 at a round step, 1, 2, 2.5 or 5 times a power
// of ten: the default ticker labels every tick with the decimals of the smallest
// ("25.00 MiB/s") and may leave the axis with two labels.
type valueTicks struct{ step float64 }

// Ticks implements plot.Ticker.
func (t valueTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for i := math.Ceil(lo / t.step); i*t.step <= hi*(1+1e-9); i++ {
		v := i * t.step
		out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals(t.step), 64)})
	}
	return out
}

// axisTop is the top of a value axis that shows values up to top, on a tick about a
// fifth of it apart, so that the axis ends on a label.
func axisTop(top float64) (float64, valueTicks) {
	step := niceStep(top / 5)
	return math.Ceil(top/step) * step, valueTicks{step: step}
}

// niceStep is the smallest of 1, 2, 2.5, 5 and 10 times a power of ten that is at
// least raw.
func niceStep(raw float64) float64 {
	if raw <= 0 || math.IsInf(raw, 0) || math.IsNaN(raw) {
		return 1
	}
	magnitude := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5} {
		if raw <= m*magnitude*(1+1e-9) {
			return m * magnitude
		}
	}
	return 10 * magnitude
}

// decimals are the digits after the point that multiples of step need.
func decimals(step float64) int {
	d := 0
	for scaled := step; math.Abs(scaled-math.Round(scaled)) > 1e-9*scaled && d < 6; scaled *= 10 {
		d++
	}
	return d
}
