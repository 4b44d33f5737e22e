package report

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/golden"
)

func TestWriteTable(t *testing.T) {
	for name, c := range renderCases(t) {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteTable(&b, c); err != nil {
				t.Fatal(err)
			}
			golden.Assert(t, name+".txt", b.Bytes())
			for i, line := range strings.Split(b.String(), "\n") {
				if n := utf8.RuneCountInString(line); n > 120 && !strings.HasPrefix(line, "Note: ") {
					t.Errorf("line %d has %d columns, more than 120: %q", i+1, n, line)
				}
				if strings.TrimRight(line, " ") != line {
					t.Errorf("line %d ends in blanks: %q", i+1, line)
				}
			}
		})
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("closed pipe") }

func TestWriteTableReturnsWriteErrors(t *testing.T) {
	if err := WriteTable(failingWriter{}, renderCases(t)["terasort"]); err == nil || err.Error() != "closed pipe" {
		t.Errorf("error %v, want the writer's", err)
	}
}
