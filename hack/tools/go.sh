#!/usr/bin/env bash
# Prints the bin directory of the Go toolchain every build here uses (GO_VERSION in
# versions.env): a go on PATH of exactly that version, or else one fetched into the
# cache. A fresh Debian
# 12 has no Go (its own package is 1.19, older than go.mod allows), so the toolchain
# comes from the Go module proxy, where the go command's own toolchain switching
# finds it: the module golang.org/toolchain at v0.0.1-go<version>.<os>-<arch>. The
# zip's SHA-256 is pinned in versions.env and checked before anything is unpacked.
#
#   hack/tools/go.sh            # fetch if needed, print the toolchain's bin directory
#   PATH="$(hack/tools/go.sh):$PATH" go version
#
# The Makefile puts it first on PATH, and so does setup_go_env (lib.sh) for the
# scripts that run without make. Needs curl and unzip, which it installs from
# Debian's packages when they are missing.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

arch() {
	case "$(uname -m)" in
	x86_64) echo amd64 ;;
	aarch64) echo arm64 ;;
	*) die "no pinned Go toolchain for machine $(uname -m): set GO_TOOLCHAIN_SHA256_linux_<arch> in versions.env" ;;
	esac
}

# proxy is the first proxy of GOPROXY that is a URL (the go command's default when
# GOPROXY is unset): "direct" and "off" cannot serve a toolchain zip.
proxy() {
	local p
	IFS=',|' read -r -a entries <<<"${GOPROXY:-https://proxy.golang.org,direct}"
	for p in "${entries[@]}"; do
		case "$p" in
		http://* | https://*) echo "${p%/}"; return ;;
		esac
	done
	die "GOPROXY=${GOPROXY} names no proxy URL to fetch the Go toolchain from"
}

main() {
	local a root sum_var want module url zip got
	# A go on PATH of exactly this version is the same release: it is used as it is,
	# and its build cache stays valid (a toolchain at another path would rebuild
	# everything once, since the cache keys on GOROOT). HCO_GO_FETCH=1 fetches anyway.
	local system
	if [[ "${HCO_GO_FETCH:-0}" != 1 ]] && command -v go >/dev/null &&
		[[ "$(GOTOOLCHAIN=local go env GOVERSION 2>/dev/null)" == "go${GO_VERSION}" ]]; then
		system="$(GOTOOLCHAIN=local go env GOROOT)/bin"
		echo "${system}"
		return
	fi
	a="$(arch)"
	root="${HCO_CACHE}/go/go${GO_VERSION}.linux-${a}"
	if [[ -x "${root}/bin/go" ]]; then
		echo "${root}/bin"
		return
	fi
	# Two builds started at once (make -j, CI and a shell) fetch it once.
	take_lock go-toolchain
	if [[ -x "${root}/bin/go" ]]; then
		echo "${root}/bin"
		return
	fi
	sum_var="GO_TOOLCHAIN_SHA256_linux_${a}"
	want="${!sum_var:-}"
	[[ -n "${want}" ]] || die "${sum_var} is not set in versions.env"

	# shellcheck source=../debs.sh
	source "${HCO_TOOLS_DIR}/../debs.sh"
	command -v curl >/dev/null && command -v unzip >/dev/null || ensure_debs curl unzip ca-certificates

	module="golang.org/toolchain@v0.0.1-go${GO_VERSION}.linux-${a}"
	url="$(proxy)/golang.org/toolchain/@v/v0.0.1-go${GO_VERSION}.linux-${a}.zip"
	mkdir -p "${HCO_TMP}" "${HCO_CACHE}/go"
	zip="$(mktemp -p "${HCO_TMP}" go-toolchain.XXXXXX.zip)"
	HCO_CLEANUP+=("${zip}")
	step "fetching Go ${GO_VERSION} (${module})"
	log "fetching Go ${GO_VERSION} from ${url}"
	curl -fsSL --retry 3 -o "${zip}" "${url}"
	got="$(sha256sum "${zip}" | cut -d' ' -f1)"
	[[ "${got}" == "${want}" ]] || die "Go toolchain zip ${url}: SHA-256 ${got}, versions.env pins ${want}"

	step "unpacking Go ${GO_VERSION}"
	local unpack
	unpack="$(mktemp -d -p "${HCO_CACHE}/go" ".unpack.XXXXXX")"
	HCO_CLEANUP+=("${unpack}")
	unzip -q "${zip}" -d "${unpack}"
	# Module zips carry no file modes: the go command marks a toolchain's programs
	# executable itself when it unpacks one, and so does this.
	chmod -R a+x "${unpack}/${module}/bin" "${unpack}/${module}/pkg/tool"
	rm -rf "${root}"
	mv "${unpack}/${module}" "${root}"
	"${root}/bin/go" version >&2
	echo "${root}/bin"
}

main "$@"
