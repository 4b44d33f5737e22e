//go:build e2e

package e2e

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The release hack/local/install-operator.sh installs.
const (
	operatorRelease   = "hadoop-ceph-operator"
	operatorNamespace = "hadoop-ceph-operator"
)

func operatorSpecs() {
	It("becomes Ready", func() {
		mustRun(command("hack/local/install-operator.sh"))
		Eventually(func(g Gomega) {
			deployments := &appsv1.DeploymentList{}
			g.Expect(k8sClient.List(ctx, deployments, client.InNamespace(operatorNamespace),
				client.MatchingLabels{"app.kubernetes.io/instance": operatorRelease})).To(Succeed())
			g.Expect(deployments.Items).To(HaveLen(1))
			d := deployments.Items[0]
			g.Expect(d.Status.ObservedGeneration).To(Equal(d.Generation))
			g.Expect(d.Status.UpdatedReplicas).To(Equal(*d.Spec.Replicas))
			g.Expect(d.Status.AvailableReplicas).To(Equal(*d.Spec.Replicas))
			g.Expect(d.Status.Replicas).To(Equal(*d.Spec.Replicas), "no pod of an older revision is left")
		}).WithTimeout(3 * time.Minute).Should(Succeed())
	})
}
