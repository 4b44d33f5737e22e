package hadoop

import (
	"strings"
	"testing"
)

func TestLinkRate(t *testing.T) {
	for _, tc := range []struct {
		value, want string
		bits        int64
		err         string
	}{
		{value: "", want: ""},
		{value: "10Gbit", want: "10Gbit", bits: 10e9},
		{value: " 1Gbit\n", want: "1Gbit", bits: 1e9},
		{value: "100Mbit", want: "100Mbit", bits: 100e6},
		// As tc writes it, which the local cluster's data-rate takes.
		{value: "10gbit", want: "10gbit", bits: 10e9},
		{value: "25 Gb/s", want: "25 Gb/s", bits: 25e9},
		{value: "100Mbps", want: "100Mbps", bits: 100e6},
		{value: "10GbE", want: "10GbE", bits: 10e9},
		{value: "200Gbit/s", want: "200Gbit/s", bits: 200e9},
		{value: "2.5Gbit", want: "2.5Gbit", bits: 2.5e9},
		{value: "40G", want: "40G", bits: 40e9},
		{value: "1Tbit", want: "1Tbit", bits: 1e12},
		{value: "10GB", err: `hadoopceph.io/link-rate "10GB" counts bytes (B)`},
		{value: "fast", err: `hadoopceph.io/link-rate "fast" is not a link rate: write a number, k, M, G or T, and bit, such as 10Gbit`},
		{value: "10", err: "is not a link rate"},
		{value: "Gbit", err: "is not a link rate"},
		{value: "10 Gbit per second", err: "is not a link rate"},
		{value: "0Gbit", err: "at least 1 bit per second"},
		{value: "99999999999999999999999Tbit", err: "beyond any link"},
		{value: strings.Repeat("1", 30) + "Gbit", err: "longer than 32 characters"},
	} {
		t.Run(tc.value, func(t *testing.T) {
			got, err := LinkRate(map[string]string{LinkRateAnnotation: tc.value})
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("error %v, want one that says %q", err, tc.err)
			case got != tc.want:
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if tc.want == "" {
				return
			}
			if bits, err := ParseLinkRate(got); err != nil || bits != tc.bits {
				t.Errorf("ParseLinkRate(%q) = %d, %v; want %d", got, bits, err, tc.bits)
			}
		})
	}
	if got, err := LinkRate(nil); got != "" || err != nil {
		t.Errorf("no annotations: got %q, %v", got, err)
	}
}
