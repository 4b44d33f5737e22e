package v1alpha1_test

import (
	"bytes"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"
)

// The samples are what users copy first: every object in config/samples must pass the
// API server's validation as it is written, defaults and CEL rules included.
var _ = Describe("config/samples", func() {
	It("holds only objects the API server accepts", func(ctx SpecContext) {
		files, err := filepath.Glob(filepath.Join("..", "..", "config", "samples", "*.yaml"))
		Expect(err).NotTo(HaveOccurred())
		Expect(files).NotTo(BeEmpty())
		kinds := map[string]int{}
		for _, file := range files {
			raw, err := os.ReadFile(file)
			Expect(err).NotTo(HaveOccurred())
			for _, doc := range bytes.Split(raw, []byte("\n---\n")) {
				u := &unstructured.Unstructured{}
				Expect(yaml.Unmarshal(doc, &u.Object)).To(Succeed(), file)
				if len(u.Object) == 0 {
					continue
				}
				u.SetNamespace(namespace)
				// A dry run is admitted exactly like a create, and samples that share a
				// name do not collide.
				Expect(k8sClient.Create(ctx, u, client.DryRunAll)).To(Succeed(), "%s: %s %s", file, u.GetKind(), u.GetName())
				kinds[u.GetKind()]++
			}
		}
		Expect(kinds).To(HaveKey("StorageBackend"))
		Expect(kinds).To(HaveKey("HadoopCluster"))
		Expect(kinds).To(HaveKey("BenchmarkRun"))
	})
})
