package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

// svgTexts are the text elements of an SVG, which must be well-formed XML.
func svgTexts(t *testing.T, doc []byte) []string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	var texts []string
	inText := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			inText = tok.Name.Local == "text"
		case xml.EndElement:
			inText = false
		case xml.CharData:
			if inText {
				texts = append(texts, strings.TrimSpace(string(tok)))
			}
		}
	}
	return texts
}

// renderedSVG renders a chart that drew without error as SVG, and returns the
// document and its texts.
func renderedSVG(t *testing.T, p *plot.Plot, err error) (doc []byte, texts []string) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	doc, err = renderSVG(p)
	if err != nil {
		t.Fatal(err)
	}
	return doc, svgTexts(t, doc)
}

func TestChartsSVG(t *testing.T) {
	charts := map[string]func(*Comparison) (*plot.Plot, error){
		"stage times": StageTimesChart,
		"throughput":  ThroughputChart,
	}
	for caseName, c := range renderCases(t) {
		for name, chart := range charts {
			t.Run(caseName+"/"+name, func(t *testing.T) {
				p, err := chart(c)
				doc, texts := renderedSVG(t, p, err)
				for _, r := range c.Runs {
					if want := r.Name + " (" + r.Storage + ")"; !slices.Contains(texts, want) {
						t.Errorf("no legend %q among %q", want, texts)
					}
				}
				for _, s := range c.Stages {
					if !slices.Contains(texts, string(s.Stage)) {
						t.Errorf("no label %q among %q", s.Stage, texts)
					}
				}
				if !bytes.Contains(doc, []byte("Arial")) {
					t.Error("the SVG names no font that readers without Liberation Sans have")
				}
			})
		}
	}
}

// The PNG is 16 cm by 10 cm at 150 dpi, and every run's bars are there in its color.
func TestChartsPNG(t *testing.T) {
	c := renderCases(t)["terasort-3-runs"]
	for name, chart := range map[string]func(*Comparison) (*plot.Plot, error){"stage times": StageTimesChart, "throughput": ThroughputChart} {
		t.Run(name, func(t *testing.T) {
			p, err := chart(c)
			assertPNG(t, p, err, len(c.Runs), 500)
		})
	}
}

// assertPNG renders a chart that drew without error as PNG, and checks its size and
// that each of the palette's first colors covers at least least pixels: each run's
// bars, or each stage's line, is there in its color.
func assertPNG(t *testing.T, p *plot.Plot, err error, colors, least int) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := renderPNG(p)
	if err != nil {
		t.Fatal(err)
	}
	img, err := pngDecode(raw)
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds().Size(); got != (image.Point{X: 945, Y: 591}) {
		t.Errorf("size %v, want 945x591", got)
	}
	for i := range colors {
		if n := countColor(img, palette[i]); n < least {
			t.Errorf("color %d covers %d pixels: what it draws is missing", i, n)
		}
	}
}

func pngDecode(raw []byte) (image.Image, error) { return png.Decode(bytes.NewReader(raw)) }

func countColor(img image.Image, c color.Color) int {
	want := color.RGBAModel.Convert(c)
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if color.RGBAModel.Convert(img.At(x, y)) == want {
				n++
			}
		}
	}
	return n
}

func TestChartsRefuseAnEmptyComparison(t *testing.T) {
	if _, err := StageTimesChart(&Comparison{}); err == nil {
		t.Error("a chart of nothing")
	}
}
