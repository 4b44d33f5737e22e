package benchmark

import "testing"

func TestParseMilli(t *testing.T) {
	for in, want := range map[string]Milli{
		"17.13":                 17130,
		"16":                    16000,
		"17,13":                 17130,
		"94.11764705882354":     94118,
		"3.4526698300124393E-4": 0,
		"3.4526698300124393E-1": 345,
		"1.0E7":                 10000000000,
		"0.0005":                1,
		"0.00049":               0,
		"123456789012.345":      123456789012345,
	} {
		got, err := ParseMilli(in)
		if err != nil || got != want {
			t.Errorf("ParseMilli(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	if got, err := ParseMilli(" 0.5 "); err != nil || got != 500 {
		t.Errorf("ParseMilli with spaces = %d, %v", got, err)
	}
	for _, in := range []string{"", "-1", "NaN", "∞", "Infinity", "1/2", "0x10", "12a", "1e30"} {
		if got, err := ParseMilli(in); err == nil {
			t.Errorf("ParseMilli(%q) = %d, want an error", in, got)
		}
	}
}

func TestMilliString(t *testing.T) {
	for m, want := range map[Milli]string{0: "0.00", 5: "0.01", 4: "0.00", 17130: "17.13", 1194: "1.19", 1195: "1.20", 999995: "1000.00"} {
		if got := m.String(); got != want {
			t.Errorf("Milli(%d).String() = %s, want %s", m, got, want)
		}
	}
}

func TestMulDiv(t *testing.T) {
	// 1 PiB over an hour in bytes per second, and a ratio of large rates.
	if got := mulDiv(1<<50, 1000, 3600*1000); got != 312749974123 {
		t.Errorf("mulDiv = %d", got)
	}
	if got := ratio(1190, 1000); got != 1190 {
		t.Errorf("ratio(1190, 1000) = %d", got)
	}
	if got := ratio(5, 0); got != 0 {
		t.Errorf("ratio over 0 = %d", got)
	}
}
