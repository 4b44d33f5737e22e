//go:build e2e

package e2e

import (
	. "github.com/onsi/ginkgo/v2"
)

// One ordered story, as a user would live it: install, refuse bad input, run Hadoop on
// an external Ceph, check who may submit to it, upgrade the operator under it, change
// its queues, benchmark it, run a user's commands and analytics on it and open its web
// UIs, compare it with an HDFS that runs beside it, break a node, delete the cluster;
// then install Rook, let it make CephFS for Hadoop, replicated and erasure-coded, start
// a cluster on each (the replicated one's on the pod network, where undeclared pods
// are kept away), sort on both, count words from a user's own pod on the replicated
// one, break an OSD, then a whole node, shrink and roll the replicated one's
// NodeManagers, delete what Rook made.
// Last, NodeManagers scheduled on a device plugin's extended resources, on the
// external Ceph again: that spec makes its own StorageBackend, is labelled devices
// too, and comes last so that its failure skips nothing else.
// Each storage path's specs share its clusters (clusters_test.go). A spec that fails
// skips the rest, whose premises it was. The labels external and rook select a
// storage path; the operator's and the admission specs carry neither and belong to
// both. The HDFS comparison, labelled hdfs too, needs the external path's cluster.
var _ = Describe("Hadoop on CephFS", Ordered, func() {
	Context("the operator installed by Helm", operatorSpecs)
	Context("admission", admissionSpecs)
	Context("a HadoopCluster on an external Ceph", Label("external"), clusterSpecs)
	Context("YARN's ACLs", Label("external"), aclSpecs)
	Context("upgrading the operator's release", Label("external"), upgradeSpecs)
	Context("upgrading from the last release", Label("external"), releaseUpgradeSpecs)
	Context("YARN's queues", Label("external"), queueSpecs)
	Context("benchmarks", Label("external"), benchmarkSpecs)
	Context("users' own work", Label("external"), userWorkSpecs)
	Context("CephFS against an existing HDFS", Label("external", "hdfs"), hdfsBaselineSpecs)
	Context("kubectl hadoopceph", Label("external", "hdfs"), pluginSpecs)
	Context("a NodeManager lost during a TeraSort", Label("external"), nodeLossSpecs)
	Context("deleting the HadoopCluster", Label("external"), deletionSpecs)
	Context("Rook installed while the operator runs", Label("rook"), rookInstallSpecs)
	Context("StorageBackends through Rook", Label("rook"), rookBackendSpecs)
	Context("NetworkPolicies enforced on the pod network", Label("rook"), networkPolicySpecs)
	Context("TeraSort on each Rook backend", Label("rook"), rookTeraSortSpecs)
	Context("a user's own client pod on the pod network", Label("rook"), userPodSpecs)
	Context("an OSD lost during a TeraSort on the erasure-coded pool", Label("rook"), osdLossSpecs)
	Context("a whole node lost during a TeraSort on the erasure-coded pool across hosts", Label("rook"), hostLossSpecs)
	Context("a graceful scale-down during a TeraSort on the pod network", Label("rook"), decommissionSpecs)
	Context("deleting Rook-mode StorageBackends", Label("rook"), rookDeletionSpecs)
	Context("the data network through Multus", Label("external", "multus"), dataNetworkSpecs)
	Context("extended resources of a device plugin", Label("external", "devices"), deviceSpecs)
})
