// Package localcluster runs the local Kubernetes: the control plane and the first node
// in the host's own namespaces, and worker nodes, each a real kubelet with its own
// containerd and kube-proxy in network, mount, UTS, IPC and PID namespaces of its own,
// so that the host holds several nodes the way a rack holds several machines.
// hack/cluster/up.sh and down.sh install the tools and call it (cmd/local-cluster).
//
// The layout (names, addresses, directories) is a pure function of the settings
// (layout.go, controlplane.go); the files each node reads, the certificates and every
// process's command line are rendered by pure functions (render.go, pki.go,
// controlplane_render.go, controlplane_pki.go, controlplane_procs.go). The first
// node's processes are started, kept or restarted one by one, each awaited
// (controlplane_up.go, hostproc.go), and stopped with what they left
// (controlplane_down.go). What changes the host (network, cgroups, sysctls) is
// recorded before it is changed so that down undoes it, also after an interrupted run
// (ledger.go, host.go, the first node's host-sysctls and host-paths). A worker's first
// process supervises its daemons inside its namespaces (noderun.go), and stopping or
// killing that one process stops or loses the whole node.
package localcluster
