# shellcheck shell=bash
# Helpers of hack/cluster/*.sh. Sourced, not executed.

CLUSTER_SCRIPTS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck disable=SC2034 # used by the scripts that source this file
ROOT="$(cd "$CLUSTER_SCRIPTS_DIR/../.." && pwd)"
# shellcheck source=env.sh
source "$CLUSTER_SCRIPTS_DIR/env.sh"

HCO_LOG_NAME="cluster-$(basename "$0" .sh)"
# shellcheck source=../log.sh
source "$CLUSTER_SCRIPTS_DIR/../log.sh"

# Whether frames crossing a bridge pass iptables (up.sh sets it, down.sh restores it).
# shellcheck disable=SC2034 # used by the scripts that source this file
BRIDGE_NF=/proc/sys/net/bridge/bridge-nf-call-iptables

kubectl() { "$K8S_BIN_DIR/kubectl" --kubeconfig "$KUBECONFIG" "$@"; }

# Explicit endpoints, never a configuration file's: crictl's default endpoint is the
# system containerd's.
crictl() { "$CRICTL" --config /dev/null --runtime-endpoint "unix://$CONTAINERD_SOCKET" --image-endpoint "unix://$CONTAINERD_SOCKET" --timeout 30s "$@"; }

ctr() { command ctr --address "$CONTAINERD_SOCKET" --namespace k8s.io "$@"; }

# node_sockets prints the containerd socket of every running node: the first node's,
# then each worker's (cmd/local-cluster), so that an image can be imported everywhere.
node_sockets() {
	local sock
	echo "$CONTAINERD_SOCKET"
	for sock in /run/hco-n*/containerd.sock; do
		[[ -S "$sock" ]] && echo "$sock"
	done
	return 0
}

require_root() {
	[[ $EUID -eq 0 ]] || die "must run as root: the kubelet and containerd create mounts, cgroups and network interfaces"
}

# check_host stops at once when the host is not the kind the local cluster has run on:
# cgroup v1 with no systemd as PID 1. The kubelets use the cgroupfs driver with a
# cgroup root per node in every v1 hierarchy; under cgroup v2 or systemd (a stock
# Debian 12) that layout has not run, and failing later, half started, would say less
# than this. HCO_CLUSTER_UNTESTED_HOST=1 goes on anyway (docs/local-cluster.md, "The
# host", says what would change there).
check_host() {
	local cgroups=v1 init
	[[ "$(stat -fc %T /sys/fs/cgroup 2>/dev/null)" == cgroup2fs ]] && cgroups=v2
	init="$(ps -p 1 -o comm= 2>/dev/null || echo unknown)"
	[[ "$cgroups" == v2 || "$init" == systemd ]] || return 0
	local what="this host has cgroup $cgroups and runs $init as PID 1, and the local cluster has run only on cgroup v1 without systemd: its kubelets use the cgroupfs driver with a cgroup root per node in every v1 hierarchy (docs/local-cluster.md, \"The host\")"
	if [[ "${HCO_CLUSTER_UNTESTED_HOST:-}" == 1 ]]; then
		log "warning: $what; going on, as HCO_CLUSTER_UNTESTED_HOST=1 asks"
		return 0
	fi
	die "$what. It needs a host with cgroup v1 and no systemd as PID 1 (a VM or container whose init is not systemd, booted with cgroup v1); HCO_CLUSTER_UNTESTED_HOST=1 tries anyway. make test needs none of this."
}

# shellcheck source=../debs.sh
source "$CLUSTER_SCRIPTS_DIR/../debs.sh"

# Up, down and netpol would trip over each other's half-done work.
take_cluster_lock() {
	mkdir -p "$HCO_CACHE"
	exec 8>"$HCO_CACHE/.cluster.lock"
	if ! flock -n 8; then
		log "waiting for another hack/cluster script to finish (lock $HCO_CACHE/.cluster.lock)"
		flock 8
	fi
}

# our_pids NAME prints the pids of this cluster's processes whose executable is called
# NAME. A process is ours only when its command line names a path of this cluster (the
# shims: our containerd's socket), so another containerd, etcd or kubelet on the host is
# never touched. A process forked by another of them (a connection of the service proxy)
# is not listed: it ends with its connection.
our_pids() {
	local name="$1" marker="$CLUSTER_DIR/"
	[[ "$name" == containerd-shim-runc-v2 ]] && marker="$CONTAINERD_SOCKET"
	# The workers' daemons name their node's directory: they are cmd/local-cluster's.
	ps -eo pid=,ppid=,args= | awk -v name="$name" -v marker="$marker" -v workers="$CLUSTER_DIR/nodes/" '
		{ exe = $3; sub(/.*\//, "", exe) }
		exe == name && index($0, marker) > 0 && index($0, workers) == 0 { ours[$1] = 1; parent[$1] = $2 }
		END { for (p in ours) if (!(parent[p] in ours)) print p }'
}

# alive PIDS... prints those of PIDS that have not finished exiting. A zombie has (its
# sockets are closed), while an exiting process's command line is already empty when
# it still holds its ports, so the pids are followed rather than looked up again.
alive() {
	local pid state
	for pid in "$@"; do
		state="$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" || continue
		[[ -n "$state" && "$state" != Z ]] && echo "$pid"
	done
	return 0
}

# stop_procs NAME... sends TERM to this cluster's processes called NAME, then KILL to
# those still there after 30 s.
stop_procs() {
	local name pids=()
	for name in "$@"; do
		mapfile -t -O "${#pids[@]}" pids < <(our_pids "$name")
	done
	[[ ${#pids[@]} -eq 0 ]] && return 0
	log "stopping $* (pid ${pids[*]})"
	kill -TERM "${pids[@]}" 2>/dev/null || true
	poll 0.5 30 gone "${pids[@]}" && return 0
	mapfile -t pids < <(alive "${pids[@]}")
	log "killing $* (pid ${pids[*]}), still there after 30 s"
	kill -KILL "${pids[@]}" 2>/dev/null || true
	poll 0.5 10 gone "${pids[@]}" || log "$* (pid $(alive "${pids[@]}" | tr '\n' ' ')) still there after SIGKILL"
}

# gone PIDS... succeeds when none of PIDS is alive.
gone() { [[ -z "$(alive "$@")" ]]; }

# write_file FILE [MODE] writes stdin to FILE when the content differs; the status
# tells whether it did (0) or FILE already had that content (1).
write_file() {
	local file="$1" mode="${2:-0644}" tmp
	mkdir -p "$(dirname "$file")"
	tmp="$(mktemp "$file.XXXXXX")"
	cat >"$tmp"
	if [[ -f "$file" ]] && cmp -s "$tmp" "$file"; then
		rm -f "$tmp"
		return 1
	fi
	chmod "$mode" "$tmp"
	mv "$tmp" "$file"
}

# build_local_cluster builds the cluster's launcher (cmd/local-cluster) from this
# checkout with the pinned Go: up.sh and down.sh run what this checkout says.
build_local_cluster() {
	local gobin
	gobin="$("$ROOT/hack/tools/go.sh")"
	(cd "$ROOT" && GOTOOLCHAIN=local CGO_ENABLED=0 "$gobin/go" build -trimpath -o "$LOCAL_CLUSTER.tmp" ./cmd/local-cluster)
	mv "$LOCAL_CLUSTER.tmp" "$LOCAL_CLUSTER"
}
