#!/usr/bin/env bash
# Release artifacts in dist/: the chart as Helm packages it, and beside it the kubectl
# plugin for the platforms kubectl users run, each a tarball of the binary, with
# SHA256SUMS over all of them. The plugin carries the chart's version.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
HELM=${HELM:-helm}

version=$(awk '$1 == "version:" {print $2; exit}' charts/hadoop-ceph-operator/Chart.yaml)
rm -rf dist
mkdir -p dist
"$HELM" package charts/hadoop-ceph-operator --destination dist >/dev/null

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for platform in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64; do
	os=${platform%/*} arch=${platform#*/}
	rm -rf "${work:?}"/*
	CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -ldflags "-s -w -X main.version=$version" \
		-o "$work/kubectl-hadoopceph" ./cmd/kubectl-hadoopceph
	tar -C "$work" -czf "dist/kubectl-hadoopceph_${version}_${os}_${arch}.tar.gz" kubectl-hadoopceph
done
(cd dist && sha256sum -- * >SHA256SUMS)
ls -1 dist
