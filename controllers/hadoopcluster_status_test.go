package controllers

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// reconciles counts the passes the HadoopCluster controller has finished.
func reconciles(g Gomega) float64 {
	families, err := metrics.Registry.Gather()
	g.Expect(err).NotTo(HaveOccurred())
	var total float64
	for _, f := range families {
		if f.GetName() != "controller_runtime_reconcile_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "controller" && l.GetValue() == "hadoopcluster" {
					total += m.GetCounter().GetValue()
				}
			}
		}
	}
	return total
}

var _ = Describe("HadoopCluster at rest", Label("envtest"), func() {
	var ns string
	var sb *v1alpha1.StorageBackend
	var hc *v1alpha1.HadoopCluster

	BeforeEach(func() {
		ns = createNamespace("hadoop")
		sb = readyExternalBackend(ns, "ext")
		hc = createCluster(ns, "quiet", "ext")
		for _, obj := range childrenOf(hc).All() {
			Eventually(get(obj)).Should(Succeed())
		}
	})

	It("writes nothing once ready, however often it is reconciled", func() {
		playAllReady(hc)
		Eventually(condition(hc, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
		objs := childrenOf(hc)
		watched := append([]client.Object{&v1alpha1.HadoopCluster{ObjectMeta: hc.ObjectMeta}, &v1alpha1.StorageBackend{ObjectMeta: sb.ObjectMeta}},
			objs.All()...)
		settled := settledVersions(watched...)

		By("bringing passes about with a change the operator does not own")
		passes := reconciles(Default)
		Eventually(func(g Gomega) {
			g.Expect(get(objs.ServiceAccount)()).To(Succeed())
			objs.ServiceAccount.Labels["example.com/touched"] = "yes"
			g.Expect(k8sClient.Update(ctx, objs.ServiceAccount)).To(Succeed())
		}).Should(Succeed())
		Eventually(reconciles).Should(BeNumerically(">", passes))
		delete(settled, "*v1.ServiceAccount "+ns+"/"+objs.ServiceAccount.Name)
		others := []client.Object{}
		for _, obj := range watched {
			if obj != client.Object(objs.ServiceAccount) {
				others = append(others, obj)
			}
		}
		Consistently(func(g Gomega) map[string]string { return resourceVersions(g, others...) }, 3*time.Second, 200*time.Millisecond).
			Should(Equal(settled))
		Expect(objs.ServiceAccount.Labels).To(HaveKeyWithValue("example.com/touched", "yes"), "fields others own are kept")
	})

	It("changes nothing while paused and says so", func() {
		Eventually(condition(hc, v1alpha1.ConditionConfigReady)).Should(Equal("True/Reconciled"))
		cm := childrenOf(hc).ConfigMap
		Expect(get(cm)()).To(Succeed())
		hash := cm.Annotations[hadoop.ConfigHashAnnotation]

		updateCluster(hc, func(s *v1alpha1.HadoopClusterSpec) {
			s.Paused = true
			s.Config.MapredSite = map[string]string{"mapreduce.task.io.sort.mb": "512"}
		})
		Eventually(func(g Gomega) string { return condition(hc, v1alpha1.ConditionReady)(g) }).Should(HaveSuffix("/Paused"))
		Eventually(events(hc)).Should(ContainElement("Normal/Paused"))
		Consistently(func(g Gomega) string {
			g.Expect(get(cm)()).To(Succeed())
			return cm.Annotations[hadoop.ConfigHashAnnotation]
		}, time.Second).Should(Equal(hash))

		updateCluster(hc, func(s *v1alpha1.HadoopClusterSpec) { s.Paused = false })
		Eventually(func(g Gomega) string {
			g.Expect(get(cm)()).To(Succeed())
			return cm.Annotations[hadoop.ConfigHashAnnotation]
		}).ShouldNot(Equal(hash))
		Eventually(func(g Gomega) string { return condition(hc, v1alpha1.ConditionReady)(g) }).ShouldNot(HaveSuffix("/Paused"))
	})
})
