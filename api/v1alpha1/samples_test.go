package v1alpha1_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// sampleSets are the directories of config/samples: objects that run on one node, and
// objects for clusters of several hosts.
var sampleSets = []string{"one-node", "production"}

// oneNodeOSDs is the number of OSDs the one-node samples ask the node for, as the
// local Rook of `make demo` has.
const oneNodeOSDs = 3

// The samples are what users copy first: every object in config/samples must pass the
// API server's validation as it is written, defaults and CEL rules included, and a
// HadoopCluster also the operator's own checks (memory minimums, which CEL cannot
// afford). Every file says in its header what it needs, and what an object refers to
// is in the same set, so a set applied as it is has nothing missing.
var _ = Describe("config/samples", func() {
	root := filepath.Join("..", "..", "config", "samples")

	It("holds only the two sets", func() {
		entries, err := os.ReadDir(root)
		Expect(err).NotTo(HaveOccurred())
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		Expect(names).To(ConsistOf(sampleSets), "every sample belongs to a set")
	})

	for _, set := range sampleSets {
		It("holds in "+set+" only objects the API server and the operator accept, referring to each other", func(ctx SpecContext) {
			files, err := filepath.Glob(filepath.Join(root, set, "*.yaml"))
			Expect(err).NotTo(HaveOccurred())
			Expect(files).NotTo(BeEmpty())

			names := map[string][]string{} // kind -> names in this set
			type ref struct{ from, kind, name string }
			var refs []ref
			for _, file := range files {
				raw, err := os.ReadFile(file)
				Expect(err).NotTo(HaveOccurred())
				Expect(header(raw)).To(ContainSubstring("Needs:"), "%s: the header says what the sample needs", file)
				for _, doc := range bytes.Split(raw, []byte("\n---\n")) {
					u := &unstructured.Unstructured{}
					Expect(yaml.Unmarshal(doc, &u.Object)).To(Succeed(), file)
					if len(u.Object) == 0 {
						continue
					}
					u.SetNamespace(namespace)
					what := file + ": " + u.GetKind() + " " + u.GetName()
					// A dry run is admitted exactly like a create, and samples that share a
					// name do not collide. The answer carries the defaults.
					Expect(k8sClient.Create(ctx, u, client.DryRunAll)).To(Succeed(), what)
					names[u.GetKind()] = append(names[u.GetKind()], u.GetName())

					switch u.GetKind() {
					case "StorageBackend":
						sb := &v1alpha1.StorageBackend{}
						Expect(runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, sb)).To(Succeed())
						if set == "one-node" && sb.Spec.CephFS.Rook != nil {
							expectOneNode(what, sb.Spec.CephFS.Rook)
						}
					case "HadoopCluster":
						hc := &v1alpha1.HadoopCluster{}
						Expect(runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, hc)).To(Succeed())
						Expect(hadoop.Validate(hadoop.Input{Cluster: hc, Defaults: hadoop.Defaults{Image: "hadoop"}})).To(BeEmpty(), what)
						if set == "one-node" {
							Expect(*hc.Spec.NodeManagers.Replicas).To(BeNumerically("<=", 1), what+": one node runs one NodeManager")
						}
						refs = append(refs, ref{what, "StorageBackend", hc.Spec.StorageBackendRef.Name})
					case "BenchmarkRun":
						run := &v1alpha1.BenchmarkRun{}
						Expect(runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, run)).To(Succeed())
						refs = append(refs, ref{what, "HadoopCluster", run.Spec.ClusterRef.Name})
						if run.Spec.BaselineRef != nil {
							refs = append(refs, ref{what, "BenchmarkRun", run.Spec.BaselineRef.Name})
						}
					}
				}
			}
			Expect(names).To(HaveKey("StorageBackend"))
			Expect(names).To(HaveKey("HadoopCluster"))
			Expect(names).To(HaveKey("BenchmarkRun"))
			for _, r := range refs {
				Expect(names[r.kind]).To(ContainElement(r.name), "%s refers to %s %s, which %s does not hold", r.from, r.kind, r.name, set)
			}
		})
	}
})

// header is the comment a sample file starts with.
func header(raw []byte) string {
	var b strings.Builder
	for line := range strings.Lines(string(raw)) {
		if !strings.HasPrefix(line, "#") {
			break
		}
		b.WriteString(line)
	}
	return b.String()
}

// expectOneNode checks that a Rook backend fits the one node its set is for: every pool
// spread over OSDs, since one host cannot hold two copies in two hosts, and no pool
// wider than the OSDs the headers ask for.
func expectOneNode(what string, r *v1alpha1.RookCephFS) {
	GinkgoHelper()
	Expect(r.FailureDomain).To(Equal("osd"), what)
	widest := r.MetadataPool.Size
	switch {
	case r.DataPool.Replicated != nil:
		widest = max(widest, r.DataPool.Replicated.Size)
	case r.DataPool.ErasureCoded != nil:
		widest = max(widest, r.DataPool.ErasureCoded.DataChunks+r.DataPool.ErasureCoded.CodingChunks)
	}
	Expect(widest).To(BeNumerically("<=", oneNodeOSDs), what+": a pool wider than the node's OSDs")
}
