#!/usr/bin/env bash
# Builds Rook's `rook` binary (operator and Ceph daemon helper) at ROOK_VERSION from the
# Go module proxy into $HCO_CACHE/bin/rook-$ROOK_VERSION and prints that path as the last
# line of stdout. Rook's images are on a registry this machine cannot reach, so the
# local Ceph image (hack/images/build.sh ceph) carries a binary built here.
#
# `go install github.com/rook/rook/cmd/rook@VERSION` is refused (Rook's go.mod has
# replace directives), so a wrapper module requires the release and repeats its
# replaces. Rook's nested module github.com/rook/rook/pkg/apis is replaced by ./pkg/apis
# upstream and is not part of the rook module's zip; the proxy serves it as a
# pseudo-version of the release's commit, ROOK_APIS_VERSION. About 6 minutes on 2 cores
# the first time, seconds with a warm build cache.
set -Eeuo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

exec 3>&1 1>&2

OUT="${HCO_BIN}/rook-${ROOK_VERSION}"
WRAPPER="${HCO_SRC}/rook-${ROOK_VERSION}"

lock_unless_built rook-binary "${OUT}"

step "preparing the Go environment"
setup_go_env
start=${SECONDS}

# wrapper_gomod RELEASE_GOMOD prints the wrapper's go.mod: the release's go directive,
# replace block (its ./pkg/apis line pointed at the published module) and exclude block.
wrapper_gomod() {
	awk -v rook="${ROOK_VERSION}" -v apis="${ROOK_APIS_VERSION}" '
		$1 == "go" && !go { print "module hco.invalid/rook-binary\n"; print; print ""; go = 1
		                    print "require (\n\tgithub.com/rook/rook " rook "\n\tgithub.com/rook/rook/pkg/apis " apis "\n)\n"; next }
		/^(replace|exclude)[[:space:]]*\(/ { block = 1 }
		block && $1 == "github.com/rook/rook/pkg/apis" && $2 == "=>" { next }
		block && /^[[:space:]]*\/\// { next }
		block { print }
		block && /^\)/ { block = 0; print "" }
	' "$1"
}

if [[ ! -f "${WRAPPER}/go.mod" ]]; then
	step "downloading github.com/rook/rook@${ROOK_VERSION}"
	json="$(go mod download -json "github.com/rook/rook@${ROOK_VERSION}")" ||
		die "go mod download github.com/rook/rook@${ROOK_VERSION} failed"
	dir="$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p' <<<"${json}")"
	[[ -f "${dir}/go.mod" ]] || die "no go.mod in the module directory of github.com/rook/rook@${ROOK_VERSION}"
	mk_tmpdir rook-wrapper
	step "writing the wrapper module"
	wrapper_gomod "${dir}/go.mod" >"${HCO_TMPDIR}/go.mod"
	printf 'package main\n' >"${HCO_TMPDIR}/doc.go"
	mkdir -p "${HCO_SRC}"
	rm -rf "${WRAPPER}"
	mv "${HCO_TMPDIR}" "${WRAPPER}"
	HCO_CLEANUP=()
fi

mk_tmpdir rook
log "building rook ${ROOK_VERSION} (about 6 minutes the first time)"
step "rook ${ROOK_VERSION}: go build github.com/rook/rook/cmd/rook"
# -mod=mod instead of `go get`: the module graph is resolved as the build needs it,
# which avoids a go.sum conflict on client-go v12.0.0+incompatible that
# libopenstorage/secrets drags in when everything is downloaded up front.
(cd "${WRAPPER}" && GOFLAGS=-mod=mod go build -trimpath \
	-ldflags="-s -w -X github.com/rook/rook/pkg/version.Version=${ROOK_VERSION}" \
	-o "${HCO_TMPDIR}/rook" github.com/rook/rook/cmd/rook) ||
	die "go build github.com/rook/rook/cmd/rook failed in ${WRAPPER} (see output above)"
step "rook ${ROOK_VERSION}: checking the built binary's version"
version="$("${HCO_TMPDIR}/rook" version 2>&1 | head -5)"
grep -q "${ROOK_VERSION}" <<<"${version}" || die "built rook reports '${version//$'\n'/ | }', expected ${ROOK_VERSION}"
mkdir -p "${HCO_BIN}"
mv -f "${HCO_TMPDIR}/rook" "${OUT}"
log "built rook ${ROOK_VERSION} in $(fmt_secs $((SECONDS - start)))"
printf '%s\n' "${OUT}" >&3
