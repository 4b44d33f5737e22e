package controllers

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

var _ = Describe("StorageBackend metrics", Label("envtest"), func() {
	It("publishes whether the backend is Ready, and removes the series once the backend is deleted", func() {
		ns := createNamespace("sb-metrics")
		ready := func(g Gomega) map[string]float64 {
			return gauges("hadoopceph_storagebackend_ready", map[string]string{"namespace": ns}, "name")(g)
		}

		By("0 while the backend waits for its key")
		sb := externalBackend(ns, "ext", true)
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(HavePrefix("False/"))
		Eventually(ready).Should(Equal(map[string]float64{"ext": 0}))

		By("1 once it is Ready")
		writeKeySecret(ns, "ext-key")
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
		Eventually(ready).Should(Equal(map[string]float64{"ext": 1}))

		By("none once it is gone")
		Expect(k8sClient.Delete(ctx, sb)).To(Succeed())
		Eventually(gone(sb)).Should(Succeed())
		Eventually(ready).Should(BeEmpty())
	})
})
