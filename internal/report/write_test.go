package report

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	c := renderCases(t)["terasort"]
	dir := filepath.Join(t.TempDir(), "reports", "terasort")
	paths, err := Write(dir, c)
	read := written(t, dir, paths, err, "report.md", "report.html", "stage-times.svg", "stage-times.png", "throughput.svg", "throughput.png")
	if !bytes.Equal(read("report.md"), Markdown(c)) || !bytes.Equal(read("report.html"), HTML(c)) {
		t.Error("the written pages differ from Markdown and HTML")
	}
	for _, name := range []string{"stage-times.svg", "throughput.svg"} {
		svgTexts(t, read(name))
	}
	for _, name := range []string{"stage-times.png", "throughput.png"} {
		cfg, err := png.DecodeConfig(bytes.NewReader(read(name)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if cfg.Width != 945 || cfg.Height != 591 {
			t.Errorf("%s is %dx%d, want 945x591", name, cfg.Width, cfg.Height)
		}
	}
}

// written checks that a report's writer, which returned paths and err, wrote the
// files want into dir in that order, and that its pages show each SVG among them,
// and returns a reader of them.
func written(t *testing.T, dir string, paths []string, err error, want ...string) func(name string) []byte {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range paths {
		if filepath.Dir(p) != dir {
			t.Errorf("%s is not in %s", p, dir)
		}
		names = append(names, filepath.Base(p))
	}
	if !slices.Equal(names, want) {
		t.Fatalf("wrote %q, want %q", names, want)
	}
	read := func(name string) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if len(b) == 0 {
			t.Fatalf("%s is empty", name)
		}
		return b
	}
	// The pages show the charts by relative name: the files must be where they point.
	for _, page := range []string{"report.md", "report.html"} {
		for _, chart := range want {
			if strings.HasSuffix(chart, ".svg") && !bytes.Contains(read(page), []byte(chart)) {
				t.Errorf("%s does not show %s", page, chart)
			}
		}
	}
	return read
}

// Write replaces its own files and leaves the rest of the directory alone.
func TestWriteReplacesItsFilesOnly(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(other, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "report.md"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := renderCases(t)["terasort"]
	if _, err := Write(dir, c); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(other); string(b) != "keep" {
		t.Errorf("notes.txt is %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "report.md")); !bytes.Equal(b, Markdown(c)) {
		t.Error("report.md was not replaced")
	}
}

func TestWriteRefusesAFileAsDirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(file, renderCases(t)["terasort"]); err == nil {
		t.Error("wrote into a file")
	}
}
