#!/usr/bin/env bash
# Copies the generated CRDs and the manager's RBAC rules into the Helm chart, so that the
# chart installs exactly what config/ holds. With --check it changes nothing and fails
# when the chart's copies differ, naming the files.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
chart=charts/hadoop-ceph-operator

case "${1:-}" in
"") check=false ;;
--check) check=true ;;
*)
	echo "usage: $0 [--check]" >&2
	exit 2
	;;
esac

want="$(mktemp -d)"
trap 'rm -rf "$want"' EXIT
mkdir -p "$want/files/crds"
cp config/crd/bases/*.yaml "$want/files/crds/"
cp config/rbac/role.yaml "$want/files/manager-role.yaml"

if $check; then
	if ! diff -r "$want/files/crds" "$chart/files/crds" >/dev/null || ! diff "$want/files/manager-role.yaml" "$chart/files/manager-role.yaml" >/dev/null; then
		echo "sync-chart.sh: error: $chart differs from config/crd/bases or config/rbac/role.yaml; run 'make manifests':" >&2
		diff -r --brief "$want/files/crds" "$chart/files/crds" >&2 || true
		diff --brief "$want/files/manager-role.yaml" "$chart/files/manager-role.yaml" >&2 || true
		exit 1
	fi
	exit 0
fi
# A CRD removed from config/ must leave the chart too.
mkdir -p "$chart/files/crds"
rm -f "$chart"/files/crds/*.yaml
cp "$want"/files/crds/*.yaml "$chart/files/crds/"
cp "$want/files/manager-role.yaml" "$chart/files/manager-role.yaml"
