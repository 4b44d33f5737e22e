package benchmark

import (
	"reflect"
	"strconv"
	"testing"
)

func TestParseTeraValidate(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		want    TeraValidateReport
	}{
		{
			fixture: "teravalidate-report.txt",
			want:    TeraValidateReport{Checksum: "c327a1c42c28"},
		},
		{
			// The sorted files swapped: each is in order, the keys between them are not.
			fixture: "teravalidate-swapped-report.txt",
			want: TeraValidateReport{Checksum: "c327a1c42c28", Errors: []string{
				"bad key partitioning: file part-r-00000:end key ff ff 52 69 0a 35 0e d9 bc 1c; file part-r-00001:begin key 00 00 66 fc 34 d9 bc 9d 51 e1",
			}},
		},
		{
			// TeraGen's output, never sorted.
			fixture: "teravalidate-unsorted-report.txt",
			want: TeraValidateReport{Checksum: "cfd13cd75", Errors: []string{
				"misorder in part-m-00000 between 6a 59 45 1b e8 d0 1d e2 33 26 and 27 29 b9 77 14 71 00 07 f6 16",
				"misorder in part-m-00000 between f2 fa 42 ed 18 72 87 49 8d 57 and 6a 59 45 1b e8 d0 1d e2 33 26",
				"misorder in part-m-00000 between da 7a 45 a1 82 de b6 fe a6 ed and 9b 6b 48 25 e2 51 bd 9e 6d eb",
				"misorder in part-m-00000 between f8 f6 42 63 fd 0b 05 15 9f 85 and da 7a 45 a1 82 de b6 fe a6 ed",
				"misorder in part-m-00000 between 5e fc 4a bf ac a2 3e 8c a8 ed and 44 f7 8c 8b 40 bf 1c e1 9a 82",
				"misorder in part-m-00000 between 72 dc 0c a5 1e 33 3f 32 4b 7a and 10 43 1a f6 a0 d8 47 b8 c5 5f",
				"misorder in part-m-00000 between 88 2a 02 c3 15 36 2b 60 76 5f and 5c 90 ab 38 ae 52 89 62 15 d7",
				"misorder in part-m-00000 between 95 e0 e4 82 62 b3 ed fe 04 47 and 45 97 93 53 db ed 53 29 36 5c",
			}},
		},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			got := ParseTeraValidate(fixtureLines(t, tc.fixture))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got\n%#v\nwant\n%#v", got, tc.want)
			}
			if got.OK() != (len(tc.want.Errors) == 0) {
				t.Errorf("OK() = %v with %d errors", got.OK(), len(got.Errors))
			}
		})
	}
}

// TeraValidate's checksum is TeraGen's CHECKSUM counter in hexadecimal, so the two
// together prove that the sort lost and changed no row.
func TestTeraValidateChecksumIsTeraGens(t *testing.T) {
	generated := ParseCounters(fixture(t, "teragen.log"))[0][CounterTeraGenChecksum]
	validated := ParseTeraValidate(fixtureLines(t, "teravalidate-report.txt")).Checksum
	if hex := strconv.FormatInt(generated, 16); hex != validated {
		t.Errorf("TeraGen's checksum %s, TeraValidate's %s", hex, validated)
	}
}

func TestParseTeraValidateWithoutChecksum(t *testing.T) {
	if r := ParseTeraValidate(nil); r.OK() {
		t.Error("an empty report passed")
	}
}
