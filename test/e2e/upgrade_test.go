//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/podstatus"
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

// releaseUpgradeSpecs install the newest release (hack/releases.tsv) from its own
// source, images built from its commit, over the suite's operator; let the suite's
// cluster run under it and write data with its Hadoop; then upgrade to this checkout's
// chart, as a user upgrades. The cluster rolls twice: to the release's Hadoop image and
// back.
func releaseUpgradeSpecs() {
	It("upgrades from the last release, built from its commit: the cluster that ran under it rolls its NodeManagers and then its ResourceManager to the new Hadoop image, stays Ready, and its data reads back unchanged", func() {
		By("building the last release's images from its commit")
		build := command("hack/local/release-images.sh")
		build.Stderr = GinkgoWriter
		out, err := build.Output()
		Expect(err).NotTo(HaveOccurred(), "hack/local/release-images.sh (its output is in the spec's log)")
		dir := strings.TrimSpace(string(out))
		dir = dir[strings.LastIndex(dir, "\n")+1:]
		released := readEnvFile(filepath.Join(dir, "registry-images.env"))
		current := readEnvFile(filepath.Join(filepath.Dir(cephDir()), "cluster", "registry-images.env"))
		Expect(released["HADOOP_IMAGE"]).NotTo(Equal(current["HADOOP_IMAGE"]), "the release's Hadoop image is another than the checkout's")

		By("installing the release's chart with its images, as its own script does")
		install := command(filepath.Join(dir, "hack/local/install-operator.sh"))
		install.Env = append(install.Env, "HCO_REGISTRY_IMAGES="+filepath.Join(dir, "registry-images.env"))
		mustRun(install)
		expectOperatorImage(released["OPERATOR_IMAGE"])
		rollTo(clusterName, released["HADOOP_IMAGE"])
		waitForCluster(clusterName)

		By("writing data with the release's Hadoop")
		const file = "/e2e-upgrade/data"
		nm := clusterName + "-nodemanager-0"
		hadoopSh := func(script string) string {
			return strings.TrimSpace(mustRun(kubectl("-n", namespace, "exec", nm, "-c", "nodemanager", "--", "bash", "-c", script)))
		}
		hadoopSh("hadoop fs -mkdir -p /e2e-upgrade && head -c 8388608 /dev/urandom | hadoop fs -put -f - " + file)
		sum := hadoopSh("hadoop fs -cat " + file + " | md5sum")

		By("upgrading to this checkout's chart")
		mustRun(command("hack/local/install-operator.sh"))
		expectOperatorImage(current["OPERATOR_IMAGE"])
		rollTo(clusterName, current["HADOOP_IMAGE"])
		waitForCluster(clusterName)
		Expect(hadoopSh("hadoop fs -cat "+file+" | md5sum")).To(Equal(sum), "the data written under the release reads back the same")
		hadoopSh("hadoop fs -rm -r -f -skipTrash /e2e-upgrade")
	})
}

// readEnvFile reads the NAME=value lines of a file the scripts write.
func readEnvFile(path string) map[string]string {
	GinkgoHelper()
	raw, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	out := map[string]string{}
	for _, line := range strings.Split(string(raw), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			out[k] = v
		}
	}
	return out
}

// expectOperatorImage waits until the operator's one ready pod runs image.
func expectOperatorImage(image string) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		pods := &corev1.PodList{}
		g.Expect(k8sClient.List(ctx, pods, client.InNamespace(operatorNamespace))).To(Succeed())
		var running []string
		for _, p := range pods.Items {
			if p.DeletionTimestamp.IsZero() && podstatus.Ready(&p) {
				for _, c := range p.Spec.Containers {
					running = append(running, c.Image)
				}
			}
		}
		g.Expect(running).To(ConsistOf(image))
	}).WithTimeout(3 * time.Minute).WithPolling(2 * time.Second).Should(Succeed())
}

// rollTo waits until every daemon pod of the cluster is ready with the Hadoop image,
// and checks the order the operator documents: the NodeManagers one at a time, the
// ResourceManager after them.
func rollTo(cluster, image string) {
	GinkgoHelper()
	hc := &v1alpha1.HadoopCluster{}
	Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: cluster}, hc)).To(Succeed())
	start := time.Now()
	rolled := map[string]time.Duration{}
	nms := int(*hc.Spec.NodeManagers.Replicas)
	rm := hadoop.ResourceManagerName(hc) + "-0"
	Eventually(func(g Gomega) {
		readyNMs := 0
		for _, c := range []hadoop.Component{hadoop.ResourceManager, hadoop.NodeManager} {
			pods := &corev1.PodList{}
			g.Expect(k8sClient.List(ctx, pods, client.InNamespace(namespace), client.MatchingLabels(hadoop.SelectorLabels(hc, c)))).To(Succeed())
			for _, p := range pods.Items {
				ready := p.DeletionTimestamp.IsZero() && podstatus.Ready(&p)
				if c == hadoop.NodeManager && ready {
					readyNMs++
				}
				if ready && p.Spec.Containers[0].Image == image {
					if _, seen := rolled[p.Name]; !seen {
						rolled[p.Name] = time.Since(start)
					}
				}
			}
		}
		Expect(nms-readyNMs).To(BeNumerically("<=", 1), "one NodeManager at a time")
		if at, ok := rolled[rm]; ok {
			for name, nmAt := range rolled {
				Expect(nmAt).To(BeNumerically("<=", at), "%s rolled before the ResourceManager", name)
			}
			g.Expect(rolled).To(HaveLen(nms+1), "every NodeManager rolled before the ResourceManager")
		}
		g.Expect(rolled).To(HaveLen(nms+1), "pods ready with %s", image)
	}).WithTimeout(10 * time.Minute).WithPolling(time.Second).Should(Succeed())
	GinkgoWriter.Printf("pods ready with %s after: %v\n", image, rolled)
	AddReportEntry("rolled to "+image, fmt.Sprint(rolled))
}
