package benchmark

import (
	"fmt"
	"math/big"
	"strings"
)

// Milli is a non-negative decimal number in thousandths. Rates and ratios stay
// integers all the way from the tools' text to the API, which has no floating point.
type Milli int64

var (
	thousand = big.NewRat(1000, 1)
	half     = big.NewRat(1, 2)
	maxMilli = new(big.Rat).SetInt64(1 << 62)
)

// ParseMilli reads a decimal as Java prints numbers: "17.13", "16", "17,13" (a locale
// with a decimal comma) or "3.4526698300124393E-4" (a double printed unformatted, as
// old TestDFSIO releases did), rounding half up to thousandths.
func ParseMilli(s string) (Milli, error) {
	s = strings.TrimSpace(s)
	text := s
	if !strings.Contains(text, ".") {
		text = strings.Replace(text, ",", ".", 1)
	}
	r, ok := new(big.Rat).SetString(text)
	if !ok || r.Sign() < 0 || strings.Trim(text, "0123456789.eE+-") != "" {
		return 0, fmt.Errorf("%q is not a non-negative decimal number", s)
	}
	r.Mul(r, thousand).Add(r, half)
	if r.Cmp(maxMilli) > 0 {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return Milli(new(big.Int).Quo(r.Num(), r.Denom()).Int64()), nil
}

// String has two decimals, rounded half up: "17.13".
func (m Milli) String() string {
	hundredths := (int64(m) + 5) / 10
	return fmt.Sprintf("%d.%02d", hundredths/100, hundredths%100)
}

// ratio is a/b in thousandths, rounded half up; 0 when b is 0.
func ratio(a, b int64) Milli {
	if b <= 0 || a < 0 {
		return 0
	}
	return Milli(mulDiv(a, 1000, b))
}

// mulDiv is a*m/d rounded half up, for non-negative a and positive m and d, without
// overflowing for byte counts up to petabytes.
func mulDiv(a, m, d int64) int64 {
	q, r := a/d, a%d
	return q*m + (r*m+d/2)/d
}
