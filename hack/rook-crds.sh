#!/usr/bin/env bash
# Prints the path of Rook's released CRD set (deploy/examples/crds.yaml of the pinned
# Rook release), fetched through the Go module proxy into the module cache. The envtest
# suites install these real schemas; the file is not copied into this repository.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/tools/versions.env"

dir=$(go mod download -json "github.com/rook/rook@${ROOK_VERSION}" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
crds="${dir}/deploy/examples/crds.yaml"
if [[ -z "${dir}" || ! -f "${crds}" ]]; then
	echo "rook-crds.sh: error: could not fetch github.com/rook/rook@${ROOK_VERSION} from the Go module proxy" >&2
	exit 1
fi
echo "${crds}"
