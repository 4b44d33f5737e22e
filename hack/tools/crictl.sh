#!/usr/bin/env bash
# Builds crictl (sigs.k8s.io/cri-tools) at CRICTL_VERSION from the Go module proxy into
# $HCO_CACHE/bin/crictl-$CRICTL_VERSION and prints that path as the last line of stdout.
# Debian does not package it; the local cluster's launcher uses it to reach each node's
# containerd.
set -Eeuo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

exec 3>&1 1>&2

OUT="${HCO_BIN}/crictl-${CRICTL_VERSION}"
WRAPPER="${HCO_SRC}/cri-tools-${CRICTL_VERSION}"

lock_unless_built crictl "${OUT}"

step "preparing the Go environment"
setup_go_env
start=${SECONDS}
log "building crictl ${CRICTL_VERSION} (sigs.k8s.io/cri-tools) ..."
# `go install pkg@version` consults the module's version list for deprecations, which the
# module proxy refuses; a wrapper module that requires the version builds the same binary.
mkdir -p "${WRAPPER}" "${HCO_BIN}"
printf 'module hco.invalid/cri-tools\n\ngo 1.26\n\nrequire sigs.k8s.io/cri-tools %s\n' "${CRICTL_VERSION}" >"${WRAPPER}/go.mod"
align_with_project "${WRAPPER}"
mk_tmpdir crictl
step "go build sigs.k8s.io/cri-tools/cmd/crictl"
(cd "${WRAPPER}" && go mod download sigs.k8s.io/cri-tools &&
	GOFLAGS=-mod=mod go build -trimpath -o "${HCO_TMPDIR}/crictl" \
		-ldflags "-s -w -X sigs.k8s.io/cri-tools/pkg/version.Version=${CRICTL_VERSION}" \
		sigs.k8s.io/cri-tools/cmd/crictl) ||
	die "go build sigs.k8s.io/cri-tools/cmd/crictl@${CRICTL_VERSION} failed (see output above)"
mv -f "${HCO_TMPDIR}/crictl" "${OUT}"
log "built crictl ${CRICTL_VERSION} in $(fmt_secs $((SECONDS - start)))"
printf '%s\n' "${OUT}" >&3
