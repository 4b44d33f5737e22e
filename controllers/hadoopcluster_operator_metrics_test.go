package controllers

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// The operator's own metrics about HadoopClusters; hadoopcluster_metrics_test.go is
// about the clusters' Hadoop metrics.
var _ = Describe("HadoopCluster readiness metric", Label("envtest"), func() {
	It("publishes whether the cluster is Ready, and removes the series once the cluster is deleted", func() {
		ns := createNamespace("hc-metrics")
		readyExternalBackend(ns, "ext")
		ready := func(g Gomega) map[string]float64 {
			return gauges("hadoopceph_hadoopcluster_ready", map[string]string{"namespace": ns}, "name")(g)
		}

		By("0 while its pods start")
		hc := createCluster(ns, "metered", "ext")
		Eventually(condition(hc, v1alpha1.ConditionReady)).Should(HavePrefix("False/"))
		Eventually(ready).Should(Equal(map[string]float64{"metered": 0}))

		By("1 once it is Ready")
		playClusterReady(hc)
		Eventually(ready).Should(Equal(map[string]float64{"metered": 1}))

		By("none once it is gone")
		Expect(k8sClient.Delete(ctx, hc)).To(Succeed())
		Eventually(gone(hc)).Should(Succeed())
		Eventually(ready).Should(BeEmpty())
	})
})
