package report

import (
	"bytes"
	"fmt"
	"image/color"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The charts' file names without extension. The Markdown and HTML pages show the
// charts by these relative names, so that the directory can be moved or published
// as it is.
const (
	stageTimesFile = "stage-times"
	throughputFile = "throughput"
)

// Write writes c into dir, which it creates if needed: report.md, report.html, and
// the stage-times and throughput charts as SVG (for pages, which the reports show)
// and PNG (for slides and documents that take no SVG). It replaces files of those
// names and touches nothing else in dir. It returns the paths it wrote, in that order.
func Write(dir string, c *Comparison) ([]string, error) {
	return writeFiles(dir, Markdown(c), HTML(c),
		chart{stageTimesFile, func() (*plot.Plot, error) { return StageTimesChart(c) }},
		chart{throughputFile, func() (*plot.Plot, error) { return ThroughputChart(c) }})
}

// WriteSeries writes s into dir as Write writes a comparison: report.md and
// report.html with the series, and the series-stage-times and series-throughput
// charts as SVG and PNG. It replaces files of those names and touches nothing else in
// dir. It returns the paths it wrote, in that order.
func WriteSeries(dir string, s *Series) ([]string, error) {
	return writeFiles(dir, SeriesMarkdown(s), SeriesHTML(s),
		chart{seriesStageTimesFile, func() (*plot.Plot, error) { return SeriesStageTimesChart(s) }},
		chart{seriesThroughputFile, func() (*plot.Plot, error) { return SeriesThroughputChart(s) }})
}

// chart is how to draw a chart, and the name, without extension, of its files.
type chart struct {
	name string
	draw func() (*plot.Plot, error)
}

// writeFiles writes a report's pages and its charts, each as SVG and PNG, into dir,
// and returns the paths it wrote: the pages, then each chart's SVG and PNG. It draws
// every chart first, so that a chart that cannot be drawn leaves dir as it was.
func writeFiles(dir string, markdown, html []byte, charts ...chart) ([]string, error) {
	plots := make([]*plot.Plot, len(charts))
	for i, c := range charts {
		p, err := c.draw()
		if err != nil {
			return nil, err
		}
		plots[i] = p
	}
	type file struct {
		name   string
		render func() ([]byte, error)
	}
	files := []file{
		{"report.md", func() ([]byte, error) { return markdown, nil }},
		{"report.html", func() ([]byte, error) { return html, nil }},
	}
	for i, c := range charts {
		files = append(files,
			file{c.name + ".svg", func() ([]byte, error) { return renderSVG(plots[i]) }},
			file{c.name + ".png", func() ([]byte, error) { return renderPNG(plots[i]) }})
	}

	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	paths := make([]string, 0, len(files))
	for _, f := range files {
		content, err := f.render()
		if err != nil {
			return paths, fmt.Errorf("%s: %w", f.name, err)
		}
		path := filepath.Join(dir, f.name)
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return paths, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// renderSVG renders p at the charts' size. The SVG names its fonts and does not embed
// them; Arial and Helvetica, which readers without Liberation Sans have, are
// metric-compatible with it, so the labels keep the room they were laid out in.
func renderSVG(p *plot.Plot) ([]byte, error) {
	c := vgsvg.New(chartWidth, chartHeight)
	p.Draw(withMargin(draw.New(c)))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, err
	}
	return bytes.ReplaceAll(b.Bytes(), []byte("font-family:Liberation Sans;"), []byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;")), nil
}

// renderPNG renders p at the charts' size and pngDPI.
func renderPNG(p *plot.Plot) ([]byte, error) {
	c := vgimg.NewWith(vgimg.UseWH(chartWidth, chartHeight), vgimg.UseDPI(pngDPI))
	p.Draw(withMargin(draw.New(c)))
	var b bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// withMargin keeps the title and the axis labels off the image's edges, which a
// page or a slide puts right against other content.
func withMargin(c draw.Canvas) draw.Canvas {
	const m = 2 * vg.Millimeter
	// The margin is white too, and not transparent, on a dark page as on a light one.
	c.SetColor(color.White)
	c.Fill(c.Path())
	return draw.Crop(c, m, -m, m, -m)
}
