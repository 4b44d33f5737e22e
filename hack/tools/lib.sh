# Shared helpers for hack/tools/*.sh. Sourced, not executed.
# shellcheck shell=bash

HCO_TOOLS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.env
source "${HCO_TOOLS_DIR}/versions.env"

HCO_CACHE="${HCO_CACHE:-${HOME}/.cache/hadoop-ceph-operator}"
# Used by the scripts that source this file.
# shellcheck disable=SC2034
{
	HCO_BIN="${HCO_CACHE}/bin"
	HCO_SRC="${HCO_CACHE}/src"
}
HCO_TMP="${HCO_CACHE}/tmp"

# Name of the step in progress, reported by the ERR trap so a failure in a
# long build says which tool and which phase broke.
HCO_STEP="starting"
HCO_SCRIPT="$(basename "$0")"
# shellcheck source=../log.sh
source "${HCO_TOOLS_DIR}/../log.sh"

step() { HCO_STEP="$*"; }

_on_err() {
	local rc=$?
	printf '%s: error: step failed (exit %d): %s\n' "${HCO_SCRIPT}" "${rc}" "${HCO_STEP}" >&2
	exit "${rc}"
}
trap _on_err ERR

# Temporary paths live inside the cache (same file system as the final
# location) so results can be moved into place atomically.
HCO_CLEANUP=()
_cleanup() {
	local p
	for p in "${HCO_CLEANUP[@]+"${HCO_CLEANUP[@]}"}"; do rm -rf -- "${p}"; done
}
trap _cleanup EXIT

# Sets HCO_TMPDIR (not printed: registering for cleanup must happen in
# this shell, not in a command-substitution subshell).
mk_tmpdir() {
	mkdir -p "${HCO_TMP}"
	HCO_TMPDIR="$(mktemp -d "${HCO_TMP}/$1.XXXXXX")"
	HCO_CLEANUP+=("${HCO_TMPDIR}")
}

# Serialises concurrent runs (parallel make, several shells) that would
# otherwise race on the same wrapper module or output file.
take_lock() {
	local name="$1"
	mkdir -p "${HCO_CACHE}"
	exec 9>"${HCO_CACHE}/.${name}.lock"
	if ! flock -n 9; then
		log "waiting for another ${name} run to finish (lock ${HCO_CACHE}/.${name}.lock)"
		flock 9
	fi
}

# lock_unless_built NAME OUT takes NAME's lock and, when OUT is built already, prints
# OUT on fd 3 (the caller's stdout) and exits. The lock comes before the check: a run
# that waited for another (hack/tools/prebuild.sh builds ahead of the steps that need a
# tool) finds the binary that one built.
lock_unless_built() {
	take_lock "$1"
	if [[ -x "$2" ]]; then
		printf '%s\n' "$2" >&3
		exit 0
	fi
}

require_cmd() {
	local c
	for c in "$@"; do
		command -v "${c}" >/dev/null 2>&1 || die "required command not found: ${c}"
	done
}

# Go settings shared by every build here:
# - CGO_ENABLED is fixed because flipping it invalidates the whole build
#   cache for the large Kubernetes dependency graph; static binaries also
#   survive libc changes.
# - GOTOOLCHAIN=local: a module asking for a newer Go must fail loudly rather
#   than trigger a toolchain download that this network may not allow.
# - GOFLAGS is reset so a developer's -race/-tags/-mod does not leak into
#   tool builds and fork the cache.
# GOCACHE and GOMODCACHE stay at the user's defaults so work is shared with
# the project's own builds.
setup_go_env() {
	local gobin
	gobin="$("${HCO_TOOLS_DIR}/go.sh")"
	case ":${PATH}:" in
	*":${gobin}:"*) ;;
	*) export PATH="${gobin}:${PATH}" ;;
	esac
	require_cmd go flock
	export CGO_ENABLED=0
	export GOTOOLCHAIN="${HCO_GOTOOLCHAIN:-local}"
	export GOFLAGS=""
	unset GOOS GOARCH GOBIN GOWORK || true
	export GOWORK=off
}

# "go1.26.8" -> "1.26"
go_minor() {
	local v="${1#go}"
	v="${v%%[!0-9.]*}"
	printf '%s\n' "$(echo "${v}" | cut -d. -f1-2)"
}

# Seconds -> "5m31s".
fmt_secs() {
	local s="$1"
	if ((s >= 60)); then printf '%dm%02ds' $((s / 60)) $((s % 60)); else printf '%ds' "${s}"; fi
}

# align_with_project DIR requires, in the wrapper module DIR (one made here to build a
# pinned tool), the version this project builds with of every module both build, where
# the two differ. Go's build cache keys a compiled package by its module's version, its
# sources and its dependencies' compiled forms: kube-apiserver built on kubernetes' own
# pins (protobuf a pseudo-version behind ours, its staging modules required as v0.0.0
# and replaced), or Helm and controller-gen on k8s.io v0.37.0, compile second copies of
# the Kubernetes libraries the project's tests compile too, minutes of CPU on a fresh
# machine. Requirements only raise versions (Go picks the highest required), so where a
# tool pins a newer version it keeps it. Helm, controller-gen and Ginkgo build on the
# Kubernetes minor the project pins; the cluster's tools (CoreDNS, crictl, kube-router,
# Multus) on older ones, whose client-go calls still compile and work on the project's.
# KEEP names modules that stay at the tool's own version, where a newer one changed an
# API the tool calls (Multus and k8s.io/kubelet's generated field names). Rook's binary
# is not aligned: it calls controller-runtime and component-helpers APIs that changed.
#
# align_with_project DIR [KEEP...]
align_with_project() {
	local dir="$1" root="${HCO_TOOLS_DIR}/../.." theirs path version their
	shift
	local keep=" $* "
	step "aligning the module in ${dir} with the project's module versions"
	if [[ -z "${HCO_PROJECT_MODULES:-}" ]]; then
		HCO_PROJECT_MODULES="$(cd "${root}" && go list -deps -test -tags e2e \
			-f '{{with .Module}}{{if not .Main}}{{.Path}} {{.Version}}{{end}}{{end}}' ./... | sort -u)"
	fi
	theirs="$(cd "${dir}" && GOFLAGS=-mod=mod go list -m -f '{{if not .Main}}{{.Path}} {{.Version}}{{end}}' all)"
	local edits=()
	while read -r path version; do
		[[ -n "${path}" && "${keep}" != *" ${path} "* ]] || continue
		their="$(awk -v p="${path}" '$1 == p { print $2 }' <<<"${theirs}")"
		if [[ -n "${their}" && "${their}" != "${version}" ]]; then
			edits+=("-require=${path}@${version}")
		fi
	done <<<"${HCO_PROJECT_MODULES}"
	if ((${#edits[@]} == 0)); then
		return 0
	fi
	log "$(basename "${dir}"): requiring the project's versions of ${#edits[@]} shared modules: ${edits[*]#-require=}"
	(cd "${dir}" && go mod edit "${edits[@]}")
}
