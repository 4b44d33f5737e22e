package controllers

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// The suite serves PodMonitors, so every cluster here gets one; the operator without
// the Prometheus Operator is covered by the hadoopcluster package's unit tests.
var _ = Describe("HadoopCluster metrics", Label("envtest"), func() {
	var ns string

	BeforeEach(func() {
		ns = createNamespace("metrics")
		readyExternalBackend(ns, "ext")
	})

	It("serves /prom on every daemon and gives Prometheus a PodMonitor that scrapes them", func() {
		hc := createCluster(ns, "metered", "ext", func(s *v1alpha1.HadoopClusterSpec) {
			s.Metrics.PodMonitor = v1alpha1.PodMonitorSpec{Labels: v1alpha1.Labels{"release": "prometheus"}, Interval: "30s"}
		})
		Expect(fresh(hc)(Default).Spec.Metrics.Enabled).To(HaveValue(BeTrue()), "the API defaults metrics to on")
		pm := podMonitorOf(hc)
		Eventually(get(pm)).Should(Succeed())

		owner := fresh(hc)(Default)
		ref := metav1.GetControllerOf(pm)
		Expect(ref).NotTo(BeNil())
		Expect(ref.UID).To(Equal(owner.UID))
		Expect(pm.GetLabels()).To(HaveKeyWithValue(hadoop.LabelMetrics, hadoop.MetricsHadoop))
		Expect(pm.GetLabels()).To(HaveKeyWithValue("release", "prometheus"))
		Expect(pm.GetLabels()).To(HaveKeyWithValue(hadoop.LabelInstance, "metered"))

		By("selecting the pods of the three daemons, and scraping their web port")
		selector := podMonitorSelector(pm)
		objs := childrenOf(hc)
		for _, sts := range objs.StatefulSets() {
			Eventually(get(sts)).Should(Succeed())
			Expect(selector.Matches(labels.Set(sts.Spec.Template.Labels))).To(BeTrue(), "%s pods", sts.Name)
		}
		Expect(selector.Matches(labels.Set(hadoop.Labels(owner, hadoop.Client)))).To(BeFalse(), "benchmark pods serve no metrics")
		endpoints, _, err := unstructured.NestedSlice(pm.Object, "spec", "podMetricsEndpoints")
		Expect(err).NotTo(HaveOccurred())
		Expect(endpoints).To(HaveLen(1))
		endpoint := endpoints[0].(map[string]any)
		Expect(endpoint).To(HaveKeyWithValue("port", "http"))
		Expect(endpoint).To(HaveKeyWithValue("path", hadoop.MetricsPath))
		Expect(endpoint).To(HaveKeyWithValue("interval", "30s"))
		var targets []any
		for _, r := range endpoint["relabelings"].([]any) {
			targets = append(targets, r.(map[string]any)["targetLabel"])
		}
		Expect(targets).To(ConsistOf(hadoop.SeriesLabelNamespace, hadoop.SeriesLabelCluster, hadoop.SeriesLabelComponent))

		By("turning the endpoint on in core-site.xml")
		Expect(get(objs.ConfigMap)()).To(Succeed())
		Expect(objs.ConfigMap.Data[hadoop.FileCoreSite]).To(ContainSubstring(prometheusEndpoint("true")))
		Eventually(eventNotes(hc, v1alpha1.EventReasonCreated)).Should(ContainElement(ContainSubstring("PodDisruptionBudget and PodMonitor")))

		By("applying it again when someone changes it")
		Eventually(func(g Gomega) {
			g.Expect(get(pm)()).To(Succeed())
			g.Expect(unstructured.SetNestedSlice(pm.Object, []any{map[string]any{"port": "rpc", "path": "/metrics"}}, "spec", "podMetricsEndpoints")).To(Succeed())
			g.Expect(k8sClient.Update(ctx, pm)).To(Succeed())
		}).Should(Succeed())
		Eventually(func(g Gomega) any {
			g.Expect(get(pm)()).To(Succeed())
			endpoints, _, _ := unstructured.NestedSlice(pm.Object, "spec", "podMetricsEndpoints")
			return endpoints[0].(map[string]any)["path"]
		}).Should(Equal(hadoop.MetricsPath))
	})

	It("removes the PodMonitor and the endpoint when metrics are switched off, and is Ready without them", func() {
		hc := createCluster(ns, "quiet", "ext")
		pm := podMonitorOf(hc)
		Eventually(get(pm)).Should(Succeed())

		updateCluster(hc, func(s *v1alpha1.HadoopClusterSpec) { s.Metrics.Enabled = ptr.To(false) })
		Eventually(gone(pm)).Should(Succeed())
		cm := childrenOf(hc).ConfigMap
		Eventually(func(g Gomega) string {
			g.Expect(get(cm)()).To(Succeed())
			return cm.Data[hadoop.FileCoreSite]
		}).ShouldNot(ContainSubstring(hadoop.KeyPrometheusEndpoint))
		Eventually(eventNotes(hc, v1alpha1.EventReasonDeleted)).Should(ContainElement(ContainSubstring("spec.metrics.enabled is false")))

		playAllReady(hc)
		Eventually(condition(hc, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
		Consistently(gone(pm), time.Second).Should(Succeed())

		By("bringing both back when they are switched on again")
		updateCluster(hc, func(s *v1alpha1.HadoopClusterSpec) { s.Metrics.Enabled = ptr.To(true) })
		Eventually(get(pm)).Should(Succeed())
		Eventually(func(g Gomega) string {
			g.Expect(get(cm)()).To(Succeed())
			return cm.Data[hadoop.FileCoreSite]
		}).Should(ContainSubstring(prometheusEndpoint("true")))
	})

	It("lets config.coreSite switch the endpoint off, and then makes no PodMonitor", func() {
		hc := createCluster(ns, "overridden", "ext", func(s *v1alpha1.HadoopClusterSpec) {
			s.Config.CoreSite = map[string]string{hadoop.KeyPrometheusEndpoint: "false"}
		})
		Eventually(condition(hc, v1alpha1.ConditionConfigReady)).Should(Equal("True/Reconciled"))
		cm := childrenOf(hc).ConfigMap
		Expect(get(cm)()).To(Succeed())
		Expect(cm.Data[hadoop.FileCoreSite]).To(ContainSubstring(prometheusEndpoint("false")))
		Consistently(gone(podMonitorOf(hc)), time.Second).Should(Succeed())
	})

	It("leaves a PodMonitor of its name that is not its own untouched, and is Ready all the same", func() {
		taken := podMonitorOf(newCluster(ns, "taken", "ext"))
		Expect(unstructured.SetNestedSlice(taken.Object, []any{map[string]any{"port": "metrics"}}, "spec", "podMetricsEndpoints")).To(Succeed())
		Expect(unstructured.SetNestedMap(taken.Object, map[string]any{}, "spec", "selector")).To(Succeed())
		Expect(k8sClient.Create(ctx, taken)).To(Succeed())

		hc := createCluster(ns, "taken", "ext")
		Eventually(events(hc)).Should(ContainElement("Warning/ChildConflict"))
		// The event is recorded during the pass, and the condition written at its end.
		Eventually(condition(hc, v1alpha1.ConditionConfigReady)).Should(Equal("True/Reconciled"))
		playAllReady(hc)
		Eventually(condition(hc, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))

		Expect(get(taken)()).To(Succeed())
		Expect(taken.GetOwnerReferences()).To(BeEmpty())
		endpoints, _, _ := unstructured.NestedSlice(taken.Object, "spec", "podMetricsEndpoints")
		Expect(endpoints).To(Equal([]any{map[string]any{"port": "metrics"}}))
	})
})

// podMonitorOf names the PodMonitor of hc; read it with get.
func podMonitorOf(hc *v1alpha1.HadoopCluster) *unstructured.Unstructured {
	pm := &unstructured.Unstructured{}
	pm.SetGroupVersionKind(hadoop.PodMonitorGVK)
	pm.SetNamespace(hc.Namespace)
	pm.SetName(hadoop.PodMonitorName(hc))
	return pm
}

// podMonitorSelector is the pod selector of a PodMonitor as the API server stores it.
func podMonitorSelector(pm *unstructured.Unstructured) labels.Selector {
	raw, _, err := unstructured.NestedMap(pm.Object, "spec", "selector")
	Expect(err).NotTo(HaveOccurred())
	ls := &metav1.LabelSelector{}
	Expect(runtime.DefaultUnstructuredConverter.FromUnstructured(raw, ls)).To(Succeed())
	selector, err := metav1.LabelSelectorAsSelector(ls)
	Expect(err).NotTo(HaveOccurred())
	return selector
}

// prometheusEndpoint is the property of core-site.xml that sets the Prometheus
// endpoint to value.
func prometheusEndpoint(value string) string {
	return "<name>" + hadoop.KeyPrometheusEndpoint + "</name>\n    <value>" + value + "</value>"
}

// eventNotes lists the notes of the events about hc with reason.
func eventNotes(hc *v1alpha1.HadoopCluster, reason string) func(Gomega) []string {
	return func(g Gomega) []string {
		list := &eventsv1.EventList{}
		g.Expect(k8sClient.List(ctx, list, client.InNamespace(hc.Namespace))).To(Succeed())
		var out []string
		for _, e := range list.Items {
			if e.Regarding.Kind == "HadoopCluster" && e.Regarding.Name == hc.Name && e.Reason == reason {
				out = append(out, e.Note)
			}
		}
		return out
	}
}
