// Package dashboards checks Grafana dashboards against the metrics that Prometheus
// endpoints expose: DashboardMetrics lists what a dashboard queries, test/promtext's
// Names what a scrape holds, and Missing what the one needs and the others lack. Its tests
// hold the chart's dashboards against scrapes of Hadoop's daemons in testdata; an
// end-to-end test can hold them against a running cluster's scrapes the same way.
package dashboards

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// DashboardMetrics returns the sorted, distinct metric names that a Grafana dashboard's
// Prometheus queries select: the expr of every panel target, including the panels of
// collapsed rows, and the queries of its query variables (label_values with a series
// selector, query_result, or plain PromQL). Targets and variables whose data source
// has a type other than prometheus are left out; a data source given only as a
// variable, such as ${datasource}, counts as Prometheus.
func DashboardMetrics(dashboardJSON []byte) ([]string, error) {
	var d dashboard
	if err := json.Unmarshal(dashboardJSON, &d); err != nil {
		return nil, fmt.Errorf("decoding the dashboard: %w", err)
	}
	var names []string
	var walk func(panels []panel) error
	walk = func(panels []panel) error {
		for _, p := range panels {
			for _, t := range p.Targets {
				if t.Expr == "" || !prometheus(t.Datasource, p.Datasource) {
					continue
				}
				found, err := ExprMetrics(t.Expr)
				if err != nil {
					return fmt.Errorf("panel %q, target %s: %w", p.Title, t.RefID, err)
				}
				names = append(names, found...)
			}
			if err := walk(p.Panels); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(d.Panels); err != nil {
		return nil, err
	}
	for _, v := range d.Templating.List {
		if v.Type != "query" || !prometheus(v.Datasource, nil) {
			continue
		}
		found, err := variableMetrics(v.Query.Query)
		if err != nil {
			return nil, fmt.Errorf("variable %s: %w", v.Name, err)
		}
		names = append(names, found...)
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

// Missing returns, sorted, the names in used that are in none of exposed: the metrics
// a dashboard queries that no scraped endpoint serves.
func Missing(used []string, exposed ...[]string) []string {
	have := map[string]bool{}
	for _, names := range exposed {
		for _, n := range names {
			have[n] = true
		}
	}
	var missing []string
	for _, n := range used {
		if !have[n] {
			missing = append(missing, n)
		}
	}
	slices.Sort(missing)
	return slices.Compact(missing)
}

// The parts of Grafana's dashboard model that hold queries.
type dashboard struct {
	Panels     []panel `json:"panels"`
	Templating struct {
		List []variable `json:"list"`
	} `json:"templating"`
}

type panel struct {
	Title      string      `json:"title"`
	Datasource *datasource `json:"datasource"`
	Targets    []struct {
		RefID      string      `json:"refId"`
		Expr       string      `json:"expr"`
		Datasource *datasource `json:"datasource"`
	} `json:"targets"`
	// Panels are those of a collapsed row.
	Panels []panel `json:"panels"`
}

type variable struct {
	Name       string        `json:"name"`
	Type       string        `json:"type"`
	Datasource *datasource   `json:"datasource"`
	Query      variableQuery `json:"query"`
}

// datasource is a reference to a data source: an object with type and uid in current
// dashboards, a bare name or variable in old ones.
type datasource struct {
	Type string
}

func (d *datasource) UnmarshalJSON(b []byte) error {
	// A bare string names a data source without saying its type.
	if len(b) > 0 && b[0] == '"' {
		return nil
	}
	var ref struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		return err
	}
	d.Type = ref.Type
	return nil
}

// variableQuery is a query variable's query: a string in older dashboards, an object
// with the query in its query field in current ones.
type variableQuery struct {
	Query string
}

func (q *variableQuery) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &q.Query); err == nil {
		return nil
	}
	var obj struct {
		Query string `json:"query"`
	}
	if err := json.Unmarshal(b, &obj); err != nil {
		return fmt.Errorf("a variable's query is neither a string nor an object with a query: %s", b)
	}
	q.Query = obj.Query
	return nil
}

// prometheus tells whether a target's or variable's data source, or failing that its
// panel's, is Prometheus, or may be.
func prometheus(refs ...*datasource) bool {
	for _, ref := range refs {
		if ref != nil && ref.Type != "" {
			return ref.Type == "prometheus"
		}
	}
	return true
}

// Grafana's Prometheus variable functions (its "classic" variable queries).
var (
	labelValues = regexp.MustCompile(`^label_values\s*\(([\s\S]*)\)$`)
	queryResult = regexp.MustCompile(`^query_result\s*\(([\s\S]*)\)$`)
	namesOnly   = regexp.MustCompile(`^(label_names|metrics)\s*\(`)
)

// variableMetrics returns the metric names a query variable's query selects.
func variableMetrics(query string) ([]string, error) {
	query = strings.TrimSpace(query)
	switch {
	case query == "" || namesOnly.MatchString(query):
		return nil, nil
	case labelValues.MatchString(query):
		// label_values(label) lists a label's values across all series;
		// label_values(selector, label) those of the selected series.
		args := labelValues.FindStringSubmatch(query)[1]
		comma, err := lastTopLevelComma(args)
		if err != nil || comma < 0 {
			return nil, err
		}
		return ExprMetrics(args[:comma])
	case queryResult.MatchString(query):
		return ExprMetrics(queryResult.FindStringSubmatch(query)[1])
	default:
		return ExprMetrics(query)
	}
}

// lastTopLevelComma returns the offset of the last comma of s outside strings and
// brackets of any kind, or -1.
func lastTopLevelComma(s string) (int, error) {
	toks, err := lex(s)
	if err != nil {
		return 0, err
	}
	depth, comma := 0, -1
	for _, t := range toks {
		switch {
		case t.kind == tokLParen:
			depth++
		case t.kind == tokRParen:
			depth--
		case t.kind == tokOther && t.text == "," && depth == 0:
			comma = t.pos
		}
	}
	return comma, nil
}
