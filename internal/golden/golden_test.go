package golden

import "testing"

func TestFirstDifference(t *testing.T) {
	cases := []struct{ want, got, diff string }{
		{"a\nb\n", "a\nb\n", ""},
		{"a\nb\n", "a\nc\n", "line 2:\n  want: \"b\"\n  got:  \"c\""},
		{"a\n", "a\nb\n", "line 2:\n  want: \"\"\n  got:  \"b\""},
		{"a", "a\n", "line 2:\n  want: \"\"\n  got:  \"\""},
	}
	for _, c := range cases {
		if d := firstDifference(c.want, c.got); d != c.diff {
			t.Errorf("firstDifference(%q, %q) = %q, want %q", c.want, c.got, d, c.diff)
		}
	}
}
