package controllers

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/cephconf"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

var _ = Describe("StorageBackend client config", Label("envtest"), func() {
	It("follows the monitors and the key, and keeps the last config while Rook's data is unusable", func() {
		ns := createNamespace("hadoop")
		rookNs := rookCluster()
		sb := newRookBackend(ns, "moving", rookNs)
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		playRook(sb, rookNs)
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
		first := fresh(sb)(Default).Status.ClientConfigHash

		By("re-rendering when the monitors move")
		publishMons(rookNs, "a=10.0.0.1:6789,d=10.0.0.4:6789,c=10.0.0.3:6789")
		Eventually(clientConfig(sb)).Should(HaveKeyWithValue("ceph.conf", "[global]\nmon_host = 10.0.0.1:6789,10.0.0.3:6789,10.0.0.4:6789\n"))
		Eventually(func(g Gomega) {
			st := fresh(sb)(g).Status
			g.Expect(st.Monitors).To(Equal([]string{"10.0.0.1:6789", "10.0.0.3:6789", "10.0.0.4:6789"}))
			g.Expect(st.ClientConfigHash).NotTo(Equal(first))
			g.Expect(st.ClientConfigHash).To(Equal(cephconf.Hash(secretData(clientConfig(sb)(g)))))
		}).Should(Succeed())
		moved := fresh(sb)(Default).Status.ClientConfigHash

		By("re-rendering when Rook rotates the key")
		writeClientSecret(rookNs, rook.ClientName(sb), rotatedKey)
		Eventually(clientConfig(sb)).Should(HaveKeyWithValue("keyring", "[client."+rook.ClientName(sb)+"]\n\tkey = "+rotatedKey+"\n"))
		Eventually(func(g Gomega) string { return fresh(sb)(g).Status.ClientConfigHash }).ShouldNot(Equal(moved))
		rotated := fresh(sb)(Default).Status.ClientConfigHash
		rendered := clientConfig(sb)(Default)

		By("keeping the last config when the monitor list becomes unusable")
		publishMons(rookNs, "garbage")
		Eventually(condition(sb, v1alpha1.ConditionClientConfigReady)).Should(Equal("False/InvalidMonEndpoints"))
		Expect(condition(sb, v1alpha1.ConditionReady)(Default)).To(Equal("False/InvalidMonEndpoints"))
		Expect(clientConfig(sb)(Default)).To(Equal(rendered))
		Expect(fresh(sb)(Default).Status.ClientConfigHash).To(Equal(rotated))
		Expect(fresh(sb)(Default).Status.ClientConfigSecret).To(Equal("moving-ceph-client"))

		publishMons(rookNs, "a=10.0.0.1:6789")
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
	})
})
