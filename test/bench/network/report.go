package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
)

// none fills a cell with nothing to show.
const none = "-"

// writeSummary prints one row per rate, in the order of rates: each repetition's
// throughput, their median, and that median over the slowest rate's.
func writeSummary(w io.Writer, rates []string, repetitions int, results []result) error {
	medians := map[string]int64{}
	slowest := ""
	for _, rate := range rates {
		var values []int64
		for _, r := range results {
			if r.rate == rate && r.measured != nil {
				values = append(values, r.measured.bytesPerSecond)
			}
		}
		if len(values) == 0 {
			continue
		}
		medians[rate] = median(values)
		if slowest == "" || medians[rate] < medians[slowest] {
			slowest = rate
		}
	}

	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	header := []string{"RATE"}
	for i := range repetitions {
		header = append(header, fmt.Sprintf("REPETITION %d", i+1))
	}
	header = append(header, "MEDIAN", "VS SLOWEST")
	if slowest != "" {
		header[len(header)-1] = "VS " + strings.ToUpper(slowest)
	}
	row(tw, header...)
	for _, rate := range rates {
		cells := []string{rate}
		for i := range repetitions {
			cells = append(cells, throughputCell(find(results, slot{rate: rate, repetition: i + 1})))
		}
		m, ok := medians[rate]
		if !ok {
			cells = append(cells, none, none)
		} else {
			cells = append(cells, benchmark.FormatThroughput(m), fmt.Sprintf("%.2fx", float64(m)/float64(medians[slowest])))
		}
		row(tw, cells...)
	}
	return tw.Flush()
}

// writeRuns prints every run in the order it ran: what it moved, what the data
// network's switch received meanwhile, where its clients ran, and what it recorded of
// its network (status.setup.network), then why each failed run failed.
func writeRuns(w io.Writer, results []result) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	row(tw, "#", "RATE", "REP", "BENCHMARKRUN", "THROUGHPUT", "INGESTED", "TIME", "MEDIAN PUT",
		"SWITCH RECEIVED", "PER BYTE INGESTED", "CLIENT NODES", "INTERFACE", "ATTACHMENT", "RECORDED RATE")
	for i, r := range results {
		ingested, took, put, perByte := none, none, none, none
		if m := r.measured; m != nil {
			ingested, took, put = gib(m.bytes), seconds(m.duration), seconds(m.medianPut)
			if r.switchKnown && m.bytes > 0 {
				perByte = fmt.Sprintf("%.2f", float64(r.switchBytes)/float64(m.bytes))
			}
		}
		received := none
		if r.switchKnown {
			received = gib(r.switchBytes)
		}
		nodes := none
		if r.clientNodes > 0 {
			nodes = fmt.Sprint(r.clientNodes)
		}
		iface, attachment, rate := networkCells(r.network)
		row(tw, fmt.Sprint(i+1), r.rate, fmt.Sprint(r.repetition), r.run, throughputCell(&r), ingested, took, put,
			received, perByte, nodes, iface, attachment, rate)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range results {
		if r.failure != "" {
			if _, err := fmt.Fprintf(w, "%s failed: %s\n", r.run, r.failure); err != nil {
				return err
			}
		}
	}
	return nil
}

func row(w io.Writer, cells ...string) {
	fmt.Fprintln(w, strings.Join(cells, "\t"))
}

func find(results []result, s slot) *result {
	i := slices.IndexFunc(results, func(r result) bool { return r.slot == s })
	if i < 0 {
		return nil
	}
	return &results[i]
}

// throughputCell is a run's throughput, "failed", or none for a run that did not run.
func throughputCell(r *result) string {
	switch {
	case r == nil:
		return none
	case r.measured == nil:
		return "failed"
	}
	return benchmark.FormatThroughput(r.measured.bytesPerSecond)
}

// networkCells are the data interface, its attachment and the link rate a run
// recorded.
func networkCells(n *v1alpha1.NetworkSetup) (iface, attachment, rate string) {
	if n == nil {
		return "not recorded", none, none
	}
	iface, attachment, rate = n.DataInterface, none, n.Rate
	if iface == "" {
		iface = none
	}
	if n.Attachment != nil {
		attachment = n.Attachment.Namespace + "/" + n.Attachment.Name
	}
	if rate == "" {
		rate = none
	}
	return iface, attachment, rate
}

// networkText is what a run recorded of its network, in a sentence.
func networkText(n *v1alpha1.NetworkSetup) string {
	if n == nil {
		return "no network"
	}
	iface, attachment, rate := networkCells(n)
	if rate == none {
		return fmt.Sprintf("%s on %s without a rate", iface, attachment)
	}
	return fmt.Sprintf("%s on %s at %s", iface, attachment, rate)
}

// median of values, the mean of the middle two for an even count, as the operator
// takes the medians of a run's repetitions.
func median(values []int64) int64 {
	s := slices.Sorted(slices.Values(values))
	mid := len(s) / 2
	if len(s)%2 == 1 {
		return s[mid]
	}
	return s[mid-1] + (s[mid]-s[mid-1]+1)/2
}

func gib(b int64) string { return fmt.Sprintf("%.2f GiB", float64(b)/(1<<30)) }

func seconds(d time.Duration) string {
	if d <= 0 {
		return none
	}
	return d.Round(100 * time.Millisecond).String()
}
