package v1alpha1_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// HadoopCluster and BenchmarkRun have little schema yet; this only guards that their
// CRDs install and take the smallest object a user could write.
var _ = Describe("HadoopCluster and BenchmarkRun admission", func() {
	It("accepts a HadoopCluster that names only its StorageBackend", func(ctx SpecContext) {
		hc := &v1alpha1.HadoopCluster{
			ObjectMeta: metav1.ObjectMeta{Namespace: namespace, GenerateName: "hc-"},
			Spec:       v1alpha1.HadoopClusterSpec{StorageBackendRef: v1alpha1.LocalObjectReference{Name: "hadoop"}},
		}
		Expect(k8sClient.Create(ctx, hc)).To(Succeed())
	})

	It("accepts a BenchmarkRun that names its HadoopCluster and one workload", func(ctx SpecContext) {
		br := &v1alpha1.BenchmarkRun{
			ObjectMeta: metav1.ObjectMeta{Namespace: namespace, GenerateName: "br-"},
			Spec: v1alpha1.BenchmarkRunSpec{
				ClusterRef: v1alpha1.LocalObjectReference{Name: "hadoop"},
				WordCount:  &v1alpha1.WordCountWorkload{InputPath: "/datasets/wiki"},
			},
		}
		Expect(k8sClient.Create(ctx, br)).To(Succeed())
	})
})
