package dashboards

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestExprMetrics(t *testing.T) {
	for _, c := range []struct {
		expr string
		want []string
	}{
		{`up`, []string{"up"}},
		{`sum by (x) (rate(a{b="c"}[5m])) / on(y) group_left(b) c`, []string{"a", "c"}},
		// Without a parenthesis, what follows group_left is the right-hand operand,
		// not a label list.
		{`sum by (x) (rate(a{b="c"}[5m])) / on(y) group_left b`, []string{"a", "b"}},
		{`sum(a) by (b, c) / ignoring (d) group_right e`, []string{"a", "e"}},
		{`a * on (x) group_left (label_one, label_two) b`, []string{"a", "b"}},
		{`sum without(instance) (rate(http_requests_total{job=~"api|web", code!="200"}[$__rate_interval] offset 1h))`, []string{"http_requests_total"}},
		{`histogram_quantile(0.99, sum by (le) (rate(x_bucket[5m])))`, []string{"x_bucket"}},
		{`a > bool 1e-3 and b unless c or d`, []string{"a", "b", "c", "d"}},
		{`a > Inf or b < -NaN`, []string{"a", "b"}},
		{`SUM BY (x) (a) AND ON (y) B`, []string{"B", "a"}},
		{`max_over_time(a[1h:5m]) - b offset -5m @ start()`, []string{"a", "b"}},
		{`avg_over_time(rate(c:recorded:rate5m[1h30m])[1d:])`, []string{"c:recorded:rate5m"}},
		{`label_replace(up{job="a"}, "dst", "$1", "src", "(.*)")`, []string{"up"}},
		{`count_values("version", build_info)`, []string{"build_info"}},
		{`topk($limit, rate(a[${__rate_interval}])) > ${threshold:raw}`, []string{"a"}},
		{`quantile(0.9, a) + stddev(b) + limitk(2, c)`, []string{"a", "b", "c"}},
		{`{__name__="foo", job="x"}`, []string{"foo"}},
		{`{__name__='it\'s'}`, []string{"it's"}},
		{`{__name__=~"foo.*"} + {__name__!="bar"}`, nil},
		{`{"my.metric", job="x"} + {job="x", "other.metric"}`, []string{"my.metric", "other.metric"}},
		{`a{l="}\"{[", m='x\'}'} + b{n=` + "`}`" + `}`, []string{"a", "b"}},
		{`a{ns="${namespace:regex}"}`, []string{"a"}},
		{"a # a comment naming b\n + c", []string{"a", "c"}},
		{`a + a + 0x1F + .5 + 1.5e+3`, []string{"a"}},
		{`vector(1) + scalar(a) + time()`, []string{"a"}},
		{`absent(nonexistent{job="x"})`, []string{"nonexistent"}},
		{`rate (a [5m])`, []string{"a"}},
		{`1 + 2`, nil},
	} {
		t.Run(c.expr, func(t *testing.T) {
			got, err := ExprMetrics(c.expr)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestExprMetricsRefusesBrokenExpressions(t *testing.T) {
	for _, expr := range []string{
		`a{b="c"`,
		`a{b="c}`,
		`rate(a[5m]`,
		`sum(a))`,
		`sum by (x (a)`,
		`a[5m`,
		`a}`,
		`"abc`,
		`a + ${b`,
	} {
		t.Run(expr, func(t *testing.T) {
			if got, err := ExprMetrics(expr); err == nil {
				t.Errorf("got %q and no error", got)
			}
		})
	}
}
