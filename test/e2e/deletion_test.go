//go:build e2e

package e2e

import (
	"path"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

func deletionSpecs() {
	It("removes the cluster's pods and leaves its data on CephFS", func() {
		kept := &v1alpha1.BenchmarkRun{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: keptTeraSort}, kept)).To(Succeed())
		data := path.Join(cephRoot, benchmark.WorkDir(kept))
		Expect(cephPathExists(data)).To(BeTrue(), "the kept TeraSort's data %s exists before the deletion", data)

		deleteCluster(clusterName)

		Expect(cephPathExists(data)).To(BeTrue(), "the TeraSort's data %s is still on CephFS", data)
		for _, dir := range []string{"teragen", "terasort"} {
			out := mustRun(fsadmin("ls", path.Join(data, "r1", dir)))
			Expect(out).To(ContainSubstring("part-"), "%s keeps its output files", dir)
		}
	})
}

// deleteCluster deletes a HadoopCluster and waits until it and its daemons' pods are
// gone. Its finished benchmark stages' pods stay: they belong to the BenchmarkRuns,
// which keep their results.
func deleteCluster(name string) {
	GinkgoHelper()
	daemons, err := labels.Parse(hadoop.LabelInstance + "=" + name + "," + "!" + benchmark.LabelRun)
	Expect(err).NotTo(HaveOccurred())
	hc := &v1alpha1.HadoopCluster{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}}
	Expect(k8sClient.Delete(ctx, hc)).To(Succeed())
	Eventually(func(g Gomega) {
		pods := &corev1.PodList{}
		g.Expect(k8sClient.List(ctx, pods, client.InNamespace(namespace), client.MatchingLabelsSelector{Selector: daemons})).To(Succeed())
		g.Expect(pods.Items).To(BeEmpty())
		err := k8sClient.Get(ctx, client.ObjectKeyFromObject(hc), &v1alpha1.HadoopCluster{})
		g.Expect(err).To(HaveOccurred(), "the HadoopCluster is gone")
	}).WithTimeout(3 * time.Minute).Should(Succeed())
}
