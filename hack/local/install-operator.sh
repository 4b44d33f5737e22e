#!/usr/bin/env bash
# Installs or upgrades the operator's Helm chart in the local cluster (hack/cluster)
# with the images of hack/images, which must have been built and imported. The
# images keep their tags from build to build, so the archive's digest goes into a
# pod annotation: a rebuilt image rolls the manager's pod on the next install.
# Arguments are passed on to helm, after the script's own (--set crds.install=false).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=../cluster/env.sh
source "$ROOT/hack/cluster/env.sh"
# shellcheck source=../images/images.env
source "$ROOT/hack/images/images.env"
source "$ROOT/hack/tools/versions.env"
HELM="${HELM:-$HCO_CACHE/bin/helm-$HELM_VERSION}"
[ -x "$HELM" ] || "$ROOT/hack/tools/install.sh" helm
export KUBECONFIG

RELEASE=hadoop-ceph-operator
NAMESPACE=hadoop-ceph-operator

image_id="$("$ROOT/hack/images/import.sh" --digest operator)"
# --take-ownership adopts CRDs that a release of the chart from before templates/crds.yaml,
# or `make install`, left on this cluster.
"$HELM" upgrade --install "$RELEASE" "$ROOT/charts/hadoop-ceph-operator" \
  --namespace "$NAMESPACE" --create-namespace --take-ownership \
  --values "$ROOT/hack/local/operator-values.yaml" \
  --set-string image.repository="${OPERATOR_IMAGE%:*}" \
  --set-string image.tag="${OPERATOR_IMAGE##*:}" \
  --set-string hadoopImage="$HADOOP_IMAGE" \
  --set-string podAnnotations.hadoopceph\\.io/image-digest="$image_id" "$@" >&2
echo "operator release $RELEASE installed in namespace $NAMESPACE" >&2
