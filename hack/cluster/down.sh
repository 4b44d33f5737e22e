#!/usr/bin/env bash
# Stops the local Kubernetes that hack/cluster/up.sh started and removes what it made:
# pods and their containers, processes (recognised by this cluster's paths on their
# command lines), mounts, the CNI bridge, the node's address, kube-proxy's and the
# kubelet's iptables rules, the kubelet's cgroups, host settings, and the cluster's state. Kept for the next start: the built binaries, containerd's image
# store (imported images cannot be pulled again), the registry's storage and the logs of
# this cluster.
# Idempotent, and safe when nothing runs.
#
# Usage: down.sh [--purge]   --purge also removes the image store and the logs
set -Eeuo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PURGE=0
case "${1:-}" in
--purge) PURGE=1 ;;
"") ;;
-h | --help)
	sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 0
	;;
*) die "unknown argument '$1' (usage: down.sh [--purge])" ;;
esac

# The kubelet's pod cgroups in every hierarchy (cgroup v1 controllers and the unified
# one), deepest first.
kubepods_cgroups() {
	local root
	for root in /sys/fs/cgroup/*/kubepods /sys/fs/cgroup/kubepods; do
		[[ -d "$root" && ! -L "${root%/kubepods}" ]] && find "$root" -depth -type d
	done
	return 0
}

# Through the CRI, so that containerd also tears down the pods' network namespaces and
# releases their addresses. Removing a container deletes its log file, so the pod logs
# are hard-linked aside first and put back: they stay for a look after the cluster.
remove_pods() {
	[[ -n "$(our_pids containerd)" && -S "$CONTAINERD_SOCKET" && -x "$CRICTL" ]] || return 0
	local pods kept="$CLUSTER_POD_LOG_DIR.kept"
	pods="$(crictl pods -q 2>/dev/null | wc -l)"
	((pods > 0)) || return 0
	log "removing $pods pod sandboxes and their containers"
	rm -rf "$kept"
	[[ -d "$CLUSTER_POD_LOG_DIR" ]] && cp -al "$CLUSTER_POD_LOG_DIR" "$kept"
	crictl rmp --all --force >/dev/null || log "warning: crictl rmp failed; the processes are killed below"
	if [[ -d "$kept" ]]; then
		rm -rf "$CLUSTER_POD_LOG_DIR"
		mv "$kept" "$CLUSTER_POD_LOG_DIR"
	fi
}

# Whatever still runs in a pod cgroup (containerd died before it could stop it) belongs
# to a pod of this node.
kill_pod_processes() {
	local pids
	mapfile -t pids < <(kubepods_cgroups | while read -r cg; do cat "$cg/cgroup.procs" 2>/dev/null; done | sort -un)
	[[ ${#pids[@]} -eq 0 ]] && return 0
	log "killing ${#pids[@]} leftover pod processes"
	kill -KILL "${pids[@]}" 2>/dev/null || true
	sleep 1
}

unmount_all() {
	local m n=0
	while read -r m; do
		[[ -n "$m" ]] || continue
		umount "$m" 2>/dev/null || umount -l "$m"
		n=$((n + 1))
	done < <(mounts_under "$CLUSTER_DIR" "$CLUSTER_RUN_DIR")
	((n == 0)) || log "unmounted $n file systems under $CLUSTER_DIR and $CLUSTER_RUN_DIR"
}

# The chains kube-proxy (pkg/proxy/iptables: its top-level chains and those per Service,
# Service port and endpoint) and the kubelet (KUBE-FIREWALL, which kube-proxy creates
# too, and the canaries) make, in every table and for both address families: the jumps
# to them from the built-in chains, then the chains, in one iptables-restore per table.
# kube-proxy's own --cleanup is not used: it also flushes every IPVS service of the host.
KUBE_CHAINS_RE='^KUBE-(SERVICES|EXTERNAL-SERVICES|NODEPORTS|POSTROUTING|MARK-MASQ|FORWARD|PROXY-FIREWALL|PROXY-CANARY|FIREWALL|KUBELET-CANARY|IPTABLES-HINT|(SVC|SVL|EXT|FW|SEP)-[A-Z0-9]+)$'

remove_kube_chains() {
	local family save table chains
	for family in ip ip6; do
		save="${family}tables-save"
		command -v "$save" >/dev/null || continue
		for table in filter nat mangle; do
			mapfile -t chains < <("$save" -t "$table" 2>/dev/null | sed -n 's/^:\([^ ]*\) .*/\1/p' | grep -E "$KUBE_CHAINS_RE" || true)
			[[ ${#chains[@]} -gt 0 ]] || continue
			log "removing ${#chains[@]} ${family}tables chains of kube-proxy and the kubelet from table $table"
			{
				echo "*$table"
				"$save" -t "$table" | awk -v re="$KUBE_CHAINS_RE" '
					$1 == "-A" && $2 ~ /^(PREROUTING|INPUT|FORWARD|OUTPUT|POSTROUTING)$/ && $(NF - 1) == "-j" && $NF ~ re { sub(/^-A/, "-D"); print }'
				printf -- '-F %s\n' "${chains[@]}"
				printf -- '-X %s\n' "${chains[@]}"
				echo COMMIT
			} | "${family}tables-restore" --noflush
		done
	done
}

remove_network() {
	if ip link show "$CLUSTER_CNI_BRIDGE" >/dev/null 2>&1; then
		log "deleting bridge $CLUSTER_CNI_BRIDGE"
		ip link delete "$CLUSTER_CNI_BRIDGE"
	fi
	# Deleting the namespace deletes the veth pair, and with it the node's addresses.
	if ip netns list | grep -qw "$CLUSTER_NODE_NETNS"; then
		log "deleting the node's address $CLUSTER_NODE_IP (network namespace $CLUSTER_NODE_NETNS)"
		ip netns delete "$CLUSTER_NODE_NETNS"
	fi
	if ip link show "$CLUSTER_NODE_LINK" >/dev/null 2>&1; then
		ip link delete "$CLUSTER_NODE_LINK"
	fi
	remove_kube_chains
	# The bridge plugin adds no rules with ipMasq off; any rule left that names the
	# bridge or the pod network is removed.
	command -v iptables-save >/dev/null || return 0
	local table rule
	for table in filter nat mangle; do
		while read -r rule; do
			# shellcheck disable=SC2086 # a rule is a list of arguments
			iptables -t "$table" -D ${rule#-A } 2>/dev/null || true
		done < <(iptables-save -t "$table" 2>/dev/null | grep -E "^-A .*(-i|-o) $CLUSTER_CNI_BRIDGE |^-A .*${CLUSTER_POD_CIDR//./\\.}" || true)
	done
}

remove_cgroups() {
	local cg n=0
	while read -r cg; do
		rmdir "$cg" 2>/dev/null && n=$((n + 1))
	done < <(kubepods_cgroups)
	((n == 0)) || log "removed $n pod cgroups"
	if [[ -n "$(kubepods_cgroups)" ]]; then
		log "warning: cgroups left behind: $(kubepods_cgroups | tr '\n' ' ')"
	fi
}

restore_host_sysctls() {
	local file="$CLUSTER_DIR/host-sysctls" line
	[[ -f "$file" ]] || return 0
	while IFS= read -r line; do
		echo "${line#*=}" >"/proc/sys/$(tr . / <<<"${line%%=*}")" || log "warning: could not restore $line"
	done <"$file"
	rm -f "$file"
}

# The pod sandboxes containerd knows of, dead or alive, from its state directory.
sandbox_ids() {
	local dir="$CLUSTER_RUN_DIR/state/io.containerd.grpc.v1.cri/sandboxes"
	[[ -d "$dir" ]] && find "$dir" -mindepth 1 -maxdepth 1 -type d -printf '%f\n'
	return 0
}

# What the kubelet and the CNI plugins leave at fixed paths: the kubelet's device
# plugin socket, a link per container log into /var/log/containers, libcni's result
# cache entries of this cluster's sandboxes (left when containerd died before tearing
# a pod's network down). Then the directories up.sh found missing, now empty.
remove_host_files() {
	local link path id file="$CLUSTER_DIR/host-paths"
	rm -f /var/lib/kubelet/device-plugins/kubelet.sock /var/lib/cni/results/"$CLUSTER_CNI_NETWORK"-*
	for id in "${SANDBOXES[@]}"; do
		rm -f /var/lib/cni/results/*-"$id"-*
	done
	for link in /var/log/containers/*.log; do
		if [[ -L "$link" && "$(readlink "$link")" == "$CLUSTER_POD_LOG_DIR/"* ]]; then
			rm -f "$link"
		fi
	done
	[[ -f "$file" ]] || return 0
	while read -r path; do
		[[ -d "$path" ]] && find "$path" -depth -type d -empty -delete
	done <"$file"
	rm -f "$file"
}

remove_state() {
	rm -rf "$CLUSTER_RUN_DIR"
	if ((PURGE)); then
		rm -rf "$CLUSTER_DIR" "$CLUSTER_REGISTRY_DIR"
		return 0
	fi
	rm -rf "$CLUSTER_ETCD_DIR" "$CLUSTER_PKI_DIR" "$CLUSTER_CONFIG_DIR" "$CLUSTER_KUBELET_DIR" \
		"$CLUSTER_CNI_DIR" "$KUBECONFIG"
}

require_root
# Before the lock, which netpol.sh takes itself: its rules match pods' addresses that
# remove_network's patterns do not, and would outlive the cluster.
"$(dirname "${BASH_SOURCE[0]}")/netpol.sh" down
take_cluster_lock
started_at=$SECONDS

# The workers first, while the API server still answers (their Node objects go).
if [[ -f "$CLUSTER_DIR/nodes/ledger.json" ]]; then
	[[ -x "$LOCAL_CLUSTER" ]] || die "$CLUSTER_DIR/nodes/ledger.json lists workers, but $LOCAL_CLUSTER is missing: run hack/cluster/up.sh once to build it"
	"$LOCAL_CLUSTER" down --cluster-dir "$CLUSTER_DIR" $( ((PURGE)) && echo --purge) 8>&-
fi
stop_procs kubelet
mapfile -t SANDBOXES < <(sandbox_ids)
remove_pods
stop_procs containerd
stop_procs containerd-shim-runc-v2
kill_pod_processes
stop_procs kube-proxy coredns kube-scheduler kube-controller-manager
stop_procs kubernetes-service-proxy kube-apiserver
# dnsmasq: the cluster DNS of clusters started by an earlier version of up.sh.
stop_procs etcd dnsmasq registry
unmount_all
remove_network
remove_cgroups
restore_host_sysctls
remove_host_files
remove_state
if ((PURGE)); then
	log "down in $((SECONDS - started_at))s; state, images and logs removed"
else
	log "down in $((SECONDS - started_at))s; kept the image store ($CLUSTER_CONTAINERD_ROOT) and the logs ($CLUSTER_LOG_DIR)"
fi
