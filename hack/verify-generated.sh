#!/usr/bin/env bash
# Fails when generated code or manifests differ from what is committed, so a change to
# the API types cannot land without its regenerated CRDs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
paths=(api/v1alpha1/zz_generated.deepcopy.go config/crd/bases config/rbac/role.yaml
	charts/hadoop-ceph-operator/files/crds charts/hadoop-ceph-operator/files/manager-role.yaml docs/api)
# Locally the working tree legitimately holds regenerated, uncommitted files; the check
# only means something on a clean checkout, which is what CI tests.
if [[ -z "${CI:-}" ]] || ! git rev-parse --verify -q HEAD >/dev/null; then
	exit 0
fi
if ! git diff --quiet HEAD -- "${paths[@]}"; then
	echo "verify-generated.sh: error: generated files are out of date; run 'make generate manifests' and commit:" >&2
	git diff --stat HEAD -- "${paths[@]}" >&2
	exit 1
fi
