package benchmark

import (
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// setup is a recorded status.setup: replicas NodeManagers of memoryMiB and vcores, in
// pods of the API's default resources, on backend, TeraSort with Hadoop's defaults.
func setup(backend, mode string, replicas int32, memoryMiB int64, vcores int32) *v1alpha1.BenchmarkSetup {
	return &v1alpha1.BenchmarkSetup{
		Cluster: backend + "-cluster",
		Storage: v1alpha1.StorageSetup{Backend: backend, Mode: mode, RawOverhead: "3"},
		NodeManagers: v1alpha1.NodeManagersSetup{Replicas: replicas, MemoryMiB: memoryMiB, VCores: vcores,
			Resources: podResourcesOf("2", "4Gi", "", "4Gi")},
		Repetitions: 1,
		TeraSort:    &v1alpha1.TeraSortSetup{Maps: 2, Reduces: 1, OutputReplication: 3},
		Network:     &v1alpha1.NetworkSetup{DataInterface: "eth0"},
	}
}

// podResourcesOf is a NodeManager container's requests and limits of cpu and memory,
// "" for none.
func podResourcesOf(cpuRequest, memoryRequest, cpuLimit, memoryLimit string) *v1alpha1.PodResourcesSetup {
	list := func(cpu, memory string) corev1.ResourceList {
		l := corev1.ResourceList{}
		if cpu != "" {
			l[corev1.ResourceCPU] = resource.MustParse(cpu)
		}
		if memory != "" {
			l[corev1.ResourceMemory] = resource.MustParse(memory)
		}
		if len(l) == 0 {
			return nil
		}
		return l
	}
	return &v1alpha1.PodResourcesSetup{Requests: list(cpuRequest, memoryRequest), Limits: list(cpuLimit, memoryLimit)}
}

// withResources is s with NodeManager pods of r (nil: not recorded).
func withResources(s *v1alpha1.BenchmarkSetup, r *v1alpha1.PodResourcesSetup) *v1alpha1.BenchmarkSetup {
	s = s.DeepCopy()
	s.NodeManagers.Resources = r
	return s
}

// onNetwork is s on net.
func onNetwork(s *v1alpha1.BenchmarkSetup, net *v1alpha1.NetworkSetup) *v1alpha1.BenchmarkSetup {
	s = s.DeepCopy()
	s.Network = net
	return s
}

// dataNetwork is the network of the NetworkAttachmentDefinition analytics/<name> on net1
// at rate ("" for unknown).
func dataNetwork(name, rate string) *v1alpha1.NetworkSetup {
	return &v1alpha1.NetworkSetup{DataInterface: "net1", Attachment: &v1alpha1.NetworkAttachmentReference{Namespace: "analytics", Name: name}, Rate: rate}
}

// succeeded is a run that succeeded with spec and setup, its headline stage measured
// at bytesPerSecond.
func succeeded(name string, spec v1alpha1.BenchmarkRunSpec, s *v1alpha1.BenchmarkSetup, bytesPerSecond int64) *v1alpha1.BenchmarkRun {
	stages := make([]v1alpha1.StageSummary, 0, 3)
	for _, st := range MeasuredStages(&spec) {
		stages = append(stages, v1alpha1.StageSummary{Stage: st, Duration: dur(10), BytesPerSecond: bytesPerSecond})
	}
	return &v1alpha1.BenchmarkRun{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       spec,
		Status: v1alpha1.BenchmarkRunStatus{
			Phase:   v1alpha1.BenchmarkPhaseSucceeded,
			Setup:   s,
			Summary: &v1alpha1.BenchmarkSummary{Repetitions: 1, Stages: stages},
		},
	}
}

func teraSortRows(rows int64, mutate ...func(*v1alpha1.TeraSortWorkload)) v1alpha1.BenchmarkRunSpec {
	w := &v1alpha1.TeraSortWorkload{Rows: ptr.To(rows)}
	for _, m := range mutate {
		m(w)
	}
	return v1alpha1.BenchmarkRunSpec{TeraSort: w}
}

func diff(parameter, value, baseline string) v1alpha1.BaselineDifference {
	return v1alpha1.BaselineDifference{Parameter: parameter, Value: value, BaselineValue: baseline}
}

func TestCheckComparable(t *testing.T) {
	ceph := setup("ceph", "External", 3, 6144, 4)
	hdfs := setup("hdfs", "HDFS", 3, 6144, 4)
	withTeraSort := func(s *v1alpha1.BenchmarkSetup, ts v1alpha1.TeraSortSetup) *v1alpha1.BenchmarkSetup {
		s = s.DeepCopy()
		s.TeraSort = &ts
		return s
	}
	dfsio := func(files int32, size string, modes ...v1alpha1.DFSIOMode) v1alpha1.BenchmarkRunSpec {
		return v1alpha1.BenchmarkRunSpec{TestDFSIO: &v1alpha1.TestDFSIOWorkload{Files: files, FileSize: resource.MustParse(size), Modes: modes}}
	}
	ingest := func(clients, puts int32, size string) v1alpha1.BenchmarkRunSpec {
		return v1alpha1.BenchmarkRunSpec{Ingest: &v1alpha1.IngestWorkload{Clients: clients, ParallelPuts: puts, FileSize: resource.MustParse(size)}}
	}
	grep := func(path, pattern string, group *int32) v1alpha1.BenchmarkRunSpec {
		return v1alpha1.BenchmarkRunSpec{Grep: &v1alpha1.GrepWorkload{InputPath: path, Pattern: pattern, Group: group}}
	}
	wordCount := func(path string) v1alpha1.BenchmarkRunSpec {
		return v1alpha1.BenchmarkRunSpec{WordCount: &v1alpha1.WordCountWorkload{InputPath: path}}
	}

	publicNetwork := &v1alpha1.NetworkAttachmentReference{Namespace: "rook-ceph", Name: "public"}
	withCeph := func(net *v1alpha1.NetworkSetup) *v1alpha1.NetworkSetup {
		net = net.DeepCopy()
		net.CephPublicNetwork = publicNetwork
		return net
	}

	cases := []struct {
		name                    string
		run, baseline           v1alpha1.BenchmarkRunSpec
		runSetup, baselineSetup *v1alpha1.BenchmarkSetup
		differences, flagged    []v1alpha1.BaselineDifference
		unknown, unrecorded     []string
		networkUnrecorded       []string
		rateUnrecorded          []string
		resourcesUnrecorded     []string
		runReps, baselineReps   int32
	}{{
		name: "the same TeraSort on other storage", run: teraSortRows(1e7), baseline: teraSortRows(1e7),
		runSetup: ceph, baselineSetup: hdfs,
	}, {
		name:     "size resolves to rows",
		run:      v1alpha1.BenchmarkRunSpec{TeraSort: &v1alpha1.TeraSortWorkload{Size: ptr.To(resource.MustParse("1G"))}},
		baseline: teraSortRows(1e7), runSetup: ceph, baselineSetup: ceph,
	}, {
		name: "unset parameters compare by what they ran with",
		run: teraSortRows(1e7, func(w *v1alpha1.TeraSortWorkload) {
			w.Maps, w.Reduces, w.OutputReplication = ptr.To[int32](2), ptr.To[int32](1), ptr.To[int32](3)
		}),
		baseline: teraSortRows(1e7), runSetup: ceph, baselineSetup: hdfs,
	}, {
		name: "validate only adds a stage after the sort",
		run:  teraSortRows(1e7, func(w *v1alpha1.TeraSortWorkload) { w.Validate = ptr.To(false) }), baseline: teraSortRows(1e7),
		runSetup: ceph, baselineSetup: hdfs,
	}, {
		name:     "rows, reduces and NodeManagers differ",
		run:      teraSortRows(1e7, func(w *v1alpha1.TeraSortWorkload) { w.Reduces = ptr.To[int32](2) }),
		baseline: teraSortRows(1e6, func(w *v1alpha1.TeraSortWorkload) { w.Reduces = ptr.To[int32](4) }),
		runSetup: ceph, baselineSetup: setup("hdfs", "HDFS", 1, 6144, 4),
		differences: []v1alpha1.BaselineDifference{
			diff("rows", "10000000", "1000000"), diff("reduces", "2", "4"),
			diff("NodeManagers", "3 x 6Gi/4 vcores", "1 x 6Gi/4 vcores"),
		},
	}, {
		name: "NodeManager memory and vcores differ",
		run:  teraSortRows(1e7), baseline: teraSortRows(1e7),
		runSetup: ceph, baselineSetup: setup("hdfs", "HDFS", 3, 5632, 2),
		differences: []v1alpha1.BaselineDifference{diff("NodeManagers", "3 x 6Gi/4 vcores", "3 x 5632Mi/2 vcores")},
	}, {
		name: "a cluster's configuration changed what an unset parameter ran with",
		run:  teraSortRows(1e7), baseline: teraSortRows(1e7),
		runSetup: withTeraSort(ceph, v1alpha1.TeraSortSetup{Maps: 8, Reduces: 1, OutputReplication: 1}), baselineSetup: hdfs,
		differences: []v1alpha1.BaselineDifference{diff("maps", "8", "2"), diff("outputReplication", "1", "3")},
	}, {
		name:     "a baseline from before setups: what the specs say is compared, the rest is unknown",
		run:      teraSortRows(1e7, func(w *v1alpha1.TeraSortWorkload) { w.Maps = ptr.To[int32](4) }),
		baseline: teraSortRows(1e7, func(w *v1alpha1.TeraSortWorkload) { w.Maps = ptr.To[int32](4) }),
		runSetup: ceph,
		unknown:  []string{"reduces", "outputReplication", "NodeManagers", "nodeManagerLimits", "nodeManagerRequests", "network"}, unrecorded: []string{"baseline"},
	}, {
		name: "a difference the specs show is found without setups",
		run:  teraSortRows(1e7), baseline: teraSortRows(1e6),
		differences: []v1alpha1.BaselineDifference{diff("rows", "10000000", "1000000")},
		unknown:     []string{"maps", "reduces", "outputReplication", "NodeManagers", "nodeManagerLimits", "nodeManagerRequests", "network"}, unrecorded: []string{"run", "baseline"},
	}, {
		name: "TestDFSIO sizes compare by value; modes choose stages",
		run:  dfsio(4, "1Gi", v1alpha1.DFSIOWrite), baseline: dfsio(4, "1024Mi"), runSetup: ceph, baselineSetup: hdfs,
	}, {
		name: "TestDFSIO files and file size differ", run: dfsio(4, "1Gi"), baseline: dfsio(8, "512Mi"), runSetup: ceph, baselineSetup: hdfs,
		differences: []v1alpha1.BaselineDifference{diff("files", "4", "8"), diff("fileSize", "1Gi", "512Mi")},
	}, {
		name: "ingest's unset parallelPuts is 1", run: ingest(3, 1, "1Gi"), baseline: ingest(3, 0, "1Gi"), runSetup: ceph, baselineSetup: hdfs,
	}, {
		name: "ingest differs", run: ingest(3, 2, "1Gi"), baseline: ingest(6, 2, "1G"), runSetup: ceph, baselineSetup: hdfs,
		differences: []v1alpha1.BaselineDifference{diff("clients", "3", "6"), diff("fileSize", "1Gi", "1G")},
	}, {
		name: "grep without a group counts group 0", run: grep("/d", "a+", nil), baseline: grep("/d", "a+", ptr.To[int32](0)),
		runSetup: ceph, baselineSetup: hdfs,
	}, {
		name: "grep differs", run: grep("/d", "a+", ptr.To[int32](1)), baseline: grep("/e", "b+", nil), runSetup: ceph, baselineSetup: hdfs,
		differences: []v1alpha1.BaselineDifference{diff("inputPath", "/d", "/e"), diff("pattern", "a+", "b+"), diff("group", "1", "0")},
	}, {
		name: "wordCount reads other input", run: wordCount("/a"), baseline: wordCount("/b"), runSetup: ceph, baselineSetup: ceph,
		differences: []v1alpha1.BaselineDifference{diff("inputPath", "/a", "/b")},
	}, {
		name: "repetitions do not change the work", run: wordCount("/a"), baseline: wordCount("/a"),
		runSetup: ceph, baselineSetup: hdfs, runReps: 5, baselineReps: 1,
	}, {
		name: "the pod network, eth0 named or not", run: wordCount("/a"), baseline: wordCount("/a"),
		runSetup: ceph, baselineSetup: onNetwork(hdfs, &v1alpha1.NetworkSetup{}),
	}, {
		name: "a data attachment against the pod network", run: grep("/d", "a+", nil), baseline: grep("/d", "a+", nil),
		runSetup: onNetwork(ceph, dataNetwork("data", "10Gbit")), baselineSetup: hdfs,
		differences: []v1alpha1.BaselineDifference{diff("network", "analytics/data (net1) at 10Gbit", "pod network")},
	}, {
		name: "other attachments", run: teraSortRows(1e7), baseline: teraSortRows(1e7),
		runSetup: onNetwork(ceph, dataNetwork("data", "")), baselineSetup: onNetwork(hdfs, dataNetwork("tengig", "")),
		differences: []v1alpha1.BaselineDifference{diff("network", "analytics/data (net1), rate unknown", "analytics/tengig (net1), rate unknown")},
	}, {
		name: "the same attachment at other rates", run: teraSortRows(1e7), baseline: teraSortRows(1e7),
		runSetup: onNetwork(ceph, dataNetwork("data", "10Gbit")), baselineSetup: onNetwork(hdfs, dataNetwork("data", "1Gbit")),
		differences: []v1alpha1.BaselineDifference{diff("network", "analytics/data (net1) at 10Gbit", "analytics/data (net1) at 1Gbit")},
	}, {
		name: "rates compare by value", run: teraSortRows(1e7), baseline: teraSortRows(1e7),
		runSetup: onNetwork(ceph, dataNetwork("data", "10Gbit")), baselineSetup: onNetwork(hdfs, dataNetwork("data", "10000Mbit")),
	}, {
		name: "the same attachment, its rate known to neither", run: teraSortRows(1e7), baseline: teraSortRows(1e7),
		runSetup: onNetwork(ceph, dataNetwork("data", "")), baselineSetup: onNetwork(hdfs, dataNetwork("data", "")),
	}, {
		name: "the same attachment, its rate known to the baseline alone", run: teraSortRows(1e7), baseline: teraSortRows(1e7),
		runSetup: onNetwork(ceph, dataNetwork("data", "")), baselineSetup: onNetwork(hdfs, dataNetwork("data", "1Gbit")),
		unknown: []string{"network.rate"}, rateUnrecorded: []string{"run"},
	}, {
		name: "the same attachment, its rate known to the run alone", run: teraSortRows(1e7), baseline: teraSortRows(1e7),
		runSetup: onNetwork(ceph, dataNetwork("data", "10Gbit")), baselineSetup: onNetwork(hdfs, dataNetwork("data", "")),
		unknown: []string{"network.rate"}, rateUnrecorded: []string{"baseline"},
	}, {
		name: "Ceph's public network against none", run: wordCount("/a"), baseline: wordCount("/a"),
		runSetup: onNetwork(ceph, withCeph(dataNetwork("data", "10Gbit"))), baselineSetup: onNetwork(hdfs, dataNetwork("data", "10Gbit")),
		differences: []v1alpha1.BaselineDifference{diff("network", "analytics/data (net1) at 10Gbit, Ceph public network rook-ceph/public", "analytics/data (net1) at 10Gbit")},
	}, {
		name: "the data interface on Ceph's public network", run: wordCount("/a"), baseline: wordCount("/a"),
		runSetup:      onNetwork(ceph, &v1alpha1.NetworkSetup{DataInterface: "net1", Attachment: publicNetwork, CephPublicNetwork: publicNetwork, Rate: "25Gbit"}),
		baselineSetup: onNetwork(hdfs, withCeph(&v1alpha1.NetworkSetup{DataInterface: "eth0"})),
		differences:   []v1alpha1.BaselineDifference{diff("network", "rook-ceph/public (net1) at 25Gbit", "pod network, Ceph public network rook-ceph/public")},
	}, {
		name: "the host's network on other interfaces", run: wordCount("/a"), baseline: wordCount("/a"),
		runSetup:      onNetwork(ceph, &v1alpha1.NetworkSetup{HostNetwork: true, DataInterface: "ib0"}),
		baselineSetup: onNetwork(hdfs, &v1alpha1.NetworkSetup{HostNetwork: true}),
		differences:   []v1alpha1.BaselineDifference{diff("network", "host network, ib0", "host network")},
	}, {
		name: "a baseline recorded before networks were", run: wordCount("/a"), baseline: wordCount("/a"),
		runSetup: ceph, baselineSetup: onNetwork(hdfs, nil),
		unknown: []string{"network"}, networkUnrecorded: []string{"baseline"},
	}, {
		name: "NodeManager pods of other limits, YARN offered the same", run: teraSortRows(1e7), baseline: teraSortRows(1e7),
		runSetup: ceph, baselineSetup: withResources(hdfs, podResourcesOf("2", "4Gi", "1", "8Gi")),
		differences: []v1alpha1.BaselineDifference{diff("nodeManagerLimits", "memory 4Gi", "cpu 1, memory 8Gi")},
	}, {
		name: "NodeManager pods of other requests are flagged, and compared", run: teraSortRows(1e7), baseline: teraSortRows(1e7),
		runSetup: ceph, baselineSetup: withResources(hdfs, podResourcesOf("100m", "1Gi", "", "4Gi")),
		flagged: []v1alpha1.BaselineDifference{diff("nodeManagerRequests", "cpu 2, memory 4Gi", "cpu 100m, memory 1Gi")},
	}, {
		name: "resources compare by value", run: wordCount("/a"), baseline: wordCount("/a"),
		runSetup: withResources(ceph, podResourcesOf("1", "4096Mi", "1500m", "")), baselineSetup: withResources(hdfs, podResourcesOf("1000m", "4Gi", "1.5", "")),
	}, {
		name: "pods without limits against pods with some", run: wordCount("/a"), baseline: wordCount("/a"),
		runSetup: withResources(ceph, podResourcesOf("2", "4Gi", "", "")), baselineSetup: hdfs,
		differences: []v1alpha1.BaselineDifference{diff("nodeManagerLimits", "none", "memory 4Gi")},
	}, {
		name: "a run recorded before NodeManager resources were", run: wordCount("/a"), baseline: wordCount("/a"),
		runSetup: withResources(ceph, nil), baselineSetup: hdfs,
		unknown: []string{"nodeManagerLimits", "nodeManagerRequests"}, resourcesUnrecorded: []string{"run"},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.run.Repetitions, tc.baseline.Repetitions = tc.runReps, tc.baselineReps
			got := CheckComparable(succeeded("run", tc.run, tc.runSetup, 1), succeeded("baseline", tc.baseline, tc.baselineSetup, 1))
			want := Comparability{Differences: tc.differences, Flagged: tc.flagged, Unknown: tc.unknown, Unrecorded: tc.unrecorded,
				NetworkUnrecorded: tc.networkUnrecorded, RateUnrecorded: tc.rateUnrecorded, ResourcesUnrecorded: tc.resourcesUnrecorded}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
			if got.Comparable() != (len(tc.differences) == 0) {
				t.Errorf("Comparable() = %v with differences %v", got.Comparable(), tc.differences)
			}
		})
	}
}

func TestCompareRuns(t *testing.T) {
	ceph := setup("ceph", "External", 3, 6144, 4)
	hdfs := setup("hdfs", "HDFS", 3, 6144, 4)
	hdfs.Storage.RawOverhead = ""
	cephStorage, hdfsStorage := ceph.Storage, hdfs.Storage

	t.Run("comparable runs get ratios and both storages", func(t *testing.T) {
		run := succeeded("on-ceph", teraSortRows(1e7), ceph, 300)
		out, c, msg := CompareRuns(run, succeeded("on-hdfs", teraSortRows(1e7), hdfs, 200))
		if !c.Comparable() {
			t.Fatalf("not comparable: %+v", c)
		}
		want := &v1alpha1.BaselineComparison{
			Name: "on-hdfs", Ratio: "1.50x",
			Stages: []v1alpha1.StageRatio{
				{Stage: v1alpha1.StageTeraGen, ThroughputRatio: "1.50", DurationRatio: "1.00"},
				{Stage: v1alpha1.StageTeraSort, ThroughputRatio: "1.50", DurationRatio: "1.00"},
				{Stage: v1alpha1.StageTeraValidate, ThroughputRatio: "1.50", DurationRatio: "1.00"},
			},
			Storage: &cephStorage, BaselineStorage: &hdfsStorage,
		}
		if !reflect.DeepEqual(out, want) {
			t.Errorf("got  %+v\nwant %+v", out, want)
		}
		if w := "compared with BenchmarkRun on-hdfs, StorageBackend ceph (External, raw overhead 3) vs StorageBackend hdfs (HDFS): terasort throughput 1.50x of the baseline's"; msg != w {
			t.Errorf("message\n got %q\nwant %q", msg, w)
		}
	})

	t.Run("erasure-coded against replicated: both pools are named, and their kind is no difference", func(t *testing.T) {
		ec, replicated := setup("ceph-ec", "Rook", 3, 6144, 4), setup("ceph-replicated", "Rook", 3, 6144, 4)
		ec.Storage.RawOverhead, ec.Storage.Pool = "1.5", &v1alpha1.PoolSetup{Name: "fs-ec", Kind: v1alpha1.PoolKindErasureCoded, DataChunks: 2, CodingChunks: 1}
		replicated.Storage.Pool = &v1alpha1.PoolSetup{Name: "fs-replicated", Kind: v1alpha1.PoolKindReplicated, Size: 3}
		out, c, msg := CompareRuns(succeeded("ec", teraSortRows(1e7), ec, 150), succeeded("replicated", teraSortRows(1e7), replicated, 200))
		if !c.Comparable() || out.Ratio != "0.75x" {
			t.Fatalf("comparison %+v", out)
		}
		if w := "compared with BenchmarkRun replicated, StorageBackend ceph-ec (Rook, erasure-coded 2+1, raw overhead 1.5) vs StorageBackend ceph-replicated (Rook, replicated, size 3, raw overhead 3): terasort throughput 0.75x of the baseline's"; msg != w {
			t.Errorf("message\n got %q\nwant %q", msg, w)
		}
	})

	t.Run("pods of other requests: the ratios, and the requests named", func(t *testing.T) {
		out, c, msg := CompareRuns(succeeded("busy", teraSortRows(1e7), ceph, 300),
			succeeded("idle", teraSortRows(1e7), withResources(hdfs, podResourcesOf("100m", "1Gi", "", "4Gi")), 300))
		if !c.Comparable() || out.Ratio != "1.00x" || !reflect.DeepEqual(out.Flagged, c.Flagged) || len(out.Flagged) != 1 {
			t.Fatalf("comparison %+v", out)
		}
		if w := ": terasort throughput 1.00x of the baseline's; differing in what changes the figures only on a busy node: nodeManagerRequests cpu 2, memory 4Gi vs cpu 100m, memory 1Gi"; !strings.HasSuffix(msg, w) {
			t.Errorf("message %q does not end in %q", msg, w)
		}
	})

	t.Run("runs that differ get no ratio, and every difference with both values", func(t *testing.T) {
		run := succeeded("big", teraSortRows(1e7, func(w *v1alpha1.TeraSortWorkload) { w.Reduces = ptr.To[int32](2) }), ceph, 300)
		baseline := succeeded("small", teraSortRows(1e6, func(w *v1alpha1.TeraSortWorkload) { w.Reduces = ptr.To[int32](4) }), setup("hdfs", "HDFS", 1, 6144, 4), 200)
		out, c, msg := CompareRuns(run, baseline)
		if c.Comparable() {
			t.Fatal("comparable")
		}
		if out.Ratio != "" || out.Stages != nil {
			t.Errorf("ratios of runs that differ: %q %+v", out.Ratio, out.Stages)
		}
		if !reflect.DeepEqual(out.Differences, c.Differences) || len(out.Differences) != 3 || out.Storage == nil || out.BaselineStorage == nil {
			t.Errorf("comparison %+v", out)
		}
		if w := "not compared with BenchmarkRun small, whose parameters differ (this run's first): rows 10000000 vs 1000000; reduces 2 vs 4; NodeManagers 3 x 6Gi/4 vcores vs 1 x 6Gi/4 vcores"; msg != w {
			t.Errorf("message\n got %q\nwant %q", msg, w)
		}
	})

	t.Run("runs without setups that differ in their specs", func(t *testing.T) {
		_, _, msg := CompareRuns(succeeded("new", teraSortRows(1e7), nil, 300), succeeded("old", teraSortRows(1e6), nil, 300))
		if w := "not compared with BenchmarkRun old, whose parameters differ (this run's first): rows 10000000 vs 1000000; not known, so not compared: maps, reduces, outputReplication, NodeManagers, nodeManagerLimits, nodeManagerRequests, network (BenchmarkRun new and BenchmarkRun old have no status.setup)"; msg != w {
			t.Errorf("message\n got %q\nwant %q", msg, w)
		}
	})

	t.Run("a baseline without a setup is compared as far as its spec goes", func(t *testing.T) {
		out, c, msg := CompareRuns(succeeded("new", teraSortRows(1e7), ceph, 300), succeeded("old", teraSortRows(1e7), nil, 300))
		if !c.Comparable() || out.Ratio != "1.00x" || out.BaselineStorage != nil || out.Storage == nil {
			t.Errorf("comparison %+v", out)
		}
		if !reflect.DeepEqual(out.Unknown, []string{"maps", "reduces", "outputReplication", "NodeManagers", "nodeManagerLimits", "nodeManagerRequests", "network"}) {
			t.Errorf("unknown %v", out.Unknown)
		}
		if w := "compared with BenchmarkRun old, StorageBackend ceph (External, raw overhead 3) vs unknown storage: terasort throughput 1.00x of the baseline's; not known, so not compared: maps, reduces, outputReplication, NodeManagers, nodeManagerLimits, nodeManagerRequests, network (BenchmarkRun old has no status.setup)"; msg != w {
			t.Errorf("message\n got %q\nwant %q", msg, w)
		}
	})

	t.Run("runs on other networks get no ratio, and the message names both", func(t *testing.T) {
		out, c, msg := CompareRuns(succeeded("fast", teraSortRows(1e7), onNetwork(ceph, dataNetwork("data", "10Gbit")), 300),
			succeeded("slow", teraSortRows(1e7), onNetwork(hdfs, dataNetwork("data", "1Gbit")), 100))
		if c.Comparable() || out.Ratio != "" {
			t.Fatalf("comparable over other links: %+v", out)
		}
		if w := "not compared with BenchmarkRun slow, whose parameters differ (this run's first): network analytics/data (net1) at 10Gbit vs analytics/data (net1) at 1Gbit"; msg != w {
			t.Errorf("message\n got %q\nwant %q", msg, w)
		}
	})

	t.Run("a rate one run does not know gives the ratio and says so", func(t *testing.T) {
		out, c, msg := CompareRuns(succeeded("annotated", teraSortRows(1e7), onNetwork(ceph, dataNetwork("data", "10Gbit")), 300),
			succeeded("before", teraSortRows(1e7), onNetwork(hdfs, dataNetwork("data", "")), 300))
		if !c.Comparable() || out.Ratio != "1.00x" || !reflect.DeepEqual(out.Unknown, []string{"network.rate"}) {
			t.Fatalf("comparison %+v", out)
		}
		if w := "; not known, so not compared: network.rate (BenchmarkRun before has no status.setup.network.rate)"; !strings.HasSuffix(msg, w) {
			t.Errorf("message %q does not end in %q", msg, w)
		}
	})

	t.Run("a baseline without a network, and a run without a setup", func(t *testing.T) {
		_, _, msg := CompareRuns(succeeded("new", teraSortRows(1e7), nil, 300), succeeded("old", teraSortRows(1e7), onNetwork(hdfs, nil), 300))
		if w := "(BenchmarkRun new has no status.setup; BenchmarkRun old has no status.setup.network)"; !strings.HasSuffix(msg, w) {
			t.Errorf("message %q does not end in %q", msg, w)
		}
	})
}
