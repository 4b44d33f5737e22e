package jobhistory

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
)

// Hadoop 3 writes job history in Avro's binary encoding by default
// (mapreduce.jobhistory.jhist.format=binary): the schema as JSON on the line after the
// format's name, then one Event record after another, with no container framing. The
// decoder below reads any value of a schema into the shape Avro's JSON encoding gives
// it (a union's value as {"<branch>": value}), so that binary and JSON files are read
// by one path. It reads what the schemas of Hadoop's Events.avpr use: no logical types,
// no defaults or aliases (the writer's schema is in the file, so nothing is resolved).

// schema is a parsed Avro schema.
type schema struct {
	kind     string // a primitive's name, or record, enum, array, map, fixed, union
	name     string // a named type's full name
	fields   []field
	symbols  []string
	items    *schema // array
	values   *schema // map
	size     int     // fixed
	branches []*schema
}

type field struct {
	name string
	typ  *schema
}

var primitives = map[string]bool{
	"null": true, "boolean": true, "int": true, "long": true, "float": true, "double": true, "bytes": true, "string": true,
}

// parseSchema parses raw in namespace ns, registering and resolving named types in
// named by their full names.
func parseSchema(raw json.RawMessage, ns string, named map[string]*schema) (*schema, error) {
	var name string
	if json.Unmarshal(raw, &name) == nil {
		if primitives[name] {
			return &schema{kind: name}, nil
		}
		if s, ok := named[fullName(name, ns)]; ok {
			return s, nil
		}
		return nil, fmt.Errorf("unknown type %q", name)
	}
	var union []json.RawMessage
	if json.Unmarshal(raw, &union) == nil {
		s := &schema{kind: "union"}
		for _, b := range union {
			branch, err := parseSchema(b, ns, named)
			if err != nil {
				return nil, err
			}
			s.branches = append(s.branches, branch)
		}
		return s, nil
	}
	var obj struct {
		Type      json.RawMessage `json:"type"`
		Name      string          `json:"name"`
		Namespace string          `json:"namespace"`
		Fields    []struct {
			Name string          `json:"name"`
			Type json.RawMessage `json:"type"`
		} `json:"fields"`
		Symbols []string        `json:"symbols"`
		Items   json.RawMessage `json:"items"`
		Values  json.RawMessage `json:"values"`
		Size    int             `json:"size"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("a schema is a name, a union or an object: %s", raw)
	}
	var kind string
	if err := json.Unmarshal(obj.Type, &kind); err != nil {
		// {"type": {...}} or {"type": [...]}: the inner schema.
		return parseSchema(obj.Type, ns, named)
	}
	switch kind {
	case "record", "error", "enum", "fixed":
		if obj.Namespace != "" {
			ns = obj.Namespace
		}
		s := &schema{kind: kind, name: fullName(obj.Name, ns), symbols: obj.Symbols, size: obj.Size}
		if kind == "error" {
			s.kind = "record"
		}
		if i := strings.LastIndex(s.name, "."); i >= 0 {
			ns = s.name[:i]
		}
		named[s.name] = s
		for _, f := range obj.Fields {
			t, err := parseSchema(f.Type, ns, named)
			if err != nil {
				return nil, fmt.Errorf("%s.%s: %w", s.name, f.Name, err)
			}
			s.fields = append(s.fields, field{name: f.Name, typ: t})
		}
		return s, nil
	case "array":
		items, err := parseSchema(obj.Items, ns, named)
		return &schema{kind: kind, items: items}, err
	case "map":
		values, err := parseSchema(obj.Values, ns, named)
		return &schema{kind: kind, values: values}, err
	default:
		if primitives[kind] {
			return &schema{kind: kind}, nil
		}
		return parseSchema(obj.Type, ns, named)
	}
}

func fullName(name, ns string) string {
	if strings.Contains(name, ".") || ns == "" {
		return name
	}
	return ns + "." + name
}

// branchName is how Avro's JSON encoding names a union's branch.
func (s *schema) branchName() string {
	if s.name != "" {
		return s.name
	}
	return s.kind
}

// decoder reads values in Avro's binary encoding.
type decoder struct {
	r *bufio.Reader
}

// long reads a zig-zag varint.
func (d decoder) long() (int64, error) {
	u, err := binary.ReadUvarint(d.r)
	if err != nil {
		return 0, err
	}
	return int64(u>>1) ^ -int64(u&1), nil
}

func (d decoder) bytes() ([]byte, error) {
	n, err := d.long()
	if err != nil {
		return nil, err
	}
	if n < 0 || n > 64<<20 {
		return nil, fmt.Errorf("a length of %d bytes", n)
	}
	b := make([]byte, n)
	_, err = io.ReadFull(d.r, b)
	return b, err
}

// count reads a block's item count; a negative count is followed by the block's size
// in bytes, which is not needed.
func (d decoder) count() (int64, error) {
	n, err := d.long()
	if err != nil || n >= 0 {
		return n, err
	}
	if _, err := d.long(); err != nil {
		return 0, err
	}
	return -n, nil
}

func (d decoder) value(s *schema) (any, error) {
	switch s.kind {
	case "null":
		return nil, nil
	case "boolean":
		b, err := d.r.ReadByte()
		return b != 0, err
	case "int", "long":
		return d.long()
	case "float":
		var b [4]byte
		_, err := io.ReadFull(d.r, b[:])
		return math.Float32frombits(binary.LittleEndian.Uint32(b[:])), err
	case "double":
		var b [8]byte
		_, err := io.ReadFull(d.r, b[:])
		return math.Float64frombits(binary.LittleEndian.Uint64(b[:])), err
	case "bytes", "string":
		b, err := d.bytes()
		return string(b), err
	case "fixed":
		b := make([]byte, s.size)
		_, err := io.ReadFull(d.r, b)
		return string(b), err
	case "enum":
		i, err := d.long()
		if err != nil {
			return nil, err
		}
		if i < 0 || int(i) >= len(s.symbols) {
			return nil, fmt.Errorf("enum %s has no symbol %d", s.name, i)
		}
		return s.symbols[i], nil
	case "record":
		out := make(map[string]any, len(s.fields))
		for _, f := range s.fields {
			v, err := d.value(f.typ)
			if err != nil {
				return nil, fmt.Errorf("%s.%s: %w", s.name, f.name, err)
			}
			out[f.name] = v
		}
		return out, nil
	case "array":
		var out []any
		for {
			n, err := d.count()
			if err != nil || n == 0 {
				return out, err
			}
			for ; n > 0; n-- {
				v, err := d.value(s.items)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
		}
	case "map":
		out := map[string]any{}
		for {
			n, err := d.count()
			if err != nil || n == 0 {
				return out, err
			}
			for ; n > 0; n-- {
				k, err := d.bytes()
				if err != nil {
					return nil, err
				}
				if out[string(k)], err = d.value(s.values); err != nil {
					return nil, err
				}
			}
		}
	case "union":
		i, err := d.long()
		if err != nil {
			return nil, err
		}
		if i < 0 || int(i) >= len(s.branches) {
			return nil, fmt.Errorf("a union of %d types has no branch %d", len(s.branches), i)
		}
		b := s.branches[i]
		v, err := d.value(b)
		if err != nil || b.kind == "null" {
			return nil, err
		}
		return map[string]any{b.branchName(): v}, nil
	}
	return nil, fmt.Errorf("cannot read a value of type %s", s.kind)
}

// binaryEvents reads the events after a binary history file's format line: the
// schema line, then records until the end, each turned into its JSON encoding.
func binaryEvents(r *bufio.Reader) ([][]byte, error) {
	line, err := r.ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("job history without a schema: %w", err)
	}
	top, err := parseSchema(line, "", map[string]*schema{})
	if err != nil {
		return nil, fmt.Errorf("the job history's schema: %w", err)
	}
	d := decoder{r: r}
	var events [][]byte
	for {
		if _, err := r.Peek(1); errors.Is(err, io.EOF) {
			return events, nil
		}
		v, err := d.value(top)
		if err != nil {
			return nil, fmt.Errorf("event %d: %w", len(events)+1, err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		events = append(events, b)
	}
}
