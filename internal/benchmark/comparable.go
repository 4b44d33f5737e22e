package benchmark

import (
	"fmt"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// Comparability is whether the results of a run and its baseline can be compared: a
// ratio only means something between runs that did the same work on clusters of the
// same size, over the same network. Storage is not among the parameters: a baseline is
// there to vary it.
type Comparability struct {
	// Differences are the parameters in which the runs differ, in the order of
	// Parameters, this run's value first.
	Differences []v1alpha1.BaselineDifference
	// Flagged are the parameters in which the runs differ that change the figures
	// only in some conditions (the NodeManager pods' requests, on a busy node): the
	// runs are compared, and these are named beside the ratios.
	Flagged []v1alpha1.BaselineDifference
	// Unknown are the parameters that could not be compared: one of the runs has no
	// status.setup (or no status.setup.network), and the spec alone does not say what
	// it ran with; or the runs ran on the same network and only one knows its link
	// rate (network.rate).
	Unknown []string
	// Unrecorded names the runs, of the two, without a status.setup.
	Unrecorded []string
	// NetworkUnrecorded names the runs, of the two, with a status.setup but no
	// network in it: they started before the operator recorded networks (or when
	// their storage could not be resolved).
	NetworkUnrecorded []string
	// RateUnrecorded names the run, of the two, whose network's link rate is not
	// known while the other's is.
	RateUnrecorded []string
	// ResourcesUnrecorded names the runs, of the two, with a status.setup but no
	// NodeManager resources in it: they started before the operator recorded them.
	ResourcesUnrecorded []string
}

// Comparable says whether the runs did the same work.
func (c Comparability) Comparable() bool { return len(c.Differences) == 0 }

// CheckComparable compares what run and baseline, of the same workload, ran: the
// workload's parameters by their effective values, where defaults stand for unset
// fields, and the NodeManagers and the network from their status.setup. A network's
// link rate that only one run knows is unknown rather than different: the ratio is
// given, with a note, since the rate is an annotation someone may have added between
// the runs.
//
// Parameters that only choose which stages run (teraSort.validate, testDFSIO.modes)
// are not compared: they leave the work of the stages both runs have unchanged, and
// only the stages both measured get a ratio. Nor are repetitions, cleanup, deadline
// and queue: the medians of more repetitions measure the same work.
func CheckComparable(run, baseline *v1alpha1.BenchmarkRun) Comparability {
	var c Comparability
	for _, r := range []*v1alpha1.BenchmarkRun{run, baseline} {
		setup := r.Status.Setup
		if setup == nil {
			c.Unrecorded = append(c.Unrecorded, r.Name)
			continue
		}
		if setup.Network == nil {
			c.NetworkUnrecorded = append(c.NetworkUnrecorded, r.Name)
		}
		if setup.NodeManagers.Resources == nil {
			c.ResourcesUnrecorded = append(c.ResourcesUnrecorded, r.Name)
		}
	}
	mine, theirs := parameters(run), parameters(baseline)
	for i, p := range mine {
		b := theirs[i]
		switch {
		case !p.known || !b.known:
			c.Unknown = append(c.Unknown, p.name)
		case p.key != b.key && p.flagOnly:
			c.Flagged = append(c.Flagged, v1alpha1.BaselineDifference{Parameter: p.name, Value: p.text, BaselineValue: b.text})
		case p.key != b.key || (p.rate != b.rate && p.rate > 0 && b.rate > 0):
			c.Differences = append(c.Differences, v1alpha1.BaselineDifference{Parameter: p.name, Value: p.text, BaselineValue: b.text})
		case p.rate != b.rate:
			// The same network, its rate known to one run alone: the annotation may
			// have been added since, or the network moved to other links.
			c.Unknown = append(c.Unknown, p.name+".rate")
			unrecorded := run.Name
			if p.rate > 0 {
				unrecorded = baseline.Name
			}
			c.RateUnrecorded = append(c.RateUnrecorded, unrecorded)
		}
	}
	return c
}

// UnknownBecause says why Unknown could not be compared, such as "BenchmarkRun old
// has no status.setup", each run named by name.
func (c Comparability) UnknownBecause(name func(run string) string) string {
	var why []string
	for _, missing := range []struct {
		runs  []string
		field string
	}{
		{c.Unrecorded, "status.setup"},
		{c.NetworkUnrecorded, "status.setup.network"},
		{c.RateUnrecorded, "status.setup.network.rate"},
		{c.ResourcesUnrecorded, "status.setup.nodeManagers.resources"},
	} {
		names := make([]string, len(missing.runs))
		for i, r := range missing.runs {
			names[i] = name(r)
		}
		switch len(names) {
		case 0:
		case 1:
			why = append(why, names[0]+" has no "+missing.field)
		default:
			why = append(why, strings.Join(names, " and ")+" have no "+missing.field)
		}
	}
	return strings.Join(why, "; ")
}

// CompareRuns compares run with baseline once both have succeeded: their storage, and
// the medians stage by stage when they are comparable. The message is the
// BaselineCompared condition's, which is True exactly when Comparable is.
func CompareRuns(run, baseline *v1alpha1.BenchmarkRun) (*v1alpha1.BaselineComparison, Comparability, string) {
	c := CheckComparable(run, baseline)
	out := &v1alpha1.BaselineComparison{Name: baseline.Name}
	if c.Comparable() {
		w := Workload(&run.Spec)
		out = Compare(baseline.Name, w, run.Status.Summary, baseline.Status.Summary)
	}
	out.Storage, out.BaselineStorage = storageOf(run), storageOf(baseline)
	out.Differences, out.Flagged, out.Unknown = c.Differences, c.Flagged, c.Unknown

	var msg strings.Builder
	if c.Comparable() {
		fmt.Fprintf(&msg, "compared with BenchmarkRun %s, %s vs %s", baseline.Name, storageText(out.Storage), storageText(out.BaselineStorage))
		if out.Ratio != "" {
			fmt.Fprintf(&msg, ": %s throughput %s of the baseline's", HeadlineStage(Workload(&run.Spec)), out.Ratio)
		}
	} else {
		fmt.Fprintf(&msg, "not compared with BenchmarkRun %s, whose parameters differ (this run's first): %s", baseline.Name, differenceText(c.Differences))
	}
	if len(c.Flagged) > 0 {
		fmt.Fprintf(&msg, "; differing in what changes the figures only on a busy node: %s", differenceText(c.Flagged))
	}
	if len(c.Unknown) > 0 {
		fmt.Fprintf(&msg, "; not known, so not compared: %s (%s)", strings.Join(c.Unknown, ", "),
			c.UnknownBecause(func(run string) string { return "BenchmarkRun " + run }))
	}
	return out, c, msg.String()
}

// differenceText is differences for people, this run's value first: "rows 10000000 vs
// 1000000; reduces 2 vs 4".
func differenceText(differences []v1alpha1.BaselineDifference) string {
	texts := make([]string, len(differences))
	for i, d := range differences {
		texts[i] = d.Parameter + " " + d.Value + " vs " + d.BaselineValue
	}
	return strings.Join(texts, "; ")
}

// parameter is one compared parameter of a run: its effective value, as a key that is
// equal for equal values and as text for people.
type parameter struct {
	name      string
	key, text string
	known     bool
	// rate is the network's link rate in bits per second, 0 when not known, which the
	// key leaves out: a rate only one run knows is unknown rather than different.
	rate int64
	// flagOnly: runs that differ in it are flagged rather than refused.
	flagOnly bool
}

func text(name, value string) parameter {
	return parameter{name: name, key: value, text: value, known: true}
}

func quantity(name string, q resource.Quantity) parameter {
	return parameter{name: name, key: strconv.FormatInt(q.Value(), 10), text: q.String(), known: true}
}

func integer[T int32 | int64](name string, v T) parameter {
	return text(name, strconv.FormatInt(int64(v), 10))
}

// parameters are the effective values of what a run ran that change its work, the
// same names in the same order for every run of a workload.
func parameters(run *v1alpha1.BenchmarkRun) []parameter {
	spec, setup := &run.Spec, run.Status.Setup
	var ps []parameter
	switch Workload(spec) {
	case v1alpha1.WorkloadTeraSort:
		w := spec.TeraSort
		var ts v1alpha1.TeraSortSetup
		if setup != nil && setup.TeraSort != nil {
			ts = *setup.TeraSort
		}
		ps = append(ps,
			integer("rows", Rows(w)),
			recorded("maps", w.Maps, ts.Maps),
			recorded("reduces", w.Reduces, ts.Reduces),
			recorded("outputReplication", w.OutputReplication, ts.OutputReplication))
	case v1alpha1.WorkloadTestDFSIO:
		w := spec.TestDFSIO
		ps = append(ps, integer("files", w.Files), quantity("fileSize", w.FileSize))
	case v1alpha1.WorkloadIngest:
		w := spec.Ingest
		// The API defaults parallelPuts to 1; runs stored before it did have 0.
		ps = append(ps, integer("clients", w.Clients), integer("parallelPuts", max(w.ParallelPuts, 1)), quantity("fileSize", w.FileSize))
	case v1alpha1.WorkloadWordCount:
		ps = append(ps, text("inputPath", spec.WordCount.InputPath))
	case v1alpha1.WorkloadGrep:
		w := spec.Grep
		// Without a group, Hadoop's Grep counts group 0, the whole match.
		ps = append(ps, text("inputPath", w.InputPath), text("pattern", w.Pattern), integer("group", ptr.Deref(w.Group, 0)))
	}
	return append(ps, nodeManagers(setup), nodeManagerLimits(setup), nodeManagerRequests(setup), network(setup))
}

// recorded is a TeraSort parameter that the cluster's configuration decides when the
// spec leaves it unset: the spec's value, else the one status.setup recorded.
func recorded(name string, value *int32, ran int32) parameter {
	switch {
	case value != nil:
		return integer(name, *value)
	case ran > 0:
		return integer(name, ran)
	}
	return parameter{name: name}
}

// nodeManagers is the cluster's NodeManagers as YARN saw them, such as
// "3 x 6Gi/4 vcores".
func nodeManagers(setup *v1alpha1.BenchmarkSetup) parameter {
	if setup == nil || setup.NodeManagers.MemoryMiB <= 0 {
		return parameter{name: "NodeManagers"}
	}
	nm := setup.NodeManagers
	return text("NodeManagers", fmt.Sprintf("%d x %s/%d vcores", nm.Replicas, mebibytes(nm.MemoryMiB), nm.VCores))
}

// nodeManagerLimits and nodeManagerRequests are the CPU and memory limits and
// requests of each NodeManager's pod, inside which its YARN containers run, such as
// "cpu 2, memory 6Gi", compared by value ("1" and "1000m" are the same CPU). Limits
// bound the containers on any node (a CPU limit throttles them; the memory limit also
// bounds the page cache), so runs whose limits differ are not comparable. Requests
// only decide a pod's share of a node whose CPU is contended: runs whose requests
// differ are flagged, and compared.
func nodeManagerLimits(setup *v1alpha1.BenchmarkSetup) parameter {
	return podResource("nodeManagerLimits", setup, func(r *v1alpha1.PodResourcesSetup) corev1.ResourceList { return r.Limits })
}

func nodeManagerRequests(setup *v1alpha1.BenchmarkSetup) parameter {
	p := podResource("nodeManagerRequests", setup, func(r *v1alpha1.PodResourcesSetup) corev1.ResourceList { return r.Requests })
	p.flagOnly = true
	return p
}

func podResource(name string, setup *v1alpha1.BenchmarkSetup, of func(*v1alpha1.PodResourcesSetup) corev1.ResourceList) parameter {
	if setup == nil || setup.NodeManagers.Resources == nil {
		return parameter{name: name}
	}
	list := of(setup.NodeManagers.Resources)
	var keys, texts []string
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if q, ok := list[r]; ok {
			keys = append(keys, fmt.Sprintf("%s=%d", r, q.MilliValue()))
			texts = append(texts, string(r)+" "+q.String())
		}
	}
	if len(texts) == 0 {
		texts = []string{"none"}
	}
	return parameter{name: name, key: strings.Join(keys, ","), text: strings.Join(texts, ", "), known: true}
}

// network is what carried the run's data, such as "pod network", "host network, ib0"
// or "analytics/data (net1) at 10Gbit, Ceph public network rook-ceph/public". Runs on
// the same attachment whose rates neither knows are on the same network: there is
// nothing else to tell them apart by.
func network(setup *v1alpha1.BenchmarkSetup) parameter {
	if setup == nil || setup.Network == nil {
		return parameter{name: "network"}
	}
	n := setup.Network
	var data, rate string
	switch {
	case n.HostNetwork:
		data = "host network"
		if n.DataInterface != "" {
			data += ", " + n.DataInterface
		}
	case n.Attachment != nil:
		data = fmt.Sprintf("%s/%s (%s)", n.Attachment.Namespace, n.Attachment.Name, n.DataInterface)
		rate = ", rate unknown"
		if n.Rate != "" {
			rate = " at " + n.Rate
		}
	default:
		data = "pod network"
		if n.DataInterface != "" && n.DataInterface != podInterface {
			data += ", " + n.DataInterface
		}
	}
	var ceph string
	if pub := n.CephPublicNetwork; pub != nil && (n.Attachment == nil || *pub != *n.Attachment) {
		ceph = fmt.Sprintf(", Ceph public network %s/%s", pub.Namespace, pub.Name)
	}
	p := parameter{name: "network", key: data + ceph, text: data + rate + ceph, known: true}
	// A rate recorded is one the operator parsed; should it no longer parse, it counts
	// as not known.
	p.rate, _ = hadoop.ParseLinkRate(n.Rate)
	return p
}

// mebibytes is MiB as a quantity, in Gi when whole.
func mebibytes(mib int64) string {
	if mib%1024 == 0 {
		return strconv.FormatInt(mib/1024, 10) + "Gi"
	}
	return strconv.FormatInt(mib, 10) + "Mi"
}

func storageOf(run *v1alpha1.BenchmarkRun) *v1alpha1.StorageSetup {
	if run.Status.Setup == nil {
		return nil
	}
	s := run.Status.Setup.Storage
	return &s
}

// storageText is s for people, such as "StorageBackend ceph-ec (Rook, raw overhead
// 1.50)".
func storageText(s *v1alpha1.StorageSetup) string {
	if s == nil {
		return "unknown storage"
	}
	var facts []string
	if s.Mode != "" {
		facts = append(facts, s.Mode)
	}
	if s.Pool != nil {
		facts = append(facts, PoolText(s.Pool))
	}
	if s.RawOverhead != "" {
		facts = append(facts, "raw overhead "+s.RawOverhead)
	}
	if len(facts) == 0 {
		return "StorageBackend " + s.Backend
	}
	return fmt.Sprintf("StorageBackend %s (%s)", s.Backend, strings.Join(facts, ", "))
}

// PoolText is how a pool stores data, for people: "replicated, size 3",
// "erasure-coded 2+1", or "pool of unknown kind" when the operator could not read it.
func PoolText(p *v1alpha1.PoolSetup) string {
	switch p.Kind {
	case v1alpha1.PoolKindReplicated:
		return fmt.Sprintf("replicated, size %d", p.Size)
	case v1alpha1.PoolKindErasureCoded:
		return fmt.Sprintf("erasure-coded %d+%d", p.DataChunks, p.CodingChunks)
	}
	return "pool of unknown kind"
}
