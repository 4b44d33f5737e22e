#!/usr/bin/env bash
# Stops what hack/local/up.sh and the demo started: the local Rook (with its Ceph
# data), the local Kubernetes, then the local Ceph. Built binaries and images stay in
# the cache for the next start.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
"$ROOT/hack/rook/down.sh"
"$ROOT/hack/cluster/down.sh"
"$ROOT/hack/ceph/down.sh"
