// Package localcluster runs the local Kubernetes's worker nodes: each a real kubelet
// with its own containerd and kube-proxy, in network, mount, UTS, IPC and PID
// namespaces of its own, so that the host holds several nodes the way a rack holds
// several machines. hack/cluster/up.sh starts the control plane and the first node in
// the host's namespaces, then hands the workers to this package (cmd/local-cluster).
//
// The layout (names, addresses, directories) is a pure function of the settings
// (layout.go); the files each node reads are rendered by pure functions (render.go,
// pki.go); what changes the host (network, cgroups, sysctls) is recorded in a ledger
// so that Down undoes it, also after an interrupted run (ledger.go, host.go); a node's
// first process supervises its daemons inside its namespaces (noderun.go), and
// stopping or killing that one process stops or loses the whole node.
package localcluster
