#!/usr/bin/env bash
# Brings up what the demo and the end-to-end suite run on, each step idempotent: the
# local single-node Kubernetes (hack/cluster) with NetworkPolicy enforced
# (hack/cluster/netpol.sh), the local Ceph (hack/ceph), and the images built from
# this checkout (hack/images): the operator's, Hadoop's and the e2e suite's device
# plugin's (test-devices) pushed to the cluster's registry, from which the nodes pull
# them by digest as a real cluster's would (recorded in
# $CLUSTER_DIR/registry-images.env), the pause image imported into every node's
# containerd (the kubelets' sandbox image). Rook's image is hack/rook/up.sh's to build
# and import, when Rook is installed: the e2e suite does that halfway through, and on a
# fresh machine .ci/run builds Rook's binary in the background meanwhile. The
# operator itself is installed by each user of this script
# (hack/local/install-operator.sh): the suite's first spec is that install.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# The local cluster's containerd socket (CONTAINERD_ADDRESS), for the import.
# shellcheck source=../cluster/env.sh
source "$ROOT/hack/cluster/env.sh"
HCO_LOG_NAME=local-up
# shellcheck source=../log.sh
source "$ROOT/hack/log.sh"

step() { printf '\n==> %s\n' "$*" >&2; }

step "local Kubernetes (hack/cluster/up.sh)"
"$ROOT/hack/cluster/up.sh"
step "NetworkPolicy enforcement (hack/cluster/netpol.sh)"
"$ROOT/hack/cluster/netpol.sh" up
step "local Ceph (hack/ceph/up.sh)"
"$ROOT/hack/ceph/up.sh" >/dev/null
step "images (hack/images/build.sh): the operator's, Hadoop's and test-devices pushed to the registry at $CLUSTER_REGISTRY, the pause image imported into every node"
"$ROOT/hack/images/build.sh" pause operator hadoop test-devices
for sock in "$CONTAINERD_SOCKET" /run/hco-n*/containerd.sock; do
	[[ -S "$sock" ]] || continue
	CONTAINERD_ADDRESS="$sock" CONTAINERD_SNAPSHOTTER=overlayfs "$ROOT/hack/images/import.sh" pause
done
# shellcheck source=../images/images.env
source "$ROOT/hack/images/images.env"
# By digest: the tags stay from build to build, and a node that pulled an earlier
# build under the same tag must not run it.
pushed() {
	local image="$1" name="$2" out
	out="$("$ROOT/hack/images/push.sh" --insecure "$CLUSTER_REGISTRY" "$name" | tail -1)"
	[[ "$out" == *@sha256:* ]] || die "push.sh printed no digest for $name: $out"
	echo "$CLUSTER_REGISTRY/${image#localhost/}@${out##*@}"
}
# Assigned first: a failed push inside echo's argument would not stop the script.
operator_ref="$(pushed "$OPERATOR_IMAGE" operator)"
hadoop_ref="$(pushed "$HADOOP_IMAGE" hadoop)"
devices_ref="$(pushed "$TEST_DEVICES_IMAGE" test-devices)"
refs="$CLUSTER_DIR/registry-images.env"
{
	echo "# The images hack/local/up.sh pushed to the cluster's registry, by digest."
	echo "OPERATOR_IMAGE=$operator_ref"
	echo "HADOOP_IMAGE=$hadoop_ref"
	echo "TEST_DEVICES_IMAGE=$devices_ref"
} >"$refs.tmp"
mv "$refs.tmp" "$refs"
sed 's/^/  /' "$refs" >&2
