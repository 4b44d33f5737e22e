//go:build e2e

package e2e

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// osdLossSpecs take an OSD away during a TeraSort on the erasure-coded pool (Context
// "an OSD lost during a TeraSort on the erasure-coded pool").
func osdLossSpecs() {
	It("finishes a TeraSort on the EC 2+1 pool after an OSD pod is deleted mid-sort: TeraValidate is clean, the OSD comes back, and how long the pool stayed degraded is recorded", func() {
		const name = "terasort-osd-loss"
		Expect(k8sClient.Create(ctx, newTeraSortOn(name, rookECCluster))).To(Succeed())
		waitForSortOnYARN(name, rookECCluster)

		pods := &corev1.PodList{}
		Expect(k8sClient.List(ctx, pods, client.InNamespace(rookNamespace), client.MatchingLabels{"app": "rook-ceph-osd", "ceph-osd-id": "1"})).To(Succeed())
		Expect(pods.Items).To(HaveLen(1))
		osd := pods.Items[0]

		By("deleting the pod of OSD 1, " + osd.Name)
		deleted := time.Now()
		Expect(k8sClient.Delete(ctx, &osd)).To(Succeed())
		var degraded, clean time.Duration
		Eventually(func(g Gomega) {
			unclean := uncleanPGs()
			if unclean > 0 && degraded == 0 {
				degraded = time.Since(deleted)
			}
			g.Expect(degraded).NotTo(BeZero(), "the pool has not been seen degraded yet")
			g.Expect(unclean).To(BeZero())
			g.Expect(osdsUp()).To(Equal(3))
		}).WithTimeout(5 * time.Minute).WithPolling(time.Second).Should(Succeed())
		clean = time.Since(deleted)
		GinkgoWriter.Printf("placement groups not active+clean %s after the OSD pod's deletion, all active+clean again after %s\n",
			degraded.Round(time.Second), clean.Round(time.Second))
		AddReportEntry("placement groups not active+clean after an OSD pod's deletion (seconds)", (clean - degraded).Round(time.Second).Seconds())

		Expect(k8sClient.List(ctx, pods, client.InNamespace(rookNamespace), client.MatchingLabels{"app": "rook-ceph-osd", "ceph-osd-id": "1"})).To(Succeed())
		Expect(pods.Items).To(ConsistOf(HaveField("UID", Not(Equal(osd.UID)))), "Rook's Deployment brought the OSD back in a new pod")

		Expect(cleanTeraSort(waitForRun(name))).To(Equal(rookTeraGenChecksum))
	})
}
