#!/usr/bin/env bash
# Builds, ahead of need, every pinned tool that the later steps of a CI run (or of
# `make test`, `make cluster-test` and `make e2e` run one after another) build on first
# use: the envtest binaries, Helm and the code generators, the rest of Kubernetes,
# crictl, CoreDNS, the registry and crane, kube-router, Multus and whereabouts, Rook's
# binary, and the images that need neither Maven nor this checkout's Go code (pause,
# Multus's, and Ceph's for Rook, made from Debian's packages). Meant to run in the
# background at the lowest CPU and I/O priority, in the session of the steps it serves
# (.ci/run starts it so), where it takes only the CPU they leave idle: on a fresh
# machine of 2 cores, `make test` waits on Maven Central, apt, a starting Ceph and the
# API server for much of its time.
#
# Every tool's script takes that tool's lock and checks for the binary after taking it,
# so a foreground step that needs a tool this script is building waits for it, then
# uses it, instead of building it a second time. A failure here only logs: the step that
# needs the tool builds it itself and reports its own error.
#
#   hack/tools/prebuild.sh     (prints a line per tool: its time and whether it built)
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# In the order the steps need them: make lint and make test first, then make
# cluster-test, then make e2e.
BUILDS=(
	"envtest-assets.sh"
	"install.sh controller-gen"
	"install.sh helm"
	"install.sh ginkgo"
	"envtest-assets.sh kube-controller-manager kube-scheduler kubelet kube-proxy"
	"crictl.sh"
	"coredns.sh"
	"registry.sh registry"
	"registry.sh crane"
	"kube-router.sh"
	"multus.sh"
	"rook-binary.sh"
	"../images/build.sh pause multus ceph"
)

started=$SECONDS
failed=0
for b in "${BUILDS[@]}"; do
	start=$SECONDS
	# Word splitting is wanted: a script and its arguments.
	# shellcheck disable=SC2086
	if out="$("$HERE"/$b 2>&1 >/dev/null)"; then
		status="ok"
	else
		status="FAILED"
		failed=$((failed + 1))
		printf '%s\n' "$out" | tail -20 | sed 's/^/    /'
	fi
	# A tool built here logs "building"; one already there, nothing or "have".
	what="had it"
	grep -q "building\|built " <<<"$out" && what="built it"
	printf 'prebuild: %-70s %s, %s in %ds (%d s since the start)\n' "$b" "$status" "$what" $((SECONDS - start)) $((SECONDS - started))
done
printf 'prebuild: done in %d s, %d failed\n' $((SECONDS - started)) "$failed"
