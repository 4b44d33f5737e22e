package benchmark

import "strings"

// TeraValidateReport is TeraValidate's output: a "checksum<TAB><hex>" line and one
// "error<TAB><message>" line per problem, where a message may go on over further
// lines (the "bad key partitioning" message names two files on lines of its own).
type TeraValidateReport struct {
	Checksum string
	Errors   []string
}

// OK reports whether the sorted data passed: a checksum and no error.
func (r TeraValidateReport) OK() bool {
	return r.Checksum != "" && len(r.Errors) == 0
}

// ParseTeraValidate reads a TeraValidate report.
func ParseTeraValidate(lines []string) TeraValidateReport {
	var r TeraValidateReport
	inError := false
	for _, raw := range lines {
		line := strings.TrimRight(raw, "\r")
		key, value, tabbed := strings.Cut(line, "\t")
		switch {
		case tabbed && key == "checksum":
			r.Checksum = strings.TrimSpace(value)
			inError = false
		case tabbed && key == "error":
			r.Errors = append(r.Errors, strings.TrimSpace(value))
			inError = true
		case inError && strings.TrimSpace(line) != "":
			last := len(r.Errors) - 1
			sep := "; "
			if strings.HasSuffix(r.Errors[last], ":") {
				sep = " "
			}
			r.Errors[last] += sep + strings.TrimSpace(line)
		}
	}
	return r
}
