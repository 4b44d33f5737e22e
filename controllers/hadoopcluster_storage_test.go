package controllers

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

var _ = Describe("HadoopCluster storage", Label("envtest"), func() {
	var ns string

	BeforeEach(func() {
		ns = createNamespace("hadoop")
	})

	It("waits for its StorageBackend to be Ready before it creates anything", func() {
		externalBackend(ns, "later", true)
		hc := createCluster(ns, "patient", "later")

		Eventually(condition(hc, v1alpha1.ConditionStorageReady)).Should(Equal("False/StorageBackendNotReady"))
		// The backend's own reason reaches the cluster one pass after the backend has
		// reconciled, so the message may still say the backend has not been looked at.
		Eventually(conditionMessage(hc, v1alpha1.ConditionStorageReady)).Should(And(
			ContainSubstring("waiting for StorageBackend later to be Ready"),
			ContainSubstring("SecretNotFound")))
		Expect(condition(hc, v1alpha1.ConditionConfigReady)(Default)).To(Equal("False/DependencyNotReady"))
		Expect(condition(hc, v1alpha1.ConditionReady)(Default)).To(Equal("False/StorageBackendNotReady"))
		Eventually(events(hc)).Should(ContainElement("Normal/StorageBackendNotReady"))
		Consistently(get(childrenOf(hc).ConfigMap), time.Second).ShouldNot(Succeed())
		Expect(get(childrenOf(hc).Topology)()).NotTo(Succeed(), "no child before the storage is ready")

		writeKeySecret(ns, "later-key")
		Eventually(condition(hc, v1alpha1.ConditionStorageReady)).Should(Equal("True/Reconciled"))
		Eventually(conditionMessage(hc, v1alpha1.ConditionStorageReady)).Should(ContainSubstring("client config in Secret later-ceph-client"))
		for _, obj := range childrenOf(hc).All() {
			Eventually(get(obj)).Should(Succeed())
		}
	})

	It("names an unknown StorageBackend, retries nothing, and goes on once it exists", func() {
		hc := createCluster(ns, "orphan", "missing")
		Eventually(condition(hc, v1alpha1.ConditionStorageReady)).Should(Equal("False/StorageBackendNotFound"))
		Expect(conditionMessage(hc, v1alpha1.ConditionStorageReady)(Default)).To(ContainSubstring(
			"StorageBackend missing does not exist in namespace " + ns + ": create it, or set spec.storageBackendRef.name"))
		Eventually(events(hc)).Should(ContainElement("Warning/StorageBackendNotFound"))
		Expect(fresh(hc)(Default).Status.ObservedGeneration).To(Equal(fresh(hc)(Default).Generation))

		settled := fresh(hc)(Default).ResourceVersion
		Consistently(func(g Gomega) string { return fresh(hc)(g).ResourceVersion }, 2*time.Second, 200*time.Millisecond).
			Should(Equal(settled), "waiting for a backend must not rewrite the status")

		readyExternalBackend(ns, "missing")
		Eventually(condition(hc, v1alpha1.ConditionConfigReady)).Should(Equal("True/Reconciled"))
	})
})
