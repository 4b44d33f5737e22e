#!/usr/bin/env bash
# Builds Multus's thick plugin (multus-daemon, multus-shim) at MULTUS_VERSION and
# whereabouts' CNI binary at WHEREABOUTS_VERSION from the Go module proxy into
# $HCO_CACHE/bin/multus-$MULTUS_VERSION-whereabouts-$WHEREABOUTS_VERSION/, with
# whereabouts' CRDs beside them in crds/, and prints that directory as the last line of
# stdout. The local cluster (hack/cluster/up.sh) runs multus-daemon as a DaemonSet and
# installs the two CNI binaries on every node.
#
# One wrapper module requires both, so their common dependencies build once: about a
# minute on 2 cores the first time.
set -Eeuo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

exec 3>&1 1>&2

MULTUS=gopkg.in/k8snetworkplumbingwg/multus-cni.v4
WHEREABOUTS=github.com/k8snetworkplumbingwg/whereabouts
OUT="${HCO_BIN}/multus-${MULTUS_VERSION}-whereabouts-${WHEREABOUTS_VERSION}"
WRAPPER="${HCO_SRC}/multus-${MULTUS_VERSION}-whereabouts-${WHEREABOUTS_VERSION}"

# The lock comes before the check: a run that waited for another (hack/tools/prebuild.sh
# builds ahead of the steps that need a tool) finds the binary that one built.
take_lock multus
if [[ -x "${OUT}/multus-daemon" && -x "${OUT}/multus-shim" && -x "${OUT}/whereabouts" && -f "${OUT}/crds/k8s.cni.cncf.io_network-attachment-definitions.yaml" ]]; then
	printf '%s\n' "${OUT}" >&3
	exit 0
fi

step "preparing the Go environment"
setup_go_env
start=${SECONDS}

if [[ ! -f "${WRAPPER}/go.sum" ]]; then
	mk_tmpdir multus-wrapper
	step "writing the wrapper module"
	printf 'module hco.invalid/multus\n\ngo 1.24\n' >"${HCO_TMPDIR}/go.mod"
	printf 'package main\n' >"${HCO_TMPDIR}/doc.go"
	(cd "${HCO_TMPDIR}" && go get "${MULTUS}@${MULTUS_VERSION}" "${WHEREABOUTS}@${WHEREABOUTS_VERSION}") ||
		die "go get ${MULTUS}@${MULTUS_VERSION} ${WHEREABOUTS}@${WHEREABOUTS_VERSION} failed"
	align_with_project "${HCO_TMPDIR}" k8s.io/kubelet
	mkdir -p "${HCO_SRC}"
	rm -rf "${WRAPPER}"
	mv "${HCO_TMPDIR}" "${WRAPPER}"
	HCO_CLEANUP=()
fi

mk_tmpdir multus
log "building multus ${MULTUS_VERSION} and whereabouts ${WHEREABOUTS_VERSION} (about a minute the first time)"
step "go build multus-daemon, multus-shim and whereabouts"
(cd "${WRAPPER}" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -ldflags="-s -w" \
	-o "${HCO_TMPDIR}/" "${MULTUS}/cmd/multus-daemon" "${MULTUS}/cmd/multus-shim" "${WHEREABOUTS}/cmd") ||
	die "go build of Multus and whereabouts failed in ${WRAPPER} (see output above)"
# The whereabouts command's package is its module's cmd/: the binary is named after it.
mv "${HCO_TMPDIR}/cmd" "${HCO_TMPDIR}/whereabouts"
step "copying whereabouts' CRDs and Multus's NetworkAttachmentDefinition CRD"
src="$(cd "${WRAPPER}" && go list -m -f '{{.Dir}}' "${WHEREABOUTS}")"
mkdir -p "${HCO_TMPDIR}/crds"
cp "${src}/doc/crds/whereabouts.cni.cncf.io_ippools.yaml" \
	"${src}/doc/crds/whereabouts.cni.cncf.io_overlappingrangeipreservations.yaml" "${HCO_TMPDIR}/crds/"
# The release's thick manifest starts with the CRD, its first YAML document.
src="$(cd "${WRAPPER}" && go list -m -f '{{.Dir}}' "${MULTUS}")"
awk '/^---/ { if (n++) exit } n' "${src}/deployments/multus-daemonset-thick.yml" >"${HCO_TMPDIR}/crds/k8s.cni.cncf.io_network-attachment-definitions.yaml"
grep -q 'name: network-attachment-definitions.k8s.cni.cncf.io' "${HCO_TMPDIR}/crds/k8s.cni.cncf.io_network-attachment-definitions.yaml" ||
	die "the first document of ${MULTUS}@${MULTUS_VERSION}'s deployments/multus-daemonset-thick.yml is not the NetworkAttachmentDefinition CRD"
chmod -R u+w "${HCO_TMPDIR}/crds"
chmod 0755 "${HCO_TMPDIR}"
mkdir -p "${HCO_BIN}"
rm -rf "${OUT}"
mv "${HCO_TMPDIR}" "${OUT}"
HCO_CLEANUP=()
log "built multus ${MULTUS_VERSION} and whereabouts ${WHEREABOUTS_VERSION} in $(fmt_secs $((SECONDS - start)))"
printf '%s\n' "${OUT}" >&3
