package controllers

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// The default NodeManager (4Gi, 2 CPUs) offers YARN 3072 MiB and 2 vcores.
var defaultNodeManagers = v1alpha1.NodeManagersSetup{Replicas: 1, MemoryMiB: 3072, VCores: 2, Resources: &v1alpha1.PodResourcesSetup{
	Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2"), corev1.ResourceMemory: resource.MustParse("4Gi")},
	Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("4Gi")},
}}

// sortRows is a TeraSort of rows without TeraValidate.
func sortRows(rows int64) func(*v1alpha1.BenchmarkRunSpec) {
	return func(s *v1alpha1.BenchmarkRunSpec) {
		s.TeraSort = &v1alpha1.TeraSortWorkload{Rows: ptr.To(rows), Validate: ptr.To(false)}
	}
}

func baselineRef(name string) func(*v1alpha1.BenchmarkRunSpec) {
	return func(s *v1alpha1.BenchmarkRunSpec) { s.BaselineRef = &v1alpha1.LocalObjectReference{Name: name} }
}

// playSort plays a TeraSort without TeraValidate to success.
func playSort(run *v1alpha1.BenchmarkRun) {
	playStage(run, v1alpha1.StageTeraGen, 1, report("teragen"))
	playStage(run, v1alpha1.StageTeraSort, 1, report("terasort"))
	Eventually(runPhase(run)).Should(Equal(v1alpha1.BenchmarkPhaseSucceeded))
}

var _ = Describe("BenchmarkRun baseline comparability", Label("envtest"), func() {
	var ns string
	BeforeEach(func() { ns = createNamespace("compare") })

	It("compares runs on two HadoopClusters by the setup each recorded when it started", func() {
		readyCluster(ns, "left")
		right := readyCluster(ns, "right")
		baseline := createRun(ns, "on-left", "left", sortRows(100000))
		run := createRun(ns, "on-right", "right", sortRows(100000), baselineRef("on-left"))

		By("recording the setup when the first stage starts")
		stageJob(run, v1alpha1.StageTeraGen, 1)
		var recorded v1alpha1.BenchmarkSetup
		Eventually(func(g Gomega) {
			st := fresh(run)(g).Status
			g.Expect(st.StartTime).NotTo(BeNil())
			g.Expect(st.Setup).NotTo(BeNil())
			recorded = *st.Setup
		}).Should(Succeed())
		// Compared by value: quantities are (resource.Quantity's Equal).
		Expect(recorded).To(BeComparableTo(v1alpha1.BenchmarkSetup{
			Cluster:      "right",
			Storage:      v1alpha1.StorageSetup{Backend: "right-ceph", Mode: string(v1alpha1.StorageBackendModeExternal)},
			NodeManagers: defaultNodeManagers,
			Repetitions:  1,
			TeraSort:     &v1alpha1.TeraSortSetup{Maps: 2, Reduces: 1, OutputReplication: 3},
			Network:      &v1alpha1.NetworkSetup{DataInterface: "eth0"},
		}))

		By("keeping it when the cluster grows before the next stage starts")
		updateCluster(right, func(s *v1alpha1.HadoopClusterSpec) { s.NodeManagers.Replicas = ptr.To[int32](2) })
		nm := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: hadoop.NodeManagerName(right)}}
		Eventually(func(g Gomega) int32 {
			g.Expect(get(nm)()).To(Succeed())
			return *nm.Spec.Replicas
		}).Should(Equal(int32(2)))
		playStatefulSet(nm, 2)
		Eventually(func(g Gomega) int32 { return fresh(right)(g).Status.ReadyNodeManagers }).Should(Equal(int32(2)))
		Eventually(condition(right, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
		playStage(run, v1alpha1.StageTeraGen, 1, report("teragen"))
		playStage(run, v1alpha1.StageTeraSort, 1, report("terasort"))
		Eventually(runPhase(run)).Should(Equal(v1alpha1.BenchmarkPhaseSucceeded))
		Expect(*fresh(run)(Default).Status.Setup).To(BeComparableTo(recorded))

		By("comparing with the baseline once it has succeeded on the other cluster")
		Eventually(condition(run, v1alpha1.ConditionBaselineCompared)).Should(Equal("False/BaselineNotSucceeded"))
		playSort(baseline)
		Eventually(condition(run, v1alpha1.ConditionBaselineCompared)).Should(Equal("True/Compared"))
		cmp := fresh(run)(Default).Status.Baseline
		Expect(cmp.Ratio).To(Equal("1.00x"))
		Expect(cmp.Stages).To(HaveLen(2))
		Expect(cmp.Differences).To(BeEmpty())
		Expect(cmp.Unknown).To(BeEmpty())
		Expect(cmp.Storage).To(Equal(&v1alpha1.StorageSetup{Backend: "right-ceph", Mode: "External"}))
		Expect(cmp.BaselineStorage).To(Equal(&v1alpha1.StorageSetup{Backend: "left-ceph", Mode: "External"}))
		Expect(conditionMessage(run, v1alpha1.ConditionBaselineCompared)(Default)).To(Equal(
			"compared with BenchmarkRun on-left, StorageBackend right-ceph (External) vs StorageBackend left-ceph (External): terasort throughput 1.00x of the baseline's"))
	})

	It("gives no ratio for runs of other rows or on other NodeManagers, names each difference, and flags other requests", func() {
		readyCluster(ns, "small")
		readyExternalBackend(ns, "large-ceph")
		playClusterReady(createCluster(ns, "large", "large-ceph", func(s *v1alpha1.HadoopClusterSpec) {
			s.NodeManagers.Resources = corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4"), corev1.ResourceMemory: resource.MustParse("8Gi")},
				Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("8Gi")},
			}
		}))
		baseline := createRun(ns, "base", "small", sortRows(100000))
		playSort(baseline)
		moreRows := createRun(ns, "more-rows", "small", sortRows(1000000), baselineRef("base"))
		playSort(moreRows)
		larger := createRun(ns, "larger", "large", sortRows(100000), baselineRef("base"))
		playSort(larger)

		for _, tc := range []struct {
			run                  *v1alpha1.BenchmarkRun
			differences, flagged []v1alpha1.BaselineDifference
			message              string
		}{{
			run:         moreRows,
			differences: []v1alpha1.BaselineDifference{{Parameter: "rows", Value: "1000000", BaselineValue: "100000"}},
			message:     "rows 1000000 vs 100000",
		}, {
			run: larger,
			differences: []v1alpha1.BaselineDifference{
				{Parameter: "NodeManagers", Value: "1 x 6656Mi/4 vcores", BaselineValue: "1 x 3Gi/2 vcores"},
				{Parameter: "nodeManagerLimits", Value: "memory 8Gi", BaselineValue: "memory 4Gi"},
			},
			flagged: []v1alpha1.BaselineDifference{{Parameter: "nodeManagerRequests", Value: "cpu 4, memory 8Gi", BaselineValue: "cpu 2, memory 4Gi"}},
			message: "NodeManagers 1 x 6656Mi/4 vcores vs 1 x 3Gi/2 vcores; nodeManagerLimits memory 8Gi vs memory 4Gi; " +
				"differing in what changes the figures only on a busy node: nodeManagerRequests cpu 4, memory 8Gi vs cpu 2, memory 4Gi",
		}} {
			Eventually(condition(tc.run, v1alpha1.ConditionBaselineCompared)).Should(Equal("False/BaselineNotComparable"))
			Expect(conditionMessage(tc.run, v1alpha1.ConditionBaselineCompared)(Default)).To(Equal(
				"not compared with BenchmarkRun base, whose parameters differ (this run's first): " + tc.message))
			st := fresh(tc.run)(Default).Status
			Expect(st.Baseline.Name).To(Equal("base"))
			Expect(st.Baseline.Ratio).To(BeEmpty())
			Expect(st.Baseline.Stages).To(BeEmpty())
			Expect(st.Baseline.Differences).To(Equal(tc.differences))
			Expect(st.Baseline.Flagged).To(Equal(tc.flagged))
			Expect(st.Baseline.BaselineStorage).NotTo(BeNil())
			// The run itself succeeded: only the comparison is refused.
			Expect(condition(tc.run, v1alpha1.ConditionReady)(Default)).To(Equal("True/Succeeded"))
			Expect(eventReasons(tc.run)(Default)).To(ContainElement(v1alpha1.ReasonBaselineNotComparable))
		}
	})

	It("compares with a baseline that started before runs recorded their setup, saying what is not known", func() {
		readyCluster(ns, "today")
		legacy := createRun(ns, "legacy", "gone", sortRows(100000))
		// A run the operator finished before status.setup existed, on a cluster deleted since.
		Eventually(func(g Gomega) {
			old := fresh(legacy)(g)
			now := metav1.Now()
			old.Status.Phase = v1alpha1.BenchmarkPhaseSucceeded
			old.Status.StartTime, old.Status.CompletionTime = &now, &now
			old.Status.Stages = []v1alpha1.StageResult{
				{Stage: v1alpha1.StageTeraGen, Repetition: 1, Phase: v1alpha1.StagePhaseSucceeded, Duration: &metav1.Duration{Duration: 10e9}, Bytes: 1e7, BytesPerSecond: 1e6},
				{Stage: v1alpha1.StageTeraSort, Repetition: 1, Phase: v1alpha1.StagePhaseSucceeded, Duration: &metav1.Duration{Duration: 10e9}, Bytes: 1e7, BytesPerSecond: 1e6},
			}
			g.Expect(k8sClient.Status().Update(ctx, old)).To(Succeed())
		}).Should(Succeed())

		run := createRun(ns, "current", "today", sortRows(100000), baselineRef("legacy"))
		playSort(run)
		Eventually(condition(run, v1alpha1.ConditionBaselineCompared)).Should(Equal("True/Compared"))
		cmp := fresh(run)(Default).Status.Baseline
		Expect(cmp.Ratio).NotTo(BeEmpty())
		Expect(cmp.BaselineStorage).To(BeNil())
		Expect(cmp.Unknown).To(Equal([]string{"maps", "reduces", "outputReplication", "NodeManagers", "nodeManagerLimits", "nodeManagerRequests", "network"}))
		Expect(conditionMessage(run, v1alpha1.ConditionBaselineCompared)(Default)).To(HaveSuffix(
			"; not known, so not compared: maps, reduces, outputReplication, NodeManagers, nodeManagerLimits, nodeManagerRequests, network (BenchmarkRun legacy has no status.setup)"))
		Expect(fresh(legacy)(Default).Status.Setup).To(BeNil())
	})

	It("records the network the data moved over, at the link rate its NetworkAttachmentDefinition gives, and refuses a baseline on links of another rate", func() {
		createNetworkAttachment(ns, "data")
		setLinkRate(ns, "data", "10Gbit")
		readyExternalBackend(ns, "attached-ceph")
		hc := playClusterReady(createCluster(ns, "attached", "attached-ceph", func(s *v1alpha1.HadoopClusterSpec) {
			s.Network.Attachments = []v1alpha1.NetworkAttachment{{Name: "data"}}
			s.Network.DataInterface = "net1"
		}))
		// As the BenchmarkRun controller reads them when a run starts: from its cache.
		linkRates := func(g Gomega) []v1alpha1.AttachmentLinkRate {
			cached := &v1alpha1.HadoopCluster{}
			g.Expect(managerCache.Get(ctx, client.ObjectKeyFromObject(hc), cached)).To(Succeed())
			return cached.Status.Network.LinkRates
		}
		Eventually(linkRates).Should(Equal([]v1alpha1.AttachmentLinkRate{{Namespace: ns, Name: "data", Rate: "10Gbit"}}))

		fast := createRun(ns, "at-10g", hc.Name, sortRows(100000))
		stageJob(fast, v1alpha1.StageTeraGen, 1)
		Eventually(func(g Gomega) *v1alpha1.NetworkSetup {
			setup := fresh(fast)(g).Status.Setup
			g.Expect(setup).NotTo(BeNil())
			return setup.Network
		}).Should(Equal(&v1alpha1.NetworkSetup{
			DataInterface: "net1",
			Attachment:    &v1alpha1.NetworkAttachmentReference{Namespace: ns, Name: "data"},
			Rate:          "10Gbit",
		}))
		playSort(fast)

		By("telling a run on the same network limited to 1Gbit from it")
		setLinkRate(ns, "data", "1Gbit")
		Eventually(linkRates).Should(Equal([]v1alpha1.AttachmentLinkRate{{Namespace: ns, Name: "data", Rate: "1Gbit"}}))
		slow := createRun(ns, "at-1g", hc.Name, sortRows(100000), baselineRef(fast.Name))
		playSort(slow)
		Eventually(condition(slow, v1alpha1.ConditionBaselineCompared)).Should(Equal("False/BaselineNotComparable"))
		Expect(conditionMessage(slow, v1alpha1.ConditionBaselineCompared)(Default)).To(Equal(
			"not compared with BenchmarkRun at-10g, whose parameters differ (this run's first): network " +
				ns + "/data (net1) at 1Gbit vs " + ns + "/data (net1) at 10Gbit"))
		Expect(fresh(slow)(Default).Status.Baseline.Differences).To(Equal([]v1alpha1.BaselineDifference{{
			Parameter: "network", Value: ns + "/data (net1) at 1Gbit", BaselineValue: ns + "/data (net1) at 10Gbit",
		}}))
	})
})
