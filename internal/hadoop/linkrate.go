package hadoop

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// LinkRateAnnotation on a NetworkAttachmentDefinition gives the rate of the links its
// network runs on, such as 10Gbit. Neither the operator nor Multus can see it (a
// macvlan or SR-IOV interface reports what the CNI made of it, not the wire), so
// whoever sets the network up, or the script that limits it, writes it there, and
// BenchmarkRuns record it with the network they ran on.
const LinkRateAnnotation = "hadoopceph.io/link-rate"

// maxLinkRate is the longest rate recorded, as status.setup.network.rate takes it.
const maxLinkRate = 32

// linkRateForm is a number, a decimal prefix and a unit of bits, loosely: "10Gbit",
// "25 Gb/s", "100Mbps", "10GbE", tc's "1gbit", "40G". Only bytes are refused, since
// "10GB" would be read as bits eight times too slow.
var linkRateForm = regexp.MustCompile(`^([0-9]+(?:\.[0-9]+)?) ?([kmgt]?)(bits?(?:/s)?|bps|b/s|b|be)?$`)

var ratePrefixes = map[string]float64{"": 1, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12}

// LinkRate is the LinkRateAnnotation of annotations, as given but for surrounding
// blanks; "" when there is none, or an error when it is not a rate.
func LinkRate(annotations map[string]string) (string, error) {
	rate := strings.TrimSpace(annotations[LinkRateAnnotation])
	if rate == "" {
		return "", nil
	}
	if _, err := ParseLinkRate(rate); err != nil {
		return "", fmt.Errorf("%s %q %w", LinkRateAnnotation, rate, err)
	}
	return rate, nil
}

// ParseLinkRate is a link rate in bits per second. Prefixes are decimal, as links are
// counted, and in either case (m is mega: no link runs at millibits). The error says
// what is wrong and the form a rate takes, after the value it is about.
func ParseLinkRate(rate string) (int64, error) {
	if len(rate) > maxLinkRate {
		return 0, fmt.Errorf("is longer than %d characters: write a rate such as 10Gbit, 1Gbit or 100Mbit", maxLinkRate)
	}
	if strings.Contains(rate, "B") {
		return 0, fmt.Errorf("counts bytes (B): write the link's rate in bits, such as 10Gbit, 1Gbit or 100Mbit")
	}
	m := linkRateForm.FindStringSubmatch(strings.ToLower(rate))
	if m == nil || m[2] == "" && m[3] == "" {
		return 0, fmt.Errorf("is not a link rate: write a number, k, M, G or T, and bit, such as 10Gbit, 1Gbit or 100Mbit")
	}
	n, err := strconv.ParseFloat(m[1], 64)
	bits := n * ratePrefixes[m[2]]
	switch {
	case err != nil || bits < 1:
		return 0, fmt.Errorf("is not a link rate: it must be at least 1 bit per second, such as 10Gbit")
	case bits > 1e18:
		return 0, fmt.Errorf("is beyond any link: write a rate such as 10Gbit, 1Gbit or 100Mbit")
	}
	return int64(math.Round(bits)), nil
}
