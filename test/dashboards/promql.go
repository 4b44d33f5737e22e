package dashboards

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ExprMetrics returns the sorted, distinct metric names a PromQL expression selects.
//
// It lexes rather than parses, so it accepts what Prometheus would refuse for other
// reasons, but it knows enough of the grammar not to take other identifiers for metric
// names: function and aggregation names, keywords and set operators, the label lists
// of by, without, on, ignoring, group_left and group_right, label matchers, strings,
// numbers, durations, ranges and subqueries, comments and Grafana's template
// variables. A name given as {__name__="..."} or, in Prometheus 3's quoted form, as
// {"..."} counts too; a regular expression on __name__ names no metric and is left
// out. An unterminated string or unbalanced brackets are errors, so that a broken
// query is reported rather than read as selecting nothing.
func ExprMetrics(expr string) ([]string, error) {
	toks, err := lex(expr)
	if err != nil {
		return nil, err
	}
	var names []string
	depth := 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.kind {
		case tokLParen:
			depth++
		case tokRParen:
			if depth--; depth < 0 {
				return nil, fmt.Errorf("unbalanced ) at offset %d", t.pos)
			}
		case tokBraces:
			name, err := matcherName(t.text)
			if err != nil {
				return nil, err
			}
			if name != "" {
				names = append(names, name)
			}
		case tokIdent:
			word := strings.ToLower(t.text)
			next := tokOther
			if i+1 < len(toks) {
				next = toks[i+1].kind
			}
			switch {
			case groupingKeywords[word]:
				// The label list is optional after group_left and group_right; what
				// follows them without a parenthesis is the right-hand operand.
				if next == tokLParen {
					end, err := closingParen(toks, i+1)
					if err != nil {
						return nil, err
					}
					i = end
				}
			case keywords[word] || aggregations[word]:
			case next == tokLParen:
				// A function call.
			default:
				names = append(names, t.text)
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("%d unclosed (", depth)
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

// Words that are never metric names. PromQL matches keywords case-insensitively.
var (
	groupingKeywords = set("by", "without", "on", "ignoring", "group_left", "group_right")
	keywords         = set("bool", "offset", "and", "or", "unless", "atan2", "inf", "nan")
	aggregations     = set("sum", "avg", "count", "min", "max", "group", "stddev", "stdvar",
		"topk", "bottomk", "quantile", "count_values", "limitk", "limit_ratio")
)

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// closingParen returns the index of the ) that closes the ( at toks[open].
func closingParen(toks []token, open int) (int, error) {
	depth := 0
	for i := open; i < len(toks); i++ {
		switch toks[i].kind {
		case tokLParen:
			depth++
		case tokRParen:
			if depth--; depth == 0 {
				return i, nil
			}
		}
	}
	return 0, fmt.Errorf("unclosed ( at offset %d", toks[open].pos)
}

// matcherName returns the metric name a label matcher list {...} sets, or "".
func matcherName(matchers string) (string, error) {
	toks, err := lex(matchers)
	if err != nil {
		return "", err
	}
	// Matchers are separated by commas; a matcher starts at index 0 or after one.
	for i := 0; i < len(toks); i++ {
		if i > 0 && (toks[i-1].kind != tokOther || toks[i-1].text != ",") {
			continue
		}
		t := toks[i]
		switch {
		case t.kind == tokString && (i+1 == len(toks) || toks[i+1].text == ","):
			return unquote(t.text)
		case t.kind == tokIdent && t.text == "__name__" && i+2 < len(toks) &&
			toks[i+1].text == "=" && toks[i+2].kind == tokString:
			return unquote(toks[i+2].text)
		}
	}
	return "", nil
}

func unquote(s string) (string, error) {
	if s[0] == '\'' {
		// Go has no single-quoted strings: requote with double quotes.
		inner := strings.ReplaceAll(s[1:len(s)-1], `\'`, `'`)
		s = `"` + strings.ReplaceAll(inner, `"`, `\"`) + `"`
	}
	u, err := strconv.Unquote(s)
	if err != nil {
		return "", fmt.Errorf("string %s: %w", s, err)
	}
	return u, nil
}

type tokenKind int

const (
	tokOther tokenKind = iota
	tokIdent
	tokNumber
	tokString
	tokVariable
	tokLParen
	tokRParen
	// tokBraces is a whole label matcher list, tokBrackets a whole range or subquery;
	// text holds what is between the delimiters.
	tokBraces
	tokBrackets
)

type token struct {
	kind tokenKind
	text string
	pos  int
}

func lex(src string) ([]token, error) {
	var toks []token
	for i := 0; i < len(src); {
		c := src[i]
		start := i
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '"' || c == '\'' || c == '`':
			end, err := stringEnd(src, i)
			if err != nil {
				return nil, err
			}
			i = end
			toks = append(toks, token{tokString, src[start:i], start})
		case c == '{' || c == '[':
			end, err := blockEnd(src, i)
			if err != nil {
				return nil, err
			}
			i = end
			kind := tokBraces
			if c == '[' {
				kind = tokBrackets
			}
			toks = append(toks, token{kind, src[start+1 : i-1], start})
		case c == '}' || c == ']':
			return nil, fmt.Errorf("unbalanced %c at offset %d", c, i)
		case c == '(':
			i++
			toks = append(toks, token{tokLParen, "(", start})
		case c == ')':
			i++
			toks = append(toks, token{tokRParen, ")", start})
		case c == '$':
			// Grafana's $name, ${name} and ${name:format}.
			i++
			if i < len(src) && src[i] == '{' {
				end, err := blockEnd(src, i)
				if err != nil {
					return nil, err
				}
				i = end
			} else {
				for i < len(src) && isIdentChar(src[i]) {
					i++
				}
			}
			toks = append(toks, token{tokVariable, src[start:i], start})
		case isIdentStart(c):
			for i < len(src) && isIdentChar(src[i]) {
				i++
			}
			toks = append(toks, token{tokIdent, src[start:i], start})
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			// Numbers, hexadecimal numbers and durations such as 1h30m, with an
			// exponent's sign: 1e-3.
			for i < len(src) && (isIdentChar(src[i]) || src[i] == '.' ||
				(src[i] == '+' || src[i] == '-') && isExponent(src[start:i])) {
				i++
			}
			toks = append(toks, token{tokNumber, src[start:i], start})
		default:
			i++
			toks = append(toks, token{tokOther, src[start:i], start})
		}
	}
	return toks, nil
}

// stringEnd returns the offset after the string literal that starts at src[start].
// Backquoted strings have no escapes.
func stringEnd(src string, start int) (int, error) {
	quote := src[start]
	for i := start + 1; i < len(src); i++ {
		switch {
		case src[i] == '\\' && quote != '`':
			i++
		case src[i] == quote:
			return i + 1, nil
		}
	}
	return 0, fmt.Errorf("unterminated string at offset %d", start)
}

// blockEnd returns the offset after the } or ] that closes the { or [ at src[start],
// skipping strings, which may hold either.
func blockEnd(src string, start int) (int, error) {
	open := src[start]
	closing := byte('}')
	if open == '[' {
		closing = ']'
	}
	depth := 0
	for i := start; i < len(src); i++ {
		switch src[i] {
		case '"', '\'', '`':
			end, err := stringEnd(src, i)
			if err != nil {
				return 0, err
			}
			i = end - 1
		case open:
			depth++
		case closing:
			if depth--; depth == 0 {
				return i + 1, nil
			}
		}
	}
	return 0, fmt.Errorf("unclosed %c at offset %d", open, start)
}

func isExponent(number string) bool {
	if !strings.HasSuffix(number, "e") && !strings.HasSuffix(number, "E") {
		return false
	}
	return strings.Trim(number[:len(number)-1], "0123456789.") == ""
}

func isIdentStart(c byte) bool {
	return c == '_' || c == ':' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isIdentChar(c byte) bool { return isIdentStart(c) || isDigit(c) }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
