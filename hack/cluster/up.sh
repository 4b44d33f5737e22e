#!/usr/bin/env bash
# Starts a real Kubernetes on this host for the end-to-end tests and the demo: the
# control plane (etcd, kube-apiserver, kube-controller-manager, kube-scheduler, CoreDNS,
# the image registry) and a first node (containerd with runc and the CNI plugins, a
# kubelet, kube-proxy) in the host's namespaces, and HCO_CLUSTER_NODES-1 worker nodes,
# each in namespaces of its own. Every server listens on loopback or a node's own
# address; docs/local-cluster.md explains the settings.
#
# This script installs the tools and hands the rest to cmd/local-cluster
# (internal/localcluster), which is idempotent: what runs with the wanted command line
# and configuration is left alone, what is missing or changed is (re)started, so a
# healthy cluster is reported as such in a few seconds. It waits for every node to be
# Ready and the default ServiceAccount to exist; this script then prints the KUBECONFIG
# line to use. hack/cluster/down.sh stops it all.
#
# State lives in $HCO_CACHE/cluster (logs in logs/), runtime state in
# /run/hco-containerd; Kubernetes binaries come from hack/tools, the pause image from
# hack/images.
set -Eeuo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Debian packages: the runtime, the CNI plugins, kube-proxy's iptables, and what this
# script, hack/images/import.sh and down.sh call.
PACKAGES=(containerd runc containernetworking-plugins iptables socat curl iproute2 util-linux umoci jq busybox-static)

# ---------------------------------------------------------------------------- tools

install_tools() {
	local bin
	ensure_debs "${PACKAGES[@]}"
	for bin in etcd kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl; do
		if [[ ! -x "$K8S_BIN_DIR/$bin" ]]; then
			log "building the Kubernetes $KUBERNETES_VERSION binaries from source (about 10 minutes the first time)"
			"$ROOT/hack/tools/envtest-assets.sh" --all >/dev/null
			break
		fi
	done
	"$ROOT/hack/tools/crictl.sh" >/dev/null
	"$ROOT/hack/tools/coredns.sh" >/dev/null
	REGISTRY_BIN="$("$ROOT/hack/tools/registry.sh" registry | tail -1)"
	build_local_cluster
}

# Each node's kubelet sees the host's whole memory; reserving (N-1)/N of it on each
# worker leaves the nodes' allocatable memory together near the host's instead of N
# times it. The first node keeps the whole: it also runs the control plane and the
# local Ceph, which no allocatable accounts for. CPU is not split: it is compressible,
# and 2 cores split thrice could not schedule the suite's requests.
worker_memory_reserved() {
	local total_kib
	total_kib="$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)"
	echo "$((total_kib / 1024 * (CLUSTER_NODES - 1) / CLUSTER_NODES))Mi"
}

# ---------------------------------------------------------------------------- main

case "${1:-}" in
-h | --help)
	sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 0
	;;
esac

require_root
check_host
take_cluster_lock
started_at=$SECONDS

install_tools
"$ROOT/hack/images/build.sh" pause
kube_router=""
((CLUSTER_NODES > 1)) && kube_router="$("$ROOT/hack/tools/kube-router.sh" | tail -1)"
# Multus and whereabouts for the data network (docs/local-cluster.md), and the
# daemon's image.
multus_dir="$("$ROOT/hack/tools/multus.sh" | tail -1)"
"$ROOT/hack/images/build.sh" multus
# shellcheck source=../images/images.env
source "$ROOT/hack/images/images.env"
# The nodes outlive this script: they must not inherit the lock (fd 8).
"$LOCAL_CLUSTER" up --nodes "$CLUSTER_NODES" --cluster-dir "$CLUSTER_DIR" --k8s-bin "$K8S_BIN_DIR" \
	--node-name "$CLUSTER_NODE_NAME" --node-ip "$CLUSTER_NODE_IP" --peer-ip "$CLUSTER_NODE_PEER_IP" \
	--etcd-port "$CLUSTER_ETCD_CLIENT_PORT" --etcd-peer-port "$CLUSTER_ETCD_PEER_PORT" \
	--containerd "$(command -v containerd)" --socat "$(command -v socat)" --coredns "$COREDNS" --crictl "$CRICTL" \
	--registry "$CLUSTER_REGISTRY" --registry-bin "$REGISTRY_BIN" --registry-dir "$CLUSTER_REGISTRY_DIR" \
	--pause-archive "$HCO_CACHE/images/pause.tar" --pause-image "$PAUSE_IMAGE" \
	--kube-router "$kube_router" --memory-reserved "$(worker_memory_reserved)" --multus-dir "$multus_dir" 8>&-
# Multus's daemon comes from the cluster's registry, by digest, as a real cluster's
# DaemonSets do; the registry runs once the first node is up.
multus_ref="$("$ROOT/hack/images/push.sh" --insecure "$CLUSTER_REGISTRY" multus | tail -1)"
[[ "$multus_ref" == *@sha256:* ]] || die "push.sh printed no digest for the Multus image: $multus_ref"
"$LOCAL_CLUSTER" multus --k8s-bin "$K8S_BIN_DIR" --cluster-dir "$CLUSTER_DIR" --multus-dir "$multus_dir" --image "$multus_ref" 8>&-
log "$CLUSTER_NODES node(s) Ready after $((SECONDS - started_at))s, cluster DNS on $CLUSTER_DNS_IP"
echo "export KUBECONFIG=$KUBECONFIG"
