#!/usr/bin/env bash
# Installs or upgrades the operator's Helm chart in the local cluster (hack/cluster)
# with the images hack/local/up.sh pushed to the cluster's registry, named by digest
# (tag@digest, which the chart's image.tag carries): a rebuilt image changes the
# manager's pod template, and its pod rolls on the next install.
# Arguments are passed on to helm, after the script's own (--set crds.install=false).
# HCO_REGISTRY_IMAGES names another file of pushed images than up.sh's: an earlier
# release's, which hack/local/release-images.sh pushes and that release's copy of this
# script installs.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=../cluster/env.sh
source "$ROOT/hack/cluster/env.sh"
# OPERATOR_IMAGE and HADOOP_IMAGE as pushed.
refs="${HCO_REGISTRY_IMAGES:-$CLUSTER_DIR/registry-images.env}"
[[ -f "$refs" ]] || { echo "no $refs: run hack/local/up.sh first, which pushes the images" >&2; exit 1; }
# shellcheck source=/dev/null
source "$refs"
source "$ROOT/hack/tools/versions.env"
HELM="${HELM:-$HCO_CACHE/bin/helm-$HELM_VERSION}"
[ -x "$HELM" ] || "$ROOT/hack/tools/install.sh" helm
export KUBECONFIG

RELEASE=hadoop-ceph-operator
NAMESPACE=hadoop-ceph-operator

# host:port/name:tag@sha256:... as repository host:port/name and tag tag@sha256:...
name_tag="${OPERATOR_IMAGE%@*}"
repository="${name_tag%:*}"
tag="${name_tag##*:}@${OPERATOR_IMAGE##*@}"

# The manager runs on the first node, which runs the control plane and which the e2e
# suite never takes down: the suite's node-loss spec tests the operator fencing a lost
# node's pods, and an operator on that node would be lost with it (its pod is replaced
# only once the node's pods are evicted, five minutes later by default).
#
# --take-ownership adopts CRDs that a release of the chart from before templates/crds.yaml,
# or `make install`, left on this cluster.
"$HELM" upgrade --install "$RELEASE" "$ROOT/charts/hadoop-ceph-operator" \
  --namespace "$NAMESPACE" --create-namespace --take-ownership \
  --values "$ROOT/hack/local/operator-values.yaml" \
  --set-string image.repository="$repository" \
  --set-string image.tag="$tag" \
  --set-string hadoopImage="$HADOOP_IMAGE" \
  --set-string nodeSelector.kubernetes\\.io/hostname="$CLUSTER_NODE_NAME" "$@" >&2
echo "operator release $RELEASE installed in namespace $NAMESPACE" >&2
