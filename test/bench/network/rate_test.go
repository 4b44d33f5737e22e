package main

import (
	"reflect"
	"testing"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/localcluster"
)

func TestParseRates(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{in: defaultRates, want: []string{"100mbit", "1gbit", "10gbit", "unlimited"}},
		{in: "1gbit,10gbit, unlimited", want: []string{"1gbit", "10gbit", "unlimited"}},
		{in: "  1GBIT\t500kbit ", want: []string{"1gbit", "500kbit"}},
		{in: "", wantErr: true},
		{in: " , ", wantErr: true},
		// tc's form only: local-cluster passes the rate to tc as it is.
		{in: "1Gbit/s", wantErr: true},
		{in: "10GB", wantErr: true},
		{in: "0gbit", wantErr: true},
		{in: "1.5gbit", wantErr: true},
		{in: "fast", wantErr: true},
		// The same rate twice, however written.
		{in: "1gbit 1000mbit", wantErr: true},
		{in: "unlimited unlimited", wantErr: true},
	} {
		got, err := parseRates(tc.in)
		if (err != nil) != tc.wantErr {
			t.Errorf("parseRates(%q): error %v, want an error: %v", tc.in, err, tc.wantErr)
			continue
		}
		if !tc.wantErr && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseRates(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestLinkRate(t *testing.T) {
	for rate, want := range map[string]string{
		"1gbit":     "1Gbit",
		"10gbit":    "10Gbit",
		"100mbit":   "100Mbit",
		"500kbit":   "500kbit",
		"unlimited": "",
	} {
		got := linkRate(rate)
		if got != want {
			t.Errorf("linkRate(%q) = %q, want %q", rate, got, want)
			continue
		}
		if got == "" {
			continue
		}
		// The operator records the annotation only when it reads as the same rate.
		bits, err := hadoop.ParseLinkRate(got)
		tcBits, _ := localcluster.ParseDataRate(rate)
		if err != nil || bits != tcBits {
			t.Errorf("the operator reads %q as %d bit/s (%v), tc %q as %d", got, bits, err, rate, tcBits)
		}
	}
}

func TestSchedule(t *testing.T) {
	rates := []string{"100mbit", "1gbit", "10gbit", "unlimited"}
	var got []string
	for _, s := range schedule(rates, 4) {
		got = append(got, runName(s))
	}
	want := []string{
		"ingest-100mbit-r1", "ingest-1gbit-r1", "ingest-10gbit-r1", "ingest-unlimited-r1",
		"ingest-1gbit-r2", "ingest-10gbit-r2", "ingest-unlimited-r2", "ingest-100mbit-r2",
		"ingest-10gbit-r3", "ingest-unlimited-r3", "ingest-100mbit-r3", "ingest-1gbit-r3",
		"ingest-unlimited-r4", "ingest-100mbit-r4", "ingest-1gbit-r4", "ingest-10gbit-r4",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("schedule:\n got %q\nwant %q", got, want)
	}
	// With as many repetitions as rates, each rate runs once in each position.
	positions := map[string]map[int]bool{}
	for i, s := range schedule(rates, len(rates)) {
		if positions[s.rate] == nil {
			positions[s.rate] = map[int]bool{}
		}
		positions[s.rate][i%len(rates)] = true
	}
	for _, rate := range rates {
		if len(positions[rate]) != len(rates) {
			t.Errorf("%s runs in positions %v, want each of %d once", rate, positions[rate], len(rates))
		}
	}
	if n := len(schedule([]string{"1gbit"}, 3)); n != 3 {
		t.Errorf("one rate, three repetitions: %d runs", n)
	}
}

func TestRunNamesAreValid(t *testing.T) {
	// The API takes names of at most 46 characters: a-z, 0-9 and '-', starting with a
	// letter.
	for _, s := range schedule([]string{"100mbit", "999999gbit", "unlimited"}, 10) {
		name := runName(s)
		if len(name) > 46 {
			t.Errorf("%s is longer than 46 characters", name)
		}
		for _, r := range name {
			if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' {
				t.Errorf("%s has %q", name, r)
			}
		}
	}
}

func TestLinkRateShown(t *testing.T) {
	public := v1alpha1.AttachmentLinkRate{Namespace: "rook-ceph", Name: "ceph-public", Rate: "1Gbit"}
	other := v1alpha1.AttachmentLinkRate{Namespace: "bench-network", Name: "ceph-public", Rate: "10Gbit"}
	for _, tc := range []struct {
		name  string
		rates []v1alpha1.AttachmentLinkRate
		want  string
		shown bool
	}{
		{name: "the rate asked for", rates: []v1alpha1.AttachmentLinkRate{other, public}, want: "1Gbit", shown: true},
		{name: "the rate before", rates: []v1alpha1.AttachmentLinkRate{public}, want: "10Gbit"},
		{name: "not yet listed", rates: []v1alpha1.AttachmentLinkRate{other}, want: "1Gbit"},
		{name: "unlimited, not listed", rates: []v1alpha1.AttachmentLinkRate{other}, want: "", shown: true},
		{name: "unlimited, still listed", rates: []v1alpha1.AttachmentLinkRate{public}, want: ""},
		{name: "unlimited, nothing listed", want: "", shown: true},
	} {
		if got := linkRateShown(v1alpha1.NetworkStatus{LinkRates: tc.rates}, tc.want); got != tc.shown {
			t.Errorf("%s: linkRateShown = %v, want %v", tc.name, got, tc.shown)
		}
	}
}
