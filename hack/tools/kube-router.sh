#!/usr/bin/env bash
# Builds kube-router at KUBE_ROUTER_VERSION from the Go module proxy into
# $HCO_CACHE/bin/kube-router-$KUBE_ROUTER_VERSION and prints that path as the last line
# of stdout. hack/cluster/netpol.sh runs only its network-policy controller, which
# enforces NetworkPolicy with iptables and ipsets on the local cluster's bridge network;
# the `ipset` command it calls is installed from Debian when missing (run as root).
#
# A wrapper module requires the release, as for the other tools: `go install pkg@version`
# consults the module's version list, which the proxy refuses. About 3 minutes on 2 cores
# the first time, seconds with a warm build cache.
set -Eeuo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=../debs.sh
source "${HCO_TOOLS_DIR}/../debs.sh"

exec 3>&1 1>&2

MODULE=github.com/cloudnativelabs/kube-router/v2
OUT="${HCO_BIN}/kube-router-${KUBE_ROUTER_VERSION}"
WRAPPER="${HCO_SRC}/kube-router-${KUBE_ROUTER_VERSION}"

if ! command -v ipset >/dev/null 2>&1; then
	step "installing ipset"
	[[ ${EUID} -eq 0 ]] || die "ipset is missing and installing it needs root"
	ensure_debs ipset
fi

lock_unless_built kube-router "${OUT}"

step "preparing the Go environment"
setup_go_env
start=${SECONDS}

if [[ ! -f "${WRAPPER}/go.mod" ]]; then
	mk_tmpdir kube-router-wrapper
	step "writing the wrapper module"
	cat >"${HCO_TMPDIR}/go.mod" <<-EOF
		module hco.invalid/kube-router

		go 1.21

		require ${MODULE} ${KUBE_ROUTER_VERSION}
	EOF
	printf 'package main\n' >"${HCO_TMPDIR}/doc.go"
	align_with_project "${HCO_TMPDIR}"
	mkdir -p "${HCO_SRC}"
	rm -rf "${WRAPPER}"
	mv "${HCO_TMPDIR}" "${WRAPPER}"
	HCO_CLEANUP=()
fi

mk_tmpdir kube-router
log "building kube-router ${KUBE_ROUTER_VERSION} (about 3 minutes the first time)"
step "kube-router ${KUBE_ROUTER_VERSION}: go build ${MODULE}/cmd/kube-router"
(cd "${WRAPPER}" && GOFLAGS=-mod=mod go build -trimpath \
	-ldflags="-s -w -X ${MODULE}/pkg/version.Version=${KUBE_ROUTER_VERSION}" \
	-o "${HCO_TMPDIR}/kube-router" "${MODULE}/cmd/kube-router") ||
	die "go build ${MODULE}/cmd/kube-router failed in ${WRAPPER} (see output above)"
step "kube-router ${KUBE_ROUTER_VERSION}: checking the built binary's version"
version="$("${HCO_TMPDIR}/kube-router" --version 2>&1 | head -5)"
grep -q "${KUBE_ROUTER_VERSION}" <<<"${version}" || die "built kube-router reports '${version//$'\n'/ | }', expected ${KUBE_ROUTER_VERSION}"
mkdir -p "${HCO_BIN}"
mv -f "${HCO_TMPDIR}/kube-router" "${OUT}"
log "built kube-router ${KUBE_ROUTER_VERSION} in $(fmt_secs $((SECONDS - start)))"
printf '%s\n' "${OUT}" >&3
