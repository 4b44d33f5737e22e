package dashboards

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hadoopceph/hadoop-ceph-operator/test/promtext"
)

// chartDashboards is where the chart keeps the dashboards it installs.
const chartDashboards = "../../charts/hadoop-ceph-operator/files/dashboards"

func dashboardFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(chartDashboards, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no dashboards in %s: %v", chartDashboards, err)
	}
	return files
}

// capturedMetrics are the metric names of the scrapes of Hadoop's daemons in testdata.
func capturedMetrics(t *testing.T) map[string][]string {
	t.Helper()
	captures := map[string][]string{}
	for _, daemon := range []string{"resourcemanager", "nodemanager", "jobhistory"} {
		f, err := os.Open(filepath.Join("testdata", daemon+".prom"))
		if err != nil {
			t.Fatal(err)
		}
		exposition, err := promtext.Parse(f)
		f.Close()
		if err != nil {
			t.Fatalf("testdata/%s.prom: %v", daemon, err)
		}
		captures[daemon] = exposition.Names()
	}
	return captures
}

// scope is what one dashboard reads and shows.
type scope struct {
	// exposed are the names of the metrics it may query.
	exposed func(t *testing.T) [][]string
	// variables are its first variables, as type and name.
	variables []string
	// matchers are in every selector of every panel, so that a panel shows only what
	// the variables chose.
	matchers []string
}

// scopes are the chart's dashboards. The YARN dashboard shows one HadoopCluster,
// chosen with the namespace and hadoop_cluster variables that the PodMonitors'
// relabelings fill, from Hadoop's daemons; the operator's shows one installation of
// the operator, chosen by its scrape job, from the operator's /metrics. Each reads a
// Prometheus chosen with the datasource variable, so it works with any Prometheus
// whatever its data source is called.
var scopes = map[string]scope{
	"yarn.json": {
		exposed: func(t *testing.T) [][]string {
			var exposed [][]string
			for _, names := range capturedMetrics(t) {
				exposed = append(exposed, names)
			}
			return exposed
		},
		variables: []string{"datasource datasource", "query namespace", "query hadoop_cluster"},
		matchers:  []string{`namespace="$namespace"`, `hadoop_cluster="$hadoop_cluster"`},
	},
	"operator.json": {
		exposed:   func(t *testing.T) [][]string { return [][]string{Names(operatorMetrics(t))} },
		variables: []string{"datasource datasource", "query job"},
		matchers:  []string{`job="$job"`},
	},
}

func scopeOf(t *testing.T, file string) scope {
	t.Helper()
	s, ok := scopes[filepath.Base(file)]
	if !ok {
		t.Fatalf("%s: give it a scope in dashboards_test.go: the metrics it reads and the variables it shows them by", filepath.Base(file))
	}
	return s
}

// Every metric a dashboard queries is one its source exposes: a metric renamed in a
// Hadoop upgrade or in the operator, or misspelt in a dashboard, fails here instead of
// leaving an empty panel.
func TestDashboardMetricsAreExposed(t *testing.T) {
	for _, file := range dashboardFiles(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			used, err := DashboardMetrics(b)
			if err != nil {
				t.Fatal(err)
			}
			if len(used) == 0 {
				t.Fatal("the dashboard queries no metric")
			}
			if missing := Missing(used, scopeOf(t, file).exposed(t)...); len(missing) != 0 {
				t.Errorf("the dashboard queries metrics that its source does not expose: %s", strings.Join(missing, ", "))
			}
		})
	}
	// The YARN dashboard reads each daemon's metrics, so a capture that lost them
	// would let a renamed metric through.
	captures := capturedMetrics(t)
	for daemon, metric := range map[string]string{
		"resourcemanager": "cluster_metrics_num_active_n_ms",
		"nodemanager":     "node_manager_metrics_containers_running",
		"jobhistory":      "jvm_metrics_mem_heap_used_m",
	} {
		if len(Missing([]string{metric}, captures[daemon])) != 0 {
			t.Errorf("testdata/%s.prom lacks %s", daemon, metric)
		}
	}
}

func TestDashboardsSelectTheirScope(t *testing.T) {
	for _, file := range dashboardFiles(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			want := scopeOf(t, file)
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var d struct {
				UID           string         `json:"uid"`
				Title         string         `json:"title"`
				SchemaVersion int            `json:"schemaVersion"`
				Panels        []checkedPanel `json:"panels"`
				Templating    struct {
					List []struct {
						Name string `json:"name"`
						Type string `json:"type"`
					} `json:"list"`
				} `json:"templating"`
			}
			if err := json.Unmarshal(b, &d); err != nil {
				t.Fatal(err)
			}
			if d.UID == "" || !strings.HasPrefix(d.Title, "Hadoop on Ceph / ") || d.SchemaVersion < 39 {
				t.Errorf("uid %q, title %q, schemaVersion %d; want a uid, a title under \"Hadoop on Ceph / \" and schemaVersion 39 or later", d.UID, d.Title, d.SchemaVersion)
			}
			var variables []string
			for _, v := range d.Templating.List {
				variables = append(variables, v.Type+" "+v.Name)
			}
			if diff := cmp.Diff(want.variables, variables[:min(len(want.variables), len(variables))]); diff != "" {
				t.Errorf("first variables (-want +got):\n%s", diff)
			}
			ids := map[int]string{}
			var check func(panels []checkedPanel)
			check = func(panels []checkedPanel) {
				for _, p := range panels {
					if other, ok := ids[p.ID]; ok {
						t.Errorf("panels %q and %q share id %d", other, p.Title, p.ID)
					}
					ids[p.ID] = p.Title
					if p.GridPos.X+p.GridPos.W > 24 {
						t.Errorf("panel %q reaches past the grid's 24 columns", p.Title)
					}
					if p.Type != "row" && p.Datasource.UID != "${datasource}" {
						t.Errorf("panel %q queries data source %q, want ${datasource}", p.Title, p.Datasource.UID)
					}
					for _, target := range p.Targets {
						if target.Datasource.UID != "${datasource}" {
							t.Errorf("panel %q, target %s queries data source %q, want ${datasource}", p.Title, target.RefID, target.Datasource.UID)
						}
						for _, matcher := range want.matchers {
							if strings.Count(target.Expr, matcher) != strings.Count(target.Expr, "{") {
								t.Errorf("panel %q, target %s: not every selector of %s has %s", p.Title, target.RefID, target.Expr, matcher)
							}
						}
					}
					check(p.Panels)
				}
			}
			check(d.Panels)
		})
	}
}

type checkedPanel struct {
	ID         int    `json:"id"`
	Type       string `json:"type"`
	Title      string `json:"title"`
	Datasource struct {
		UID string `json:"uid"`
	} `json:"datasource"`
	GridPos struct {
		X int `json:"x"`
		W int `json:"w"`
	} `json:"gridPos"`
	Targets []struct {
		RefID      string `json:"refId"`
		Expr       string `json:"expr"`
		Datasource struct {
			UID string `json:"uid"`
		} `json:"datasource"`
	} `json:"targets"`
	Panels []checkedPanel `json:"panels"`
}

func TestDashboardMetrics(t *testing.T) {
	const dashboard = `{
  "panels": [
    {"type": "timeseries", "title": "top", "datasource": {"type": "prometheus", "uid": "${datasource}"},
     "targets": [{"refId": "A", "expr": "sum(rate(a_total{x=\"y\"}[5m]))"}, {"refId": "B", "expr": ""}]},
    {"type": "row", "title": "collapsed", "collapsed": true, "panels": [
      {"type": "stat", "title": "nested", "targets": [{"refId": "A", "expr": "b / on(l) group_left c"}]},
      {"type": "logs", "title": "logs", "datasource": {"type": "loki", "uid": "loki"},
       "targets": [{"refId": "A", "expr": "loki_panel_query"}]},
      {"type": "timeseries", "title": "mixed", "datasource": {"type": "datasource", "uid": "-- Mixed --"},
       "targets": [{"refId": "A", "datasource": {"type": "prometheus", "uid": "p"}, "expr": "d"},
                   {"refId": "B", "datasource": {"type": "loki", "uid": "l"}, "expr": "loki_target_query"}]}
    ]},
    {"type": "text", "title": "no targets", "datasource": "an old dashboard's data source name"}
  ],
  "templating": {"list": [
    {"type": "datasource", "name": "datasource", "query": "prometheus"},
    {"type": "query", "name": "namespace", "query": {"query": "label_values(e{job=\"x\"}, namespace)", "refId": "V"}},
    {"type": "query", "name": "job", "query": "label_values(job)"},
    {"type": "query", "name": "pod", "query": "label_values(f{a=\"b,c\"}, pod)"},
    {"type": "query", "name": "top", "query": "query_result(topk(3, g))"},
    {"type": "query", "name": "names", "query": "metrics(jvm_.*)"},
    {"type": "query", "name": "expr", "query": {"query": "h", "refId": "V"}},
    {"type": "query", "name": "loki", "datasource": {"type": "loki", "uid": "l"}, "query": "label_values(i, app)"},
    {"type": "custom", "name": "size", "query": "1,2,3"}
  ]}
}`
	got, err := DashboardMetrics([]byte(dashboard))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a_total", "b", "c", "d", "e", "f", "g", "h"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	for name, c := range map[string]struct{ dashboard, want string }{
		"broken expression": {
			`{"panels": [{"title": "p", "targets": [{"refId": "A", "expr": "rate(a[5m]"}]}]}`,
			`panel "p", target A`,
		},
		"broken variable": {
			`{"templating": {"list": [{"type": "query", "name": "v", "query": "label_values(a{b=\"c}, d)"}]}}`,
			"variable v",
		},
		"not JSON": {"<html>", "decoding the dashboard"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := DashboardMetrics([]byte(c.dashboard)); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestMissing(t *testing.T) {
	got := Missing([]string{"a", "b", "c", "d"}, []string{"a"}, nil, []string{"c", "x"})
	if diff := cmp.Diff([]string{"b", "d"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
