#!/usr/bin/env bash
# Builds the pinned Go developer tools into $HCO_CACHE/bin.
#
#   hack/tools/install.sh [tool...]    (no arguments: every tool)
#
# Each tool lands as <name>-<version> (what a Makefile can depend on, so a
# version bump in versions.env rebuilds it) plus a <name> symlink to the
# pinned version. Progress goes to stderr; the bin directory is the last line
# of stdout.
set -Eeuo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# name|package|version
TOOLS=(
	"controller-gen|sigs.k8s.io/controller-tools/cmd/controller-gen|${CONTROLLER_GEN_VERSION}"
	"setup-envtest|sigs.k8s.io/controller-runtime/tools/setup-envtest|${SETUP_ENVTEST_VERSION}"
	"ginkgo|github.com/onsi/ginkgo/v2/ginkgo|${GINKGO_VERSION}"
	"kustomize|sigs.k8s.io/kustomize/kustomize/v5|${KUSTOMIZE_VERSION}"
	"helm|helm.sh/helm/v3/cmd/helm|${HELM_VERSION}"
	"golangci-lint|github.com/golangci/golangci-lint/v2/cmd/golangci-lint|${GOLANGCI_LINT_VERSION}"
)

# Tools built on the Kubernetes libraries of the minor the project pins, and Ginkgo,
# which the project requires too: built in a module of their own that requires the
# project's versions of what both use (align_with_project in lib.sh), so that they and
# the project share one compiled copy of client-go and its kin in Go's build cache. The
# others are plain `go install pkg@version`.
ALIGNED=(controller-gen helm ginkgo)

# build_aligned NAME PKG VERSION LDFLAGS OUT builds PKG at VERSION into OUT in a module
# aligned with the project's.
build_aligned() {
	local name="$1" pkg="$2" version="$3" ldflags="$4" out="$5" mod
	mk_tmpdir "${name}-module"
	mod="${HCO_TMPDIR}"
	step "${name} ${version}: a module requiring ${pkg}@${version}"
	(cd "${mod}" && go mod init "hco.invalid/${name}" 2>/dev/null && go get "${pkg}@${version}") ||
		die "${name} ${version}: go get ${pkg}@${version} failed (see output above)"
	align_with_project "${mod}"
	step "${name} ${version}: go build ${pkg}"
	(cd "${mod}" && GOFLAGS=-mod=mod go build -trimpath -ldflags="${ldflags}" -o "${out}" "${pkg}") ||
		die "${name} ${version}: go build ${pkg} failed in ${mod} (see output above)"
}

usage() {
	local t names=()
	for t in "${TOOLS[@]}"; do names+=("${t%%|*}"); done
	log "usage: ${HCO_SCRIPT} [tool...]"
	log "tools: ${names[*]}"
}

lookup() {
	local t
	for t in "${TOOLS[@]}"; do
		if [[ "${t%%|*}" == "$1" ]]; then
			printf '%s\n' "${t}"
			return 0
		fi
	done
	return 1
}

# Extra linker flags for tools whose release builds inject values that
# `go install` would otherwise leave at development defaults.
tool_ldflags() {
	local name="$1" version="$2"
	case "${name}" in
	helm)
		# Without these helm reports "v3.22" and, worse, renders charts with
		# .Capabilities.KubeVersion 1.20, breaking `kubeVersion:` constraints.
		# Helm's release Makefile derives the Kubernetes minor from the
		# client-go it is built with; do the same.
		local dir cg minor
		dir="$(go mod download -json "helm.sh/helm/v3@${version}" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
		[[ -n "${dir}" ]] || die "helm: could not locate helm.sh/helm/v3@${version} in the module cache"
		cg="$(awk '$1 == "k8s.io/client-go" { print $2; exit }' "${dir}/go.mod")"
		[[ "${cg}" =~ ^v0\.([0-9]+)\. ]] || die "helm: unexpected k8s.io/client-go version '${cg}' in helm's go.mod"
		minor="${BASH_REMATCH[1]}"
		local p=helm.sh/helm/v3
		printf '%s' "-s -w -X ${p}/internal/version.version=${version}" \
			" -X ${p}/internal/version.gitTreeState=clean" \
			" -X ${p}/pkg/lint/rules.k8sVersionMajor=1 -X ${p}/pkg/lint/rules.k8sVersionMinor=${minor}" \
			" -X ${p}/pkg/chartutil.k8sVersionMajor=1 -X ${p}/pkg/chartutil.k8sVersionMinor=${minor}"
		;;
	*) printf '%s' "-s -w" ;;
	esac
}

# A tool counts as present when its versioned binary exists and was built
# by a Go at least as new as the current one: golangci-lint refuses to load
# code whose go directive is newer than the Go it was compiled with.
is_current() {
	local bin="$1" built
	[[ -x "${bin}" ]] || return 1
	built="$(go version "${bin}" 2>/dev/null | awk '{ print $2 }')" || return 1
	[[ -n "${built}" ]] || return 1
	local have want
	have="$(go_minor "${built}")"
	want="$(go_minor "$(go env GOVERSION)")"
	[[ "$(printf '%s\n%s\n' "${want}" "${have}" | sort -V | head -1)" == "${want}" ]]
}

install_tool() {
	local name="$1" pkg="$2" version="$3"
	local target="${HCO_BIN}/${name}-${version}"

	if is_current "${target}"; then
		log "have ${name} ${version}"
	else
		log "building ${name} ${version} ..."
		local start tmp ldflags
		start=${SECONDS}
		mk_tmpdir "${name}"
		tmp="${HCO_TMPDIR}"
		step "${name} ${version}: resolving linker flags"
		ldflags="$(tool_ldflags "${name}" "${version}")"
		local built
		if [[ " ${ALIGNED[*]} " == *" ${name} "* ]]; then
			built="${tmp}/bin/${name}"
			build_aligned "${name}" "${pkg}" "${version}" "${ldflags}" "${built}"
		else
			step "${name} ${version}: go install ${pkg}@${version}"
			(GOBIN="${tmp}/bin" go install -trimpath -ldflags="${ldflags}" "${pkg}@${version}") ||
				die "${name} ${version}: go install ${pkg}@${version} failed (see output above)"
			built="${tmp}/bin/$(basename "${pkg}")"
			# Packages ending in a major-version element (kustomize/v5) install
			# under the previous path element.
			[[ "${pkg##*/}" =~ ^v[0-9]+$ ]] && built="${tmp}/bin/$(basename "$(dirname "${pkg}")")"
		fi
		[[ -x "${built}" ]] || die "${name} ${version}: go install produced no binary at ${built}"
		step "${name} ${version}: installing into ${HCO_BIN}"
		mkdir -p "${HCO_BIN}"
		mv -f "${built}" "${target}"
		log "built ${name} ${version} in $(fmt_secs $((SECONDS - start)))"
	fi

	step "${name} ${version}: linking ${HCO_BIN}/${name}"
	if [[ "$(readlink "${HCO_BIN}/${name}" 2>/dev/null || true)" != "${name}-${version}" ]]; then
		ln -sfn "${name}-${version}" "${HCO_BIN}/${name}"
	fi
}

main() {
	local want=() a entry
	for a in "$@"; do
		case "${a}" in
		-h | --help)
			usage
			exit 0
			;;
		-*)
			usage
			die "unknown option: ${a}"
			;;
		*)
			lookup "${a}" >/dev/null || {
				usage
				die "unknown tool: ${a}"
			}
			want+=("${a}")
			;;
		esac
	done
	if ((${#want[@]} == 0)); then
		for entry in "${TOOLS[@]}"; do want+=("${entry%%|*}"); done
	fi

	step "preparing the Go environment"
	setup_go_env
	take_lock tools
	# Work from an empty directory so an enclosing go.mod or go.work cannot
	# influence how pinned versions resolve.
	mk_tmpdir work
	cd "${HCO_TMPDIR}"

	local name pkg version
	for a in "${want[@]}"; do
		entry="$(lookup "${a}")"
		IFS='|' read -r name pkg version <<<"${entry}"
		install_tool "${name}" "${pkg}" "${version}"
	done
	printf '%s\n' "${HCO_BIN}"
}

main "$@"
