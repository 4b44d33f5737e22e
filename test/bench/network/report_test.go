package main

import (
	"strings"
	"testing"
	"time"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// sampleResults are runs of two repetitions at three rates, in the order the schedule
// runs them. The figures are made up for the test; they are not measurements.
func sampleResults() []result {
	public := &v1alpha1.NetworkAttachmentReference{Namespace: "rook-ceph", Name: "ceph-public"}
	network := func(rate string) *v1alpha1.NetworkSetup {
		return &v1alpha1.NetworkSetup{DataInterface: "net1", Attachment: public, CephPublicNetwork: public, Rate: rate}
	}
	const ingested = 1536 << 20
	measured := func(mibPerSecond float64) *measurement {
		bps := int64(mibPerSecond * (1 << 20))
		return &measurement{
			bytes: ingested, bytesPerSecond: bps, puts: 6,
			duration:  time.Duration(float64(ingested) / float64(bps) * float64(time.Second)),
			medianPut: time.Duration(float64(ingested) / float64(bps) * float64(time.Second) * 0.8),
		}
	}
	run := func(rate string, rep int, mibPerSecond float64, recorded string) result {
		r := result{slot: slot{rate: rate, repetition: rep}, run: runName(slot{rate: rate, repetition: rep}),
			switchBytes: ingested * 5 / 3, switchKnown: true, clientNodes: 3, network: network(recorded)}
		if mibPerSecond > 0 {
			r.measured = measured(mibPerSecond)
		} else {
			r.failure = "the run is Failed, not Succeeded (StageFailed: stage ingest of repetition 1 failed: 1 of 6 puts failed)"
		}
		return r
	}
	return []result{
		run("100mbit", 1, 20.5, "100Mbit"),
		run("1gbit", 1, 180.25, "1Gbit"),
		run("unlimited", 1, 240, ""),
		run("1gbit", 2, 0, "1Gbit"),
		run("unlimited", 2, 250, ""),
		run("100mbit", 2, 21.5, "100Mbit"),
	}
}

func TestWriteSummary(t *testing.T) {
	var b strings.Builder
	if err := writeSummary(&b, []string{"100mbit", "1gbit", "unlimited"}, 3, sampleResults()); err != nil {
		t.Fatal(err)
	}
	want := `RATE       REPETITION 1  REPETITION 2  REPETITION 3  MEDIAN        VS 100MBIT
100mbit    20.50 MiB/s   21.50 MiB/s   -             21.00 MiB/s   1.00x
1gbit      180.25 MiB/s  failed        -             180.25 MiB/s  8.58x
unlimited  240.00 MiB/s  250.00 MiB/s  -             245.00 MiB/s  11.67x
`
	if got := b.String(); got != want {
		t.Errorf("summary:\n%s\nwant:\n%s", got, want)
	}
}

func TestWriteSummaryWithoutMeasurements(t *testing.T) {
	var b strings.Builder
	failed := sampleResults()[3]
	if err := writeSummary(&b, []string{"1gbit"}, 2, []result{failed}); err != nil {
		t.Fatal(err)
	}
	want := `RATE   REPETITION 1  REPETITION 2  MEDIAN  VS SLOWEST
1gbit  -             failed        -       -
`
	if got := b.String(); got != want {
		t.Errorf("summary:\n%s\nwant:\n%s", got, want)
	}
}

func TestWriteRuns(t *testing.T) {
	var b strings.Builder
	results := sampleResults()
	results[2].switchKnown = false
	results[5].network = nil
	if err := writeRuns(&b, results); err != nil {
		t.Fatal(err)
	}
	want := `#  RATE       REP  BENCHMARKRUN         THROUGHPUT    INGESTED  TIME     MEDIAN PUT  SWITCH RECEIVED  PER BYTE INGESTED  CLIENT NODES  INTERFACE     ATTACHMENT             RECORDED RATE
1  100mbit    1    ingest-100mbit-r1    20.50 MiB/s   1.50 GiB  1m14.9s  59.9s       2.50 GiB         1.67               3             net1          rook-ceph/ceph-public  100Mbit
2  1gbit      1    ingest-1gbit-r1      180.25 MiB/s  1.50 GiB  8.5s     6.8s        2.50 GiB         1.67               3             net1          rook-ceph/ceph-public  1Gbit
3  unlimited  1    ingest-unlimited-r1  240.00 MiB/s  1.50 GiB  6.4s     5.1s        -                -                  3             net1          rook-ceph/ceph-public  -
4  1gbit      2    ingest-1gbit-r2      failed        -         -        -           2.50 GiB         -                  3             net1          rook-ceph/ceph-public  1Gbit
5  unlimited  2    ingest-unlimited-r2  250.00 MiB/s  1.50 GiB  6.1s     4.9s        2.50 GiB         1.67               3             net1          rook-ceph/ceph-public  -
6  100mbit    2    ingest-100mbit-r2    21.50 MiB/s   1.50 GiB  1m11.4s  57.2s       2.50 GiB         1.67               3             not recorded  -                      -
ingest-1gbit-r2 failed: the run is Failed, not Succeeded (StageFailed: stage ingest of repetition 1 failed: 1 of 6 puts failed)
`
	if got := b.String(); got != want {
		t.Errorf("runs:\n%s\nwant:\n%s", got, want)
	}
}

func TestNetworkText(t *testing.T) {
	public := &v1alpha1.NetworkAttachmentReference{Namespace: "rook-ceph", Name: "ceph-public"}
	for _, tc := range []struct {
		n    *v1alpha1.NetworkSetup
		want string
	}{
		{n: &v1alpha1.NetworkSetup{DataInterface: "net1", Attachment: public, Rate: "10Gbit"}, want: "net1 on rook-ceph/ceph-public at 10Gbit"},
		{n: &v1alpha1.NetworkSetup{DataInterface: "net1", Attachment: public}, want: "net1 on rook-ceph/ceph-public without a rate"},
		{n: nil, want: "no network"},
	} {
		if got := networkText(tc.n); got != tc.want {
			t.Errorf("networkText(%+v) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		values []int64
		want   int64
	}{
		{values: []int64{5}, want: 5},
		{values: []int64{9, 1, 5}, want: 5},
		{values: []int64{4, 1}, want: 3},
		{values: []int64{1, 2, 3, 10}, want: 3},
	} {
		if got := median(tc.values); got != tc.want {
			t.Errorf("median(%v) = %d, want %d", tc.values, got, tc.want)
		}
	}
}
