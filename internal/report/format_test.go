package report

import "testing"

func TestRatio(t *testing.T) {
	cases := []struct {
		a, b int64
		want string
	}{
		{103, 100, "1.03x"},
		{100, 100, "1.00x"},
		// Half up at the thousandths, then at the hundredths, as status.baseline.
		{10_345, 10_000, "1.04x"},
		{10_344, 10_000, "1.03x"},
		{2, 3, "0.67x"},
		// Byte rates of petabytes a second do not overflow.
		{3 << 50, 1 << 50, "3.00x"},
		{0, 100, ""},
		{100, 0, ""},
	}
	for _, tc := range cases {
		if got := ratio(tc.a, tc.b); got != tc.want {
			t.Errorf("ratio(%d, %d) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestSecondsText(t *testing.T) {
	cases := map[float64]string{
		21.95:   "22.0s",
		21.949:  "21.9s",
		102.901: "102.9s",
		0.04:    "0.0s",
		3600.05: "3600.1s",
	}
	for s, want := range cases {
		if got := secondsText(s); got != want {
			t.Errorf("secondsText(%v) = %q, want %q", s, got, want)
		}
	}
}
