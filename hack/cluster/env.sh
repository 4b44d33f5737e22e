# shellcheck shell=bash disable=SC2034
# Settings of the local single-node Kubernetes (hack/cluster/up.sh, down.sh, busybox-image.sh,
# logs.sh), also sourced by the demo and the end-to-end suite for KUBECONFIG. Only
# variables: whatever sources this keeps its own functions and shell options.
#
# Every server binds a loopback address or the node's own address below: the host's other
# addresses must never be targeted, and pods reach the control plane and the local Ceph
# through hostNetwork.

HCO_CACHE="${HCO_CACHE:-$HOME/.cache/hadoop-ceph-operator}"
# shellcheck source=../tools/versions.env
source "$(dirname "${BASH_SOURCE[0]}")/../tools/versions.env"

CLUSTER_DIR="${HCO_CLUSTER_DIR:-$HCO_CACHE/cluster}"
KUBECONFIG="$CLUSTER_DIR/kubeconfig"
CLUSTER_PKI_DIR="$CLUSTER_DIR/pki"
CLUSTER_CONFIG_DIR="$CLUSTER_DIR/config"
CLUSTER_LOG_DIR="$CLUSTER_DIR/logs"
# The kubelet's podLogsDir: <namespace>_<pod>_<uid>/<container>/<restarts>.log, what
# hack/cluster/logs.sh reads.
CLUSTER_POD_LOG_DIR="$CLUSTER_LOG_DIR/pods"
CLUSTER_KUBELET_DIR="$CLUSTER_DIR/kubelet"
CLUSTER_ETCD_DIR="$CLUSTER_DIR/etcd"
CLUSTER_CNI_DIR="$CLUSTER_DIR/cni"
# containerd's content store and snapshots: the imported images, which no registry can
# give back, so down.sh keeps them unless asked to purge.
CLUSTER_CONTAINERD_ROOT="$CLUSTER_DIR/containerd"
# Sockets, task state, network namespaces and runc's state of our containerd. A short
# fixed path: unix socket paths are limited to 108 bytes, and HCO_CACHE can be long.
CLUSTER_RUN_DIR="/run/hco-containerd"
CONTAINERD_SOCKET="$CLUSTER_RUN_DIR/containerd.sock"
# Exported for ctr and hack/images/import.sh, which would otherwise talk to the system
# containerd's socket.
export CONTAINERD_ADDRESS="$CONTAINERD_SOCKET"

K8S_BIN_DIR="$HCO_CACHE/k8s/$KUBERNETES_VERSION"
# Built by hack/tools/crictl.sh.
CRICTL="$HCO_CACHE/bin/crictl-$CRICTL_VERSION"
# Built by hack/tools/coredns.sh.
COREDNS="$HCO_CACHE/bin/coredns-$COREDNS_VERSION"

# The kubelet registers the lower-cased host name.
CLUSTER_NODE_NAME="$(hostname | tr '[:upper:]' '[:lower:]')"
CLUSTER_API_PORT=6443
CLUSTER_API_SERVER="https://127.0.0.1:$CLUSTER_API_PORT"
# Off etcd's defaults so an etcd someone else runs on 2379 keeps working.
CLUSTER_ETCD_CLIENT_PORT="${HCO_CLUSTER_ETCD_PORT:-12379}"
CLUSTER_ETCD_PEER_PORT="${HCO_CLUSTER_ETCD_PEER_PORT:-12380}"
CLUSTER_CONTROLLER_MANAGER_PORT=10257
CLUSTER_SCHEDULER_PORT=10259
CLUSTER_KUBELET_PORT=10250
CLUSTER_KUBELET_HEALTHZ_PORT=10248
CLUSTER_KUBE_PROXY_HEALTHZ_PORT=10256
CLUSTER_KUBE_PROXY_METRICS_PORT=10249
# CoreDNS's readiness (its ready plugin), on loopback.
CLUSTER_DNS_READY_PORT=18181
CLUSTER_SERVICE_CIDR=10.96.0.0/16
CLUSTER_DOMAIN=cluster.local
# Pods without hostNetwork get an address on this bridge, whose first address is
# their gateway to the node's address (where Rook's daemons listen) and the Service
# range, and the host's route to them, so the kubelet reaches them for their probes.
# No default route and no masquerading: nothing beyond the host answers them.
CLUSTER_CNI_NETWORK=hco-pods
CLUSTER_CNI_BRIDGE=hco0
CLUSTER_POD_CIDR=10.117.0.0/24
# Every node's pods: node i (the first is this host's) has the (i-1)th /24 of it.
CLUSTER_PODS_CIDR=10.117.0.0/16
# The node's address, its InternalIP: one end of a veth pair whose other end is in a
# network namespace of this cluster's, so no packet to it leaves the host. Rook's mons
# advertise the node's address, and the API server reaches the kubelet there.
CLUSTER_NODE_NETNS=hco-node
CLUSTER_NODE_LINK=hco-node0
CLUSTER_NODE_PEER_LINK=hco-node1
CLUSTER_NODE_IP="${HCO_CLUSTER_NODE_IP:-10.118.0.1}"
CLUSTER_NODE_PEER_IP="${HCO_CLUSTER_NODE_PEER_IP:-10.118.0.2}"
CLUSTER_NODE_PREFIX=24
# Every node's link: the first node's is the /24 above, worker i's the (i-1)th /24,
# the host's end .1 and the node's .2 (internal/localcluster).
CLUSTER_NODES_CIDR=10.118.0.0/16
# Nodes in the cluster. The first node is this host; the others are workers, each a
# kubelet with its own containerd and kube-proxy in network, mount, UTS, IPC and PID
# namespaces of its own, run by cmd/local-cluster (docs/local-cluster.md).
CLUSTER_NODES="${HCO_CLUSTER_NODES:-1}"
# The workers' DNS domain (n2.hco.test ...), cmd/local-cluster's default, which the
# cluster DNS answers for.
CLUSTER_NODE_DOMAIN=hco.test
# The cluster's image registry (the CNCF Distribution registry, hack/tools/registry.sh),
# on the first node's address, which every node reaches; its storage outlives the
# cluster, like the image stores. Every node's containerd pulls from it over plain
# HTTP (config/certs.d), as a cluster's nodes pull from their registry.
CLUSTER_REGISTRY="$CLUSTER_NODE_IP:5000"
CLUSTER_REGISTRY_DIR="$HCO_CACHE/registry"
# The workers' launcher, built from this checkout by up.sh.
LOCAL_CLUSTER="$HCO_CACHE/bin/local-cluster"
# The cluster DNS (CoreDNS, the kubelet's clusterDNS) listens on the node's address,
# which pods on the host's network and on the bridge both reach.
CLUSTER_DNS_IP="$CLUSTER_NODE_IP"
# The kubernetes Service's address (the first of CLUSTER_SERVICE_CIDR), which pods find
# in KUBERNETES_SERVICE_HOST. The API server publishes no endpoints for it (it listens
# on loopback only), so kube-proxy leaves it alone: the address sits on the node's link
# and a proxy there forwards it to the API server.
CLUSTER_KUBERNETES_SERVICE_IP=10.96.0.1
