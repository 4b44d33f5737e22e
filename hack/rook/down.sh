#!/usr/bin/env bash
# Removes what hack/rook/up.sh made: every Rook object in the local Kubernetes (with
# Rook's finalizers lifted, since the data goes too), Rook's Helm release, namespace and
# CRDs, then the loop devices, their files and the CephCluster's data directory. Ceph
# data of the local Rook is lost; the Ceph image stays in the image cache.
#
# Also works when the local Kubernetes is down (the pods are gone with it): then only
# the host's part is cleaned up. Idempotent.
set -Eeuo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Rook's CRDs, from its chart's release (deploy/examples/crds.yaml): ceph.rook.io and
# the object bucket kinds.
rook_crds() {
	kubectl get crd -o name 2>/dev/null | grep -E '\.ceph\.rook\.io$|\.objectbucket\.io$' || true
}

remove_kubernetes_objects() {
	local crd kind objects helm
	kubectl get --raw /readyz >/dev/null 2>&1 || {
		log "the local Kubernetes is not running: nothing to remove there"
		return 0
	}
	# The operator goes first, so it does not act on the deletions below.
	helm="$(helm_binary)"
	if "$helm" status "$ROOK_RELEASE" --namespace "$ROOK_NAMESPACE" --kubeconfig "$KUBECONFIG" >/dev/null 2>&1; then
		log "uninstalling Rook's Helm release"
		"$helm" uninstall "$ROOK_RELEASE" --namespace "$ROOK_NAMESPACE" --kubeconfig "$KUBECONFIG" --wait >/dev/null
	fi
	for crd in $(rook_crds); do
		kind="${crd#*/}"
		mapfile -t objects < <(kubectl get "$kind" -A -o jsonpath='{range .items[*]}{.metadata.namespace}{" "}{.metadata.name}{"\n"}{end}' 2>/dev/null)
		for o in "${objects[@]}"; do
			[[ -n "$o" ]] || continue
			kubectl -n "${o% *}" patch "$kind" "${o#* }" --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || true
			kubectl -n "${o% *}" delete "$kind" "${o#* }" --wait=false >/dev/null 2>&1 || true
		done
	done
	if kubectl get namespace "$ROOK_NAMESPACE" >/dev/null 2>&1; then
		log "deleting namespace $ROOK_NAMESPACE"
		# Rook's Secrets and ConfigMaps carry finalizers of their own.
		for kind in secret configmap; do
			kubectl -n "$ROOK_NAMESPACE" get "$kind" -o name | while read -r o; do
				kubectl -n "$ROOK_NAMESPACE" patch "$o" --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || true
			done
		done
		kubectl delete namespace "$ROOK_NAMESPACE" --timeout=180s >/dev/null
	fi
	mapfile -t objects < <(rook_crds)
	if ((${#objects[@]} > 0)); then
		log "deleting Rook's CRDs"
		kubectl delete "${objects[@]}" --timeout=60s >/dev/null
	fi
}

require_root
take_rook_lock
started_at=$SECONDS
remove_kubernetes_objects
remove_host_state
log "down in $((SECONDS - started_at))s"
