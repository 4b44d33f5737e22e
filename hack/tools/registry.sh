#!/usr/bin/env bash
# Builds an image registry tool from the Go module proxy into $HCO_CACHE/bin and prints
# its path as the last line of stdout:
#   registry.sh registry   the CNCF Distribution registry at DISTRIBUTION_VERSION, which
#                          hack/cluster/up.sh runs as the local cluster's registry
#   registry.sh crane      go-containerregistry's crane at GGCR_VERSION, which
#                          hack/images/push.sh pushes image archives with
# A wrapper module requires the release, as for the other tools: `go install
# pkg@version` consults the module's version list, which the proxy refuses.
set -Eeuo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

exec 3>&1 1>&2

case "${1:-}" in
registry) MODULE=github.com/distribution/distribution/v3 VERSION="${DISTRIBUTION_VERSION}" PKG=cmd/registry ;;
crane) MODULE=github.com/google/go-containerregistry VERSION="${GGCR_VERSION}" PKG=cmd/crane ;;
*) die "usage: registry.sh registry|crane" ;;
esac
NAME="$1"
OUT="${HCO_BIN}/${NAME}-${VERSION}"

lock_unless_built "${NAME}" "${OUT}"

step "preparing the Go environment"
setup_go_env
start=${SECONDS}
WRAPPER="${HCO_SRC}/${NAME}-${VERSION}"
if [[ ! -f "${WRAPPER}/go.sum" ]]; then
	mk_tmpdir "${NAME}-wrapper"
	step "writing the wrapper module"
	cat >"${HCO_TMPDIR}/go.mod" <<-EOM
		module hco.invalid/${NAME}

		go 1.24.0

		require ${MODULE} ${VERSION}
	EOM
	printf 'package tools\n\nimport _ "%s/%s"\n' "${MODULE}" "${PKG}" >"${HCO_TMPDIR}/tools.go"
	step "resolving the wrapper module's dependencies"
	(cd "${HCO_TMPDIR}" && GOFLAGS=-mod=mod go mod tidy) ||
		die "cannot resolve ${MODULE} ${VERSION} on the module proxy"
	mkdir -p "${HCO_SRC}"
	rm -rf "${WRAPPER}"
	mv "${HCO_TMPDIR}" "${WRAPPER}"
	HCO_CLEANUP=()
fi
mk_tmpdir "${NAME}"
log "building ${NAME} ${VERSION} (${MODULE}/${PKG})"
step "${NAME} ${VERSION}: go build"
(cd "${WRAPPER}" && GOFLAGS=-mod=mod go build -trimpath -ldflags="-s -w" -o "${HCO_TMPDIR}/${NAME}" "${MODULE}/${PKG}") ||
	die "go build of ${MODULE}/${PKG} ${VERSION} failed in ${WRAPPER} (see output above)"
"${HCO_TMPDIR}/${NAME}" --help >/dev/null 2>&1 || die "the built ${NAME} does not run"
mkdir -p "${HCO_BIN}"
mv -f "${HCO_TMPDIR}/${NAME}" "${OUT}"
log "built ${NAME} ${VERSION} in $(fmt_secs $((SECONDS - start)))"
printf '%s\n' "${OUT}" >&3
