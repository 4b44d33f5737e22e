#!/usr/bin/env bash
# Enforces NetworkPolicy on the local Kubernetes (hack/cluster/up.sh), whose bridge CNI
# plugin does not: kube-router (hack/tools/kube-router.sh) runs on the host with only
# its network-policy controller, which filters the pods' bridged traffic with iptables
# and ipsets. No routing, no service proxy (kube-proxy routes Services), no CNI
# configuration of its own.
#
# Usage: netpol.sh up|down
#   up    starts it (or leaves it running when its command line is the same) and waits
#         until it has synced every policy and pod once; log in logs/kube-router.log
#   down  stops it and removes its iptables rules, chains and ipsets and the route below
# Both are idempotent. A stopped kube-router leaves its rules enforced as they were:
# `down` is what lifts them.
#
# Policies apply only to pods on the pod network (CLUSTER_POD_CIDR): hostNetwork pods,
# which share the node's address, are never selected, and the host's own traffic
# (loopback, the local Ceph, the kubelet) passes untouched.
set -Eeuo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

NAME=kube-router
# A name of this cluster's for the binary, so our_pids recognises the process.
LINK="$CLUSTER_DIR/bin/$NAME"
LOG="$CLUSTER_LOG_DIR/$NAME.log"
# What the controller creates in the filter table and as ipsets (kube-router's
# pkg/controllers/netpol: top-level, per-policy and per-pod chains; source and
# destination sets per policy).
CHAINS_RE='^(KUBE-ROUTER-(INPUT|FORWARD|OUTPUT)|KUBE-NWPLCY-.*|KUBE-POD-FW-.*)$'
IPSETS_RE='^KUBE-(SRC|DST)-'
# A denied connection is REJECTed: the host answers the pod with an ICMP error, routed
# like any packet of the host's. The bridge has no address and the host no route to the
# pods, so that answer would take the default route out of the host; this route drops it
# there (the pod sees a timeout). The metric keeps it below any route a CNI change adds.
POD_ROUTE=(unreachable "$CLUSTER_POD_CIDR" metric 4242)

# The process started last (the log's last "====" section) has finished a full sync:
# every policy and pod of the node is in iptables. Chains left by an earlier run would
# not tell that.
synced() { awk '/^==== /{ s = 0 } /sync iptables took/{ s = 1 } END { exit !s }' "$LOG"; }

up() {
	local bin pids argv
	ensure_debs iptables ipset
	bin="$("$ROOT/hack/tools/kube-router.sh" | tail -1)"
	[[ -f "$KUBECONFIG" ]] || die "no cluster: $KUBECONFIG is missing (run hack/cluster/up.sh first)"
	mkdir -p "$(dirname "$LINK")" "$CLUSTER_LOG_DIR"
	ln -sfn "$bin" "$LINK"

	# Pods on one node talk through the bridge: without bridge-nf-call-iptables, which
	# up.sh sets for kube-proxy (and down.sh restores), their packets never reach the
	# FORWARD chain the policies hang off.
	[[ "$(cat "$BRIDGE_NF" 2>/dev/null)" == 1 ]] || die "$BRIDGE_NF is not 1; run hack/cluster/up.sh first"
	ip route replace "${POD_ROUTE[@]}"

	# --hostname-override: the node object it reads its InternalIP from, which the
	# pods' status.hostIP must equal for them to count as local.
	# --service-cluster-ip-range: it whitelists that range in its INPUT chain.
	# --health-port=0: its health server would listen on every address.
	# The admin kubeconfig: it lists pods, namespaces, policies, nodes and services.
	argv=("$LINK" --run-firewall=true --run-router=false --run-service-proxy=false --enable-cni=false
		--kubeconfig="$KUBECONFIG" --hostname-override="$CLUSTER_NODE_NAME"
		--service-cluster-ip-range="$CLUSTER_SERVICE_CIDR" --health-port=0 --v=1)
	mapfile -t pids < <(our_pids "$NAME")
	if [[ ${#pids[@]} -eq 1 ]] && cmp -s <(printf '%s\0' "${argv[@]}") "/proc/${pids[0]}/cmdline"; then
		log "already running (pid ${pids[0]})"
	else
		stop_procs "$NAME"
		log "starting $NAME (log: $LOG)"
		printf '\n==== %s %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "${argv[*]}" >>"$LOG"
		# The daemon must not inherit the cluster lock (fd 8), or it would hold it forever.
		setsid "${argv[@]}" >>"$LOG" 2>&1 </dev/null 8>&- &
	fi
	wait_until 60 "$NAME to sync its iptables rules (log: $LOG)" synced
	[[ -n "$(our_pids "$NAME")" ]] || die "$NAME exited (log: $LOG)"
	log "NetworkPolicy is enforced on node $CLUSTER_NODE_NAME"
}

# kube-router's --cleanup-config is no use: in this version it leaves every
# network-policy rule in place (it cleans up with an unconfigured controller), then
# flushes all of the host's IPVS services and crashes. The rules are removed here in
# one iptables-restore (the jumps from the built-in chains, then the chains), then the
# ipsets they referenced.
down() {
	local chains set
	stop_procs "$NAME"
	if command -v iptables-save >/dev/null; then
		mapfile -t chains < <(iptables-save -t filter | sed -n 's/^:\([^ ]*\) .*/\1/p' | grep -E "$CHAINS_RE" || true)
		if [[ ${#chains[@]} -gt 0 ]]; then
			log "removing ${#chains[@]} iptables chains"
			{
				echo '*filter'
				iptables-save -t filter | sed -n 's/^-A \(INPUT\|FORWARD\|OUTPUT\) \(.*-j KUBE-ROUTER-.*\)/-D \1 \2/p'
				printf -- '-F %s\n' "${chains[@]}"
				printf -- '-X %s\n' "${chains[@]}"
				echo COMMIT
			} | iptables-restore --noflush
		fi
	fi
	if command -v ipset >/dev/null; then
		while read -r set; do
			ipset destroy "$set"
		done < <(ipset list -n | grep -E "$IPSETS_RE" || true)
	fi
	ip route del "${POD_ROUTE[@]}" 2>/dev/null || true
	rm -f "$LINK"
	log "NetworkPolicy enforcement stopped"
}

case "${1:-}" in
up | down)
	require_root
	take_cluster_lock
	"$1"
	;;
-h | --help)
	sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'
	;;
*) die "usage: netpol.sh up|down" ;;
esac
