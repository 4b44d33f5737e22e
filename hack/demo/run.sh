#!/usr/bin/env bash
# `make demo`: from a fresh machine to a TeraSort on CephFS with its numbers in
# status. Brings up the local Kubernetes and the images, then the storage: by default
# Rook (hack/rook/up.sh) and a StorageBackend that has it make a CephFS on an
# erasure-coded 2+1 pool; with HCO_DEMO_STORAGE=external, the local Ceph (hack/ceph)
# behind an external StorageBackend. Installs the operator with Helm, applies a
# HadoopCluster and a TeraSort BenchmarkRun of one million rows, and waits, showing
# progress. Run it again at any time: every step is idempotent, and a finished run
# is shown again rather than repeated (delete it to run it anew).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=../cluster/env.sh
source "$ROOT/hack/cluster/env.sh"
source "$ROOT/hack/tools/versions.env"
# shellcheck source=../ceph/env.sh
source "$ROOT/hack/ceph/env.sh"
HCO_LOG_NAME=demo
export KUBECONFIG
KUBECTL="$HCO_CACHE/k8s/$KUBERNETES_VERSION/kubectl"
NAMESPACE=hadoop-demo
# The external path's root: the subvolume group made below.
CEPH_ROOT=/volumes/hadoop-demo
RUN=terasort-1m
STORAGE="${HCO_DEMO_STORAGE:-rook}"
case "$STORAGE" in
rook) BACKEND=cephfs-ec ;;
external) BACKEND=ceph ;;
*) die "HCO_DEMO_STORAGE must be rook (the default) or external, not '$STORAGE'" ;;
esac
started=$(date +%s)

step() { printf '\n==> %s\n' "$*"; }
k() { "$KUBECTL" "$@"; }
elapsed() { local s=$(($(date +%s) - started)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }
# show_ready KIND NAME prints the Ready condition of a resource of the demo's namespace
# and succeeds once it is True.
show_ready() {
  local ready msg
  ready="$(k -n "$NAMESPACE" get "$1" "$2" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}')"
  msg="$(k -n "$NAMESPACE" get "$1" "$2" -o jsonpath='{.status.conditions[?(@.type=="Ready")].message}')"
  printf '  [%s] Ready=%s %s\n' "$(elapsed)" "${ready:-?}" "$msg"
  [ "$ready" = True ]
}
# show_run prints the BenchmarkRun's phase and progress and succeeds once it has ended;
# phase stays set for the demo's exit status.
show_run() {
  local progress
  phase="$(k -n "$NAMESPACE" get benchmarkrun "$RUN" -o jsonpath='{.status.phase}')"
  progress="$(k -n "$NAMESPACE" get benchmarkrun "$RUN" -o jsonpath='{.status.progress.message}')"
  printf '  [%s] %s %s\n' "$(elapsed)" "${phase:-Pending}" "$progress"
  case "$phase" in Succeeded | Failed) return 0 ;; esac
  return 1
}

if [ "$STORAGE" = rook ]; then
  step "local Kubernetes (hack/cluster/up.sh)"
  "$ROOT/hack/cluster/up.sh" >/dev/null
  step "images (hack/images/build.sh), imported into the node's containerd"
  "$ROOT/hack/images/build.sh" all
  CONTAINERD_SNAPSHOTTER=overlayfs "$ROOT/hack/images/import.sh" all
  # A Rook the e2e suite left on three nodes lost two of them when the cluster went
  # back to one: it is removed, with the data it held, and made again.
  step "Rook and a one-node Ceph 18.2 in the local Kubernetes (hack/rook/up.sh)"
  "$ROOT/hack/rook/up.sh" --replace-if-nodes-changed
else
  "$ROOT/hack/local/up.sh"
fi

step "the operator, installed with Helm"
"$ROOT/hack/local/install-operator.sh"
k -n hadoop-ceph-operator rollout status deployment --timeout=5m

# Every Hadoop pod takes the node's Hadoop ports (host network): a cluster left by an
# interrupted end-to-end run would keep the demo's pods from being scheduled.
others="$(k get hadoopclusters -A --no-headers -o custom-columns=NS:.metadata.namespace,NAME:.metadata.name | awk -v ns="$NAMESPACE" '$1 != ns')"
if [ -n "$others" ]; then
  die "HadoopClusters of other namespaces hold this one-node cluster's Hadoop ports; delete their namespaces first:
$others"
fi

# A demo cluster made for the other storage keeps its backend: switching needs a new one.
current="$(k -n "$NAMESPACE" get hadoopcluster demo -o jsonpath='{.spec.storageBackendRef.name}' 2>/dev/null || true)"
if [ -n "$current" ] && [ "$current" != "$BACKEND" ]; then
  die "the demo's HadoopCluster runs on StorageBackend $current, not $BACKEND ($STORAGE storage): delete namespace $NAMESPACE first"
fi

step "a StorageBackend ($STORAGE), a HadoopCluster and a TeraSort in namespace $NAMESPACE"
k create namespace "$NAMESPACE" --dry-run=client -o yaml | k apply -f - >/dev/null
if [ "$STORAGE" = external ]; then
  # As docs/storage.md tells an external Ceph's administrator: a subvolume group owned
  # by the image's Hadoop user (uid and gid 1000).
  ceph_cli fs subvolumegroup create "$CEPH_FS_NAME" hadoop-demo --uid 1000 --gid 1000
  CEPH_ROOT="$(ceph_cli fs subvolumegroup getpath "$CEPH_FS_NAME" hadoop-demo)"
  key="$(awk '$1 == "key" {print $3}' "$CEPH_CLIENT_KEYRING")"
  k -n "$NAMESPACE" create secret generic ceph-hadoop-key --from-literal=key="$key" \
    --dry-run=client -o yaml | k apply -f - >/dev/null
  key="$(awk '$1 == "key" {print $3}' "$CEPH_EVICTOR_KEYRING")"
  k -n "$NAMESPACE" create secret generic ceph-evictor-key --from-literal=key="$key" \
    --dry-run=client -o yaml | k apply -f - >/dev/null
fi
sed -e "s|\${NAMESPACE}|$NAMESPACE|g; s|\${CEPH_ROOT}|$CEPH_ROOT|g; s|\${MONITOR}|$CEPH_MONITOR|g" \
  "$ROOT/hack/demo/storagebackend-$STORAGE.yaml" | k apply -f -

step "waiting for StorageBackend $BACKEND"
poll 10 1800 show_ready storagebackend "$BACKEND" ||
  die "StorageBackend $BACKEND is not Ready after 30 minutes: kubectl -n $NAMESPACE describe storagebackend $BACKEND"
k -n "$NAMESPACE" get storagebackends

if k -n "$NAMESPACE" get benchmarkrun "$RUN" >/dev/null 2>&1; then
  sed_run='/^# TeraGen, TeraSort/,$d'
else
  sed_run=''
fi
sed -e "s|\${NAMESPACE}|$NAMESPACE|g; s|\${BACKEND}|$BACKEND|g" -e "$sed_run" "$ROOT/hack/demo/manifests.yaml" | k apply -f -

step "waiting for the HadoopCluster (the first start pulls nothing: the images are local)"
poll 10 1800 show_ready hadoopcluster demo ||
  die "HadoopCluster demo is not Ready after 30 minutes: kubectl -n $NAMESPACE describe hadoopcluster demo"

step "waiting for BenchmarkRun $RUN"
phase=""
poll 10 3600 show_run ||
  die "BenchmarkRun $RUN has not ended after an hour: kubectl -n $NAMESPACE describe benchmarkrun $RUN"

step "results"
k -n "$NAMESPACE" get storagebackends
echo
k -n "$NAMESPACE" get benchmarkrun "$RUN" -o wide
echo
printf '%-14s %-4s %-10s %-12s %s\n' STAGE REP PHASE DURATION THROUGHPUT
k -n "$NAMESPACE" get benchmarkrun "$RUN" -o jsonpath='{range .status.stages[*]}{.stage}{" "}{.repetition}{" "}{.phase}{" "}{.duration}{" "}{.throughput}{"\n"}{end}' |
  while read -r stage rep phase duration throughput; do
    printf '%-14s %-4s %-10s %-12s %s\n' "$stage" "$rep" "$phase" "$duration" "$throughput"
  done
validate="$(k -n "$NAMESPACE" get benchmarkrun "$RUN" -o jsonpath='{.status.stages[?(@.stage=="teravalidate")].teraValidate.checksum}')"
errors="$(k -n "$NAMESPACE" get benchmarkrun "$RUN" -o jsonpath='{.status.stages[?(@.stage=="teravalidate")].teraValidate.errors}')"
generated="$(k -n "$NAMESPACE" get benchmarkrun "$RUN" -o jsonpath='{.status.stages[?(@.stage=="teragen")].counters.teraGenChecksum}')"
echo "TeraValidate: ${errors:-0} errors, checksum ${validate:-none} (TeraGen's: ${generated:-none})"
# The stages' links point at the JobHistory server's Service; on this host-network
# cluster the same pages are at the host's loopback.
echo "The sort's jobs on the JobHistory server:"
k -n "$NAMESPACE" get benchmarkrun "$RUN" -o jsonpath='{.status.stages[?(@.stage=="terasort")].historyURLs[*]}' | tr ' ' '\n' |
  sed -e 's|^http://[^/]*|  http://127.0.0.1:19888|'
echo

cat <<TXT

Done in $(elapsed). Look around:
  export KUBECONFIG=$KUBECONFIG
  alias kubectl=$KUBECTL
  kubectl get storagebackends,hadoopclusters,benchmarkruns -n $NAMESPACE -o wide
  kubectl get benchmarkrun $RUN -n $NAMESPACE -o yaml      # every stage, counters, checksums
  kubectl get pods -A
  kubectl logs -n $NAMESPACE demo-resourcemanager-0
  curl -s http://127.0.0.1:8088/ws/v1/cluster/apps | head -c 600   # YARN's REST API
  curl -s 'http://127.0.0.1:19888/ws/v1/history/mapreduce/jobs?user.name=hadoop' | head -c 600   # finished jobs
TXT
if [ "$STORAGE" = rook ]; then
  cat <<TXT
  kubectl get cephfilesystems,cephclients,cephfilesystemsubvolumegroups -n rook-ceph
  hack/rook/ceph.sh df                                    # raw used vs stored, per pool
  HCO_CEPH_DIR=$HCO_CACHE/rook HCO_CEPH_FS=hadoop-demo hack/ceph/fsadmin.py ls /volumes/hadoop   # the data on CephFS
TXT
else
  echo "  hack/ceph/fsadmin.py ls $CEPH_ROOT                      # the data on CephFS"
fi
cat <<TXT
Run the TeraSort again:  kubectl delete benchmarkrun $RUN -n $NAMESPACE && make demo
The same on an external Ceph: make demo-down && HCO_DEMO_STORAGE=external make demo
Tear everything down:    make demo-down
TXT
[ "$phase" = Succeeded ]
