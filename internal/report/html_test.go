package report

import (
	"strings"
	"testing"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/golden"
)

func TestHTML(t *testing.T) {
	for name, c := range renderCases(t) {
		t.Run(name, func(t *testing.T) {
			golden.Assert(t, name+".html", HTML(c))
		})
	}
}

func TestHTMLEscapesEverything(t *testing.T) {
	c := renderCases(t)["terasort"]
	c.Runs[1].Name = `<script>alert("x")</script>`
	c.Notes = []string{`a note with <b>markup</b> & "quotes"`}
	got := string(HTML(c))
	for _, raw := range []string{"<script>", "<b>markup"} {
		if strings.Contains(got, raw) {
			t.Errorf("page contains %q unescaped", raw)
		}
	}
	for _, escaped := range []string{"&lt;script&gt;", "&lt;b&gt;markup&lt;/b&gt; &amp; &#34;quotes&#34;"} {
		if !strings.Contains(got, escaped) {
			t.Errorf("page lacks %q", escaped)
		}
	}
}
