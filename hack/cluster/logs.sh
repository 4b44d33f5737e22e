#!/usr/bin/env bash
# Prints a pod's container log from the kubelet's pod log directory of the local
# cluster, for when `kubectl logs` cannot reach the kubelet (docs/local-cluster.md) or
# the cluster is down: down.sh keeps the files of the pods it removed.
#
# Usage: logs.sh [-p] NAMESPACE POD [CONTAINER]
#   CONTAINER  default: the only container, or every container (init containers too)
#              under a header each
#   -p         the previous instance of the container (before its last restart)
# The newest pod of that name is read when several existed (a StatefulSet's pod that
# was recreated, say). Rotated files come first, so the output is in time order.
set -Eeuo pipefail
# shellcheck source=env.sh
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

HCO_LOG_NAME=cluster-logs
# shellcheck source=../log.sh
source "$(dirname "${BASH_SOURCE[0]}")/../log.sh"

previous=0
if [[ "${1:-}" == -p ]]; then
	previous=1
	shift
fi
case "${1:-}" in
-h | --help)
	sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 0
	;;
esac
[[ $# -ge 2 && $# -le 3 ]] || die "usage: logs.sh [-p] NAMESPACE POD [CONTAINER]"
namespace="$1" pod="$2" container="${3:-}"

# <namespace>_<pod>_<uid>, newest first.
pod_dir="$(find "$CLUSTER_POD_LOG_DIR" -mindepth 1 -maxdepth 1 -type d -name "${namespace}_${pod}_*" -printf '%T@ %p/\n' 2>/dev/null |
	sort -rn | head -1 | cut -d' ' -f2-)"
[[ -n "$pod_dir" ]] || die "no logs of pod $namespace/$pod in $CLUSTER_POD_LOG_DIR"

# The kubelet writes the CRI format "<time> <stream> <P|F> <text>", P marking a
# partial line the next record continues.
strip_cri() {
	awk '{ tag = $3; sub(/^[^ ]+ [^ ]+ [^ ]+ ?/, ""); printf "%s%s", $0, (tag == "P" ? "" : "\n") }'
}

# print_container DIR prints the log of the current (or previous) instance: the file
# <restarts>.log and its rotated parts <restarts>.log.<time>[.gz].
print_container() {
	local dir="$1" instances instance f
	mapfile -t instances < <(find "$dir" -maxdepth 1 -name '*.log' -printf '%f\n' | sed 's/\.log$//' | sort -n)
	[[ ${#instances[@]} -gt previous ]] || die "no $([[ $previous == 1 ]] && echo previous) log in $dir"
	instance="${instances[${#instances[@]} - 1 - previous]}"
	for f in $(find "$dir" -maxdepth 1 -name "$instance.log.*" -printf '%f\n' | sort) "$instance.log"; do
		case "$f" in
		*.gz) zcat "$dir/$f" ;;
		*) cat "$dir/$f" ;;
		esac
	done | strip_cri
}

mapfile -t containers < <(find "$pod_dir" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort)
if [[ -n "$container" ]]; then
	[[ -d "$pod_dir$container" ]] || die "pod $namespace/$pod has no container $container (has: ${containers[*]})"
	print_container "$pod_dir$container"
	exit
fi
if [[ ${#containers[@]} -eq 1 ]]; then
	print_container "$pod_dir${containers[0]}"
	exit
fi
for c in "${containers[@]}"; do
	echo "==> $namespace/$pod container $c <=="
	print_container "$pod_dir$c" || true
done
