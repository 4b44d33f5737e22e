package report

import (
	"bytes"
	"embed"
	"html/template"
	"strings"
)

// The pages' templates; shared.html.tmpl holds what they share: the styles, and
// what follows the stage table.
//
//go:embed *.html.tmpl
var htmlSources embed.FS

// pages are html/template, which escapes every name and note for its context: run
// names come from the cluster, and a report may be published.
var pages = template.Must(template.New("").Funcs(template.FuncMap{
	"seconds":     secondsText,
	"spread":      spreadText,
	"repetitions": repetitionsText,
	"completed":   completedText,
	"rowClass":    rowClass,
}).ParseFS(htmlSources, "*.html.tmpl"))

// rowClass marks the first row of each stage, which a rule sets apart, and the totals.
func rowClass(r row) string {
	var classes []string
	if r.Label != "" {
		classes = append(classes, "first")
	}
	if r.Total {
		classes = append(classes, "total")
	}
	return strings.Join(classes, " ")
}

// HTML is c as a self-contained page, styles included, that shows the charts by
// relative file name: it expects them next to it, as Write writes them.
func HTML(c *Comparison) []byte {
	data := struct {
		Comparison                      *Comparison
		Title, Explanation, TotalStages string
		Rows                            []row
		Notes                           []string
		Charts                          []pageChart
	}{
		Comparison:  c,
		Title:       strings.Join(runNames(c), " vs "),
		Explanation: explanation(c),
		TotalStages: stageList(c.Total.Stages),
		Rows:        rows(c.Stages, c.Total),
		Notes:       c.Notes,
		Charts:      comparisonCharts,
	}
	return executePage("report.html.tmpl", data)
}

// executePage renders the page of the template name with data.
func executePage(name string, data any) []byte {
	var b bytes.Buffer
	// The templates and the data's types are fixed: executing can only fail on a
	// template error, which the tests exercise.
	if err := pages.ExecuteTemplate(&b, name, data); err != nil {
		panic(err)
	}
	return b.Bytes()
}
