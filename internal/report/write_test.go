package report

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestWrite(t *testing.T) {
	c := renderCases(t)["terasort"]
	dir := filepath.Join(t.TempDir(), "reports", "terasort")
	paths, err := Write(dir, c)
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
	want := []string{"report.md", "report.html", "stage-times.svg", "stage-times.png", "throughput.svg", "throughput.png"}
	if !slices.Equal(names, want) {
		t.Fatalf("wrote %q, want %q", names, want)
	}

	read := func(name string) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if !bytes.Equal(read("report.md"), Markdown(c)) || !bytes.Equal(read("report.html"), HTML(c)) {
		t.Error("the written pages differ from Markdown and HTML")
	}
	// The pages show the charts by relative name: the files must be where they point.
	for _, page := range []string{"report.md", "report.html"} {
		for _, chart := range []string{"stage-times.svg", "throughput.svg"} {
			if !bytes.Contains(read(page), []byte(chart)) {
				t.Errorf("%s does not show %s", page, chart)
			}
		}
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
