#!/usr/bin/env bash
# Stops the local Kubernetes that hack/cluster/up.sh started and removes what it made:
# NetworkPolicy enforcement (netpol.sh down), then, through cmd/local-cluster
# (internal/localcluster), the workers and the first node: pods and their containers,
# processes (recognised by this cluster's paths on their command lines), mounts, the
# CNI bridges, the nodes' addresses, kube-proxy's and the kubelet's iptables rules,
# the kubelets' cgroups, host settings, and the cluster's state. Kept for the next
# start: the built binaries, containerd's image stores (imported images cannot be
# pulled again), the registry's storage and the logs of this cluster.
# Idempotent, and safe when nothing runs, also after an interrupted up or down.
#
# Usage: down.sh [--purge]   --purge also removes the image stores, the registry's
#                            storage and the logs
set -Eeuo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PURGE=()
case "${1:-}" in
--purge) PURGE=(--purge) ;;
"") ;;
-h | --help)
	sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 0
	;;
*) die "unknown argument '$1' (usage: down.sh [--purge])" ;;
esac

require_root
# Before the lock, which netpol.sh takes itself: its rules match pods' addresses that
# the launcher's patterns do not, and would outlive the cluster.
"$(dirname "${BASH_SOURCE[0]}")/netpol.sh" down
take_cluster_lock
started_at=$SECONDS
build_local_cluster
"$LOCAL_CLUSTER" down --cluster-dir "$CLUSTER_DIR" --node-name "$CLUSTER_NODE_NAME" --node-ip "$CLUSTER_NODE_IP" \
	--peer-ip "$CLUSTER_NODE_PEER_IP" --crictl "$CRICTL" --registry-dir "$CLUSTER_REGISTRY_DIR" "${PURGE[@]}" 8>&-
if ((${#PURGE[@]})); then
	log "down in $((SECONDS - started_at))s; state, images and logs removed"
else
	log "down in $((SECONDS - started_at))s; kept the image stores and the logs ($CLUSTER_LOG_DIR)"
fi
