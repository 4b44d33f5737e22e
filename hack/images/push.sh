#!/usr/bin/env bash
# Pushes the archives hack/images/build.sh wrote to a registry, with
# go-containerregistry's crane (hack/tools/registry.sh): no container engine. Each image
# keeps its repository and tag from images.env, under the registry's prefix:
# localhost/hadoop-ceph-hadoop:3.4.2-0.2.0-dev becomes
# REGISTRY/hadoop-ceph-hadoop:3.4.2-0.2.0-dev.
# Prints each pushed reference with its digest on stdout.
#
# Usage: push.sh [--insecure] REGISTRY [pause|operator|hadoop|ceph|test-devices|all]...   (default: all)
#   REGISTRY     host[:port][/path], such as registry.example.com/hadoop or the local
#                cluster's 10.118.0.1:5000
#   --insecure   plain HTTP (the local cluster's registry); otherwise HTTPS, with the
#                credentials of ~/.docker/config.json (`crane auth login`)
# Also a file argument: push.sh [--insecure] REGISTRY --archive FILE REPOSITORY:TAG pushes one
# OCI archive of another source.
set -Eeuo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

insecure=()
if [[ "${1:-}" == --insecure ]]; then
	insecure=(--insecure)
	shift
fi
case "${1:-}" in
"" | -h | --help)
	sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 0
	;;
esac
registry="${1%/}"
shift
crane="$("${ROOT}/hack/tools/registry.sh" crane | tail -1)"

# push ARCHIVE REF: the archive is an OCI image layout in a tar (umoci's, as
# containerd imports it); crane pushes a layout directory.
push() {
	local archive="$1" ref="$2" digest
	[[ -f "${archive}" ]] || die "no ${archive}: run hack/images/build.sh first"
	mk_tmpdir push
	tar -C "${HCO_TMPDIR}" -xf "${archive}"
	digest="$("${crane}" "${insecure[@]+"${insecure[@]}"}" push "${HCO_TMPDIR}" "${ref}" 2>"${HCO_TMPDIR}.log")" ||
		die "pushing ${archive} to ${ref} failed: $(tail -3 "${HCO_TMPDIR}.log")"
	rm -rf "${HCO_TMPDIR}" "${HCO_TMPDIR}.log"
	echo "${digest}"
}

if [[ "${1:-}" == --archive ]]; then
	[[ $# -eq 3 ]] || die "usage: push.sh [--insecure] REGISTRY --archive FILE REPOSITORY:TAG"
	push "$2" "${registry}/$3"
	exit 0
fi
for name in $(image_names "$@"); do
	ref="$(image_ref "${name}")"
	push "$(image_archive "${name}")" "${registry}/${ref#localhost/}"
done
