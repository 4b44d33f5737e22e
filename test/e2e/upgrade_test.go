//go:build e2e

package e2e

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const hadoopClusterCRD = "hadoopclusters.hadoopceph.io"

// upgradeSpecs upgrade the operator's release over CRDs as a chart that installed them
// from its crds/ folder left them: not in the release, not owned by Helm, and with an
// older schema. The queue specs that follow need the field the older schema lacks.
func upgradeSpecs() {
	It("upgrades the release from CRDs Helm does not own with an older schema: the CRDs gain the new schema and the cluster stays Ready", func() {
		By("standing in an earlier chart's CRDs: out of the release (kept), no Helm ownership, no spec.yarn")
		mustRun(command("hack/local/install-operator.sh", "--set", "crds.install=false"))
		Expect(hasSpecField(hadoopClusterCRD, "yarn")).To(BeTrue(), "the kept CRD is the current one")
		Eventually(func(g Gomega) {
			crd := &apiextensionsv1.CustomResourceDefinition{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Name: hadoopClusterCRD}, crd)).To(Succeed())
			for i := range crd.Spec.Versions {
				delete(crd.Spec.Versions[i].Schema.OpenAPIV3Schema.Properties["spec"].Properties, "yarn")
			}
			delete(crd.Labels, "app.kubernetes.io/managed-by")
			for _, a := range []string{"meta.helm.sh/release-name", "meta.helm.sh/release-namespace", "helm.sh/resource-policy"} {
				delete(crd.Annotations, a)
			}
			g.Expect(k8sClient.Update(ctx, crd)).To(Succeed())
		}).Should(Succeed())
		Expect(hasSpecField(hadoopClusterCRD, "yarn")).To(BeFalse())

		By("upgrading the release")
		mustRun(command("hack/local/install-operator.sh"))
		crd := &apiextensionsv1.CustomResourceDefinition{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Name: hadoopClusterCRD}, crd)).To(Succeed())
		Expect(hasSpecField(hadoopClusterCRD, "yarn")).To(BeTrue(), "the upgrade did not bring the new schema")
		Expect(crd.Annotations).To(HaveKeyWithValue("meta.helm.sh/release-name", operatorRelease))
		Expect(crd.Annotations).To(HaveKeyWithValue("helm.sh/resource-policy", "keep"))
		Expect(crd.Labels).To(HaveKeyWithValue("app.kubernetes.io/managed-by", "Helm"))
		waitForCluster(clusterName)
	})
}

// hasSpecField tells whether the CRD's schema has spec.<field> in every version.
func hasSpecField(name, field string) bool {
	GinkgoHelper()
	crd := &apiextensionsv1.CustomResourceDefinition{}
	Expect(k8sClient.Get(ctx, client.ObjectKey{Name: name}, crd)).To(Succeed())
	for _, v := range crd.Spec.Versions {
		if _, ok := v.Schema.OpenAPIV3Schema.Properties["spec"].Properties[field]; !ok {
			return false
		}
	}
	return true
}
