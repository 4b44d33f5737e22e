package report

import (
	"bytes"
	_ "embed"
	"html/template"
	"strings"
)

//go:embed report.html.tmpl
var htmlSource string

// page is html/template, which escapes every name and note for its context: run names
// come from the cluster, and a report may be published.
var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"seconds":     secondsText,
	"spread":      spreadText,
	"repetitions": repetitionsText,
	"completed":   completedText,
	"rowClass":    rowClass,
}).Parse(htmlSource))

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
		Comparison                           *Comparison
		Title, Explanation, TotalStages      string
		Rows                                 []row
		StageTimesSVG, ThroughputSVG         string
		StageTimesCaption, ThroughputCaption string
	}{
		Comparison:        c,
		Title:             strings.Join(runNames(c), " vs "),
		Explanation:       explanation(c),
		TotalStages:       stageList(c.Total.Stages),
		Rows:              rows(c),
		StageTimesSVG:     stageTimesFile + ".svg",
		ThroughputSVG:     throughputFile + ".svg",
		StageTimesCaption: stageTimesCaption,
		ThroughputCaption: throughputCaption,
	}
	var b bytes.Buffer
	// The template and the data's types are fixed: executing can only fail on a
	// template error, which the tests exercise.
	if err := page.Execute(&b, data); err != nil {
		panic(err)
	}
	return b.Bytes()
}
