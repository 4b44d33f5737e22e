package benchmark

import (
	"reflect"
	"testing"
	"time"
)

func TestParsePuts(t *testing.T) {
	got, err := ParsePuts(fixtureReport(t, "ingest").Puts)
	if err != nil {
		t.Fatal(err)
	}
	at := func(ms int64) time.Time { return time.UnixMilli(ms).UTC() }
	want := []Put{
		{Index: 0, ExitStatus: 0, Bytes: 8388608, Start: at(1795320377660), End: at(1795320390403)},
		{Index: 1, ExitStatus: 0, Bytes: 8388608, Start: at(1795320377661), End: at(1795320390482)},
		{Index: 2, ExitStatus: 0, Bytes: 8388608, Start: at(1795320377655), End: at(1795320389274)},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
	if d := got[1].Duration(); d != 12821*time.Millisecond {
		t.Errorf("Duration() = %v", d)
	}
}

func TestParsePutsRefusesMalformedLines(t *testing.T) {
	for _, line := range []string{
		"0 0 8388608 1795319862377",
		"0 0 8388608 1795319862377 1795319869401 extra",
		"0 0 8MiB 1795319862377 1795319869401",
		"0 -1 8388608 1795319862377 1795319869401",
		"0 0 8388608 1795319869401 1795319862377",
	} {
		if got, err := ParsePuts([]string{line}); err == nil {
			t.Errorf("%q parsed as %+v", line, got)
		}
	}
}
