#!/usr/bin/env bash
# Brings up what the demo and the end-to-end suite run on, each step idempotent: the
# local single-node Kubernetes (hack/cluster) with NetworkPolicy enforced
# (hack/cluster/netpol.sh), the local Ceph (hack/ceph), and the
# operator and Hadoop images built from this checkout and imported into the node's
# containerd (hack/images). The operator itself is installed by each user of this
# script (hack/local/install-operator.sh): the suite's first spec is that install.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# The local cluster's containerd socket (CONTAINERD_ADDRESS), for the import.
# shellcheck source=../cluster/env.sh
source "$ROOT/hack/cluster/env.sh"

step() { printf '\n==> %s\n' "$*" >&2; }

step "local Kubernetes (hack/cluster/up.sh)"
"$ROOT/hack/cluster/up.sh"
step "NetworkPolicy enforcement (hack/cluster/netpol.sh)"
"$ROOT/hack/cluster/netpol.sh" up
step "local Ceph (hack/ceph/up.sh)"
"$ROOT/hack/ceph/up.sh" >/dev/null
step "images (hack/images/build.sh), imported into every node's containerd"
"$ROOT/hack/images/build.sh" all
for sock in "$CONTAINERD_SOCKET" /run/hco-n*/containerd.sock; do
	[[ -S "$sock" ]] || continue
	CONTAINERD_ADDRESS="$sock" CONTAINERD_SNAPSHOTTER=overlayfs "$ROOT/hack/images/import.sh" all
done
