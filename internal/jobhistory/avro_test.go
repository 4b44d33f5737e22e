package jobhistory

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// zz is a value's zig-zag varint, as Avro's binary encoding writes ints and longs.
func zz(v int64) []byte {
	return binary.AppendUvarint(nil, uint64((v<<1)^(v>>63)))
}

func str(s string) []byte { return append(zz(int64(len(s))), s...) }

func TestDecoderValues(t *testing.T) {
	const schemaJSON = `{"type":"record","name":"R","namespace":"a.b","fields":[
		{"name":"i","type":"int"},
		{"name":"l","type":"long"},
		{"name":"ok","type":"boolean"},
		{"name":"d","type":"double"},
		{"name":"e","type":{"type":"enum","name":"E","symbols":["X","Y"]}},
		{"name":"u","type":["null","string"]},
		{"name":"n","type":["null","string"]},
		{"name":"arr","type":{"type":"array","items":"long"}},
		{"name":"m","type":{"type":"map","values":"string"}},
		{"name":"f","type":{"type":"fixed","name":"F","size":2}},
		{"name":"again","type":"E"},
		{"name":"inner","type":["null",{"type":"record","name":"c.In","fields":[{"name":"s","type":"string"}]}]}
	]}`
	var b []byte
	b = append(b, zz(-3)...)
	b = append(b, zz(1<<40)...)
	b = append(b, 1)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(2.5))
	b = append(b, zz(1)...)
	b = append(b, zz(1)...) // union branch 1: string
	b = append(b, str("yes")...)
	b = append(b, zz(0)...) // union branch 0: null
	// an array in two blocks, the second with a negative count and its byte size
	b = append(b, zz(1)...)
	b = append(b, zz(7)...)
	b = append(b, zz(-2)...)
	b = append(b, zz(2)...)
	b = append(b, zz(8)...)
	b = append(b, zz(9)...)
	b = append(b, zz(0)...)
	b = append(b, zz(1)...)
	b = append(b, str("k")...)
	b = append(b, str("v")...)
	b = append(b, zz(0)...)
	b = append(b, "hi"...)
	b = append(b, zz(0)...)
	b = append(b, zz(1)...)
	b = append(b, str("deep")...)

	top, err := parseSchema([]byte(schemaJSON), "", map[string]*schema{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := decoder{r: bufio.NewReader(bytes.NewReader(b))}.value(top)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var gotMap, wantMap map[string]any
	_ = json.Unmarshal(got, &gotMap)
	want := `{"i":-3,"l":1099511627776,"ok":true,"d":2.5,"e":"Y","u":{"string":"yes"},"n":null,
		"arr":[7,8,9],"m":{"k":"v"},"f":"hi","again":"X","inner":{"c.In":{"s":"deep"}}}`
	if err := json.Unmarshal([]byte(want), &wantMap); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantMap, gotMap); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
}
