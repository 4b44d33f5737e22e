package hadoop

import "testing"

func TestDoubleQuoted(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", `""`},
		{"INFO,console", `"INFO,console"`},
		{"-Xmx2g $EXTRA ${MORE:-x}", `"-Xmx2g $EXTRA ${MORE:-x}"`},
		{`say "hi"`, `"say \"hi\""`},
		{`C:\path`, `"C:\\path"`},
		{"`id`", "\"\\`id\\`\""},
		{"$(id) $((1+1))", `"\$(id) \$((1+1))"`},
		{"two words", `"two words"`},
	} {
		if got := doubleQuoted(tc.in); got != tc.want {
			t.Errorf("doubleQuoted(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
