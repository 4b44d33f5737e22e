#!/usr/bin/env bash
# Imports the archives hack/images/build.sh wrote into a running containerd's k8s.io
# namespace, where the kubelet finds them under the references of images.env. An image
# whose reference already points at the archive's manifest is left alone.
#
# Usage: import.sh [--digest] [pause|operator|hadoop|all]...   (default: all)
#   --digest   print each image's manifest digest (sha256:...) on stdout
# Environment: CONTAINERD_ADDRESS (default /run/containerd/containerd.sock) names the
# containerd socket; CONTAINERD_SNAPSHOTTER the snapshotter to unpack into, which must
# be the one the CRI plugin uses (default: containerd's default).
set -Eeuo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

export CONTAINERD_ADDRESS="${CONTAINERD_ADDRESS:-/run/containerd/containerd.sock}"
NAMESPACE=k8s.io

print_digest=0
names=()
for arg in "$@"; do
	case "${arg}" in
	--digest) print_digest=1 ;;
	-h | --help)
		sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'
		exit 0
		;;
	*) names+=("${arg}") ;;
	esac
done

command -v ctr >/dev/null || ensure_debs containerd
[[ -S "${CONTAINERD_ADDRESS}" ]] || die "no containerd socket at ${CONTAINERD_ADDRESS} (set CONTAINERD_ADDRESS)"

# current_digest REF prints the manifest digest REF points at in containerd, if any.
current_digest() {
	ctr -n "${NAMESPACE}" images ls "name==$1" | awk -v ref="$1" '$1 == ref { print $3 }'
}

for name in $(image_names "${names[@]+"${names[@]}"}"); do
	archive="$(image_archive "${name}")"
	ref="$(image_ref "${name}")"
	[[ -f "${archive}" ]] || die "no ${archive}: run hack/images/build.sh ${name} first"
	want="$(archive_digest "${archive}")"
	if [[ "$(current_digest "${ref}")" == "${want}" ]]; then
		log "have ${ref} ${want} in containerd"
	else
		step "importing ${archive} as ${ref}"
		ctr -n "${NAMESPACE}" images import --platform "linux/$(dpkg --print-architecture)" "${archive}" >/dev/null
		have="$(current_digest "${ref}")"
		[[ "${have}" == "${want}" ]] || die "after the import ${ref} is '${have}', not ${want}"
		log "imported ${ref} ${want}"
	fi
	if ((print_digest)); then
		echo "${want}"
	fi
done
