package report

import (
	"strings"
	"testing"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/golden"
)

func TestMarkdown(t *testing.T) {
	for name, c := range renderCases(t) {
		t.Run(name, func(t *testing.T) {
			golden.Assert(t, name+".md", Markdown(c))
		})
	}
}

func TestMarkdownEscapesNames(t *testing.T) {
	c := renderCases(t)["terasort"]
	c.Runs[1].Storage = "Lustre | *fast*"
	got := string(Markdown(c))
	if !strings.Contains(got, `| Lustre \| \*fast\* |`) {
		t.Errorf("storage not escaped as one cell:\n%s", got)
	}
}
