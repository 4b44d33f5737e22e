//go:build e2e

package e2e

import (
	. "github.com/onsi/ginkgo/v2"
)

// One ordered story on one cluster, as a user would live it: install, refuse bad
// input, run Hadoop, benchmark it, break a node, delete the cluster. A spec that fails
// skips the rest, whose premises it was.
var _ = Describe("Hadoop on CephFS", Ordered, func() {
	Context("the operator installed by Helm", operatorSpecs)
	Context("admission", admissionSpecs)
	Context("a HadoopCluster on an external Ceph", clusterSpecs)
	Context("benchmarks", benchmarkSpecs)
	Context("a NodeManager lost during a TeraSort", nodeLossSpecs)
	Context("deleting the HadoopCluster", deletionSpecs)
})
