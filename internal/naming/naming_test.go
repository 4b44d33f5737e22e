package naming

import (
	"strings"
	"testing"
)

func TestShortName(t *testing.T) {
	tests := []struct {
		name, in string
		max      int
		// wantPrefix is the whole result for names that fit, else what precedes
		// "-<8 hex digits of a hash of the whole name>".
		wantPrefix string
	}{
		{name: "fits", in: "hadoop-analytics-lake", max: 63, wantPrefix: "hadoop-analytics-lake"},
		{name: "exactly the limit", in: strings.Repeat("b", 63), max: 63, wantPrefix: strings.Repeat("b", 63)},
		{name: "too long", in: strings.Repeat("a", 70), max: 63, wantPrefix: strings.Repeat("a", 54)},
		{name: "no dash or dot before the hash", in: strings.Repeat("a", 52) + "-.xxxxxxxxxxxxxxx", max: 63, wantPrefix: strings.Repeat("a", 52)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ShortName(tt.in, tt.max)
			if len(tt.in) <= tt.max {
				if got != tt.wantPrefix {
					t.Errorf("ShortName(%q) = %q, want it unchanged", tt.in, got)
				}
				return
			}
			prefix, hash, _ := strings.Cut(got, "-")
			if len(got) > tt.max || prefix != tt.wantPrefix || len(hash) != 8 {
				t.Errorf("ShortName(%q) = %q, want %q-<8 hex digits> within %d characters", tt.in, got, tt.wantPrefix, tt.max)
			}
			if again := ShortName(tt.in, tt.max); again != got {
				t.Errorf("ShortName is not deterministic: %q then %q", got, again)
			}
		})
	}
}
