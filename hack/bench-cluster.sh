#!/usr/bin/env bash
# `make bench-cluster`: TeraSort through the operator's YARN against local-mode MapReduce
# on the same host and the same CephFS, in one run. Not part of `make test`; about 20
# minutes with the defaults on a 2-core machine.
#   Cluster path: a TeraSort BenchmarkRun (TeraGen, TeraSort, TeraValidate; 2 maps for
#   TeraGen, 2 reduces) on the demo's HadoopCluster (hack/demo/manifests.yaml: one
#   NodeManager with 6Gi and 4 vcores, a JobHistory server) on an external StorageBackend
#   on the local Ceph (hack/ceph), replicated pool.
#   Local path: the same three jobs with the same arguments, each in one JVM
#   (mapreduce.framework.name=local, 2 map and 2 reduce threads), in a pod made from the
#   stage pods' own template: same image, same Hadoop configuration, same CephFS client,
#   same node.
#   Repetitions alternate the two paths, each row count in turn, and alternate which path
#   goes first; every run starts on a settled machine (dirty pages written, Ceph's purge
#   of deleted files finished).
# Each cluster stage is split into phases from the JobHistory server's records; the CPU
# time of every pod on the node and of the Ceph daemons is sampled throughout and
# integrated over each stage. hack/bench_cluster_report.py turns the raw records into the
# section "## Cluster path (make bench-cluster)" of docs/benchmarks.md.
# Knobs: BENCH_REPS (3), BENCH_ROWS ("10000000 1000000"), BENCH_DOC (docs/benchmarks.md),
# BENCH_ALLOW_BUSY=1 (measure beside other load), BENCH_REPORT_ONLY=1 (write the section
# again from the last run's records, measuring nothing), BENCH_CONFIG (a file of lines
# `coreSite|yarnSite|mapredSite key=value` that go into the HadoopCluster's
# spec.config, to try a setting; the report names them), BENCH_PATHS ("cluster local";
# "cluster" alone to compare settings quickly, without a ratio), BENCH_KEEP=1 (keep the
# namespace and its cluster afterwards).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=cluster/env.sh
source "$ROOT/hack/cluster/env.sh"
source "$ROOT/hack/tools/versions.env"
# shellcheck source=ceph/env.sh
source "$ROOT/hack/ceph/env.sh"
export KUBECONFIG
KUBECTL="$HCO_CACHE/k8s/$KUBERNETES_VERSION/kubectl"

REPS="${BENCH_REPS:-3}"
SIZES="${BENCH_ROWS:-10000000 1000000}"
PATHS="${BENCH_PATHS:-cluster local}"
DOC="${BENCH_DOC:-$ROOT/docs/benchmarks.md}"
WORK="$HCO_CACHE/bench-cluster"
NAMESPACE=bench-cluster
CLUSTER=demo
BACKEND=ceph
CEPH_ROOT=/bench-cluster
LOCAL_POD=local-mode
HISTORY=http://127.0.0.1:19888/ws/v1/history/mapreduce/jobs
REPORT="$ROOT/hack/bench_cluster_report.py"
PROBE="$ROOT/hack/bench_cluster_probe.py"

# shellcheck disable=SC2034 # read by log, from hack/log.sh
HCO_LOG_TIME=1
k() { "$KUBECTL" -n "$NAMESPACE" "$@"; }
# probe SUBCOMMAND ...: what the run asks of the machine, the ResourceManager and
# kubectl's JSON (hack/bench_cluster_probe.py, tested in make test-hack).
probe() { python3 "$PROBE" "$@"; }

if [ "${BENCH_REPORT_ONLY:-0}" = 1 ]; then
  [ -s "$WORK/order.tsv" ] || die "BENCH_REPORT_ONLY=1: no records in $WORK; run make bench-cluster first"
  exec "$REPORT" "$WORK" "$DOC"
fi

sampler=""
trap '[ -z "$sampler" ] || kill "$sampler" 2>/dev/null || true' EXIT
trap 'exit 130' INT TERM

"$ROOT/hack/local/up.sh"
"$ROOT/hack/local/install-operator.sh"
"$KUBECTL" -n hadoop-ceph-operator rollout status deployment --timeout=5m >/dev/null

# Every system shares the node's two cores: another HadoopCluster, even idle, or a
# build beside the run skews both paths by different amounts.
others="$("$KUBECTL" get hadoopclusters -A --no-headers -o custom-columns=NS:.metadata.namespace,NAME:.metadata.name | awk -v ns="$NAMESPACE" '$1 != ns')"
if [ -n "$others" ]; then
  log "other HadoopClusters run on this node; delete their namespaces first (make demo-down removes the demo's):"
  echo "$others" >&2
  [ "${BENCH_ALLOW_BUSY:-0}" = 1 ] || exit 1
fi

log "the demo's HadoopCluster on an external StorageBackend in namespace $NAMESPACE"
# The end of an earlier run deletes the namespace; applying to it while it terminates
# would wait for a cluster that never comes.
if [ "$("$KUBECTL" get namespace "$NAMESPACE" -o jsonpath='{.status.phase}' 2>/dev/null)" = Terminating ]; then
  "$KUBECTL" wait --for=delete namespace/"$NAMESPACE" --timeout=5m >/dev/null
fi
"$KUBECTL" create namespace "$NAMESPACE" --dry-run=client -o yaml | "$KUBECTL" apply -f - >/dev/null
"$ROOT/hack/ceph/fsadmin.py" mkdir "$CEPH_ROOT"
for secret in ceph-hadoop-key:"$CEPH_CLIENT_KEYRING" ceph-evictor-key:"$CEPH_EVICTOR_KEYRING"; do
  key="$(awk '$1 == "key" {print $3}' "${secret#*:}")"
  k create secret generic "${secret%%:*}" --from-literal=key="$key" --dry-run=client -o yaml | k apply -f - >/dev/null
done
sed -e "s|\${NAMESPACE}|$NAMESPACE|g; s|\${CEPH_ROOT}|$CEPH_ROOT|g; s|\${MONITOR}|$CEPH_MONITOR|g" \
  "$ROOT/hack/demo/storagebackend-external.yaml" | k apply -f - >/dev/null
# The demo's manifests without its BenchmarkRun, then BENCH_CONFIG's settings in
# spec.config.
config="$(probe config "${BENCH_CONFIG:-}")"
sed -e "s|\${NAMESPACE}|$NAMESPACE|g; s|\${BACKEND}|$BACKEND|g" -e '/^# TeraGen, TeraSort/,$d' \
  "$ROOT/hack/demo/manifests.yaml" | k apply -f - >/dev/null
# A merge patch would keep keys of an earlier BENCH_CONFIG: replace the whole map.
k patch hadoopcluster "$CLUSTER" --type=json \
  -p "[{\"op\":\"add\",\"path\":\"/spec/config\",\"value\":$config}]" >/dev/null
k delete benchmarkruns --all --wait=true >/dev/null
k delete pod "$LOCAL_POD" --ignore-not-found --wait=true >/dev/null
log "waiting for HadoopCluster $CLUSTER"
k wait --for=condition=Ready --timeout=10m storagebackend/"$BACKEND" >/dev/null
generation="$(k get hadoopcluster "$CLUSTER" -o jsonpath='{.metadata.generation}')"
# Ready at this generation: every pod ready and of the current configuration.
k wait --for=jsonpath='{.status.conditions[?(@.type=="Ready")].observedGeneration}'="$generation" \
  --timeout=5m hadoopcluster/"$CLUSTER" >/dev/null
k wait --for=condition=Ready --timeout=10m hadoopcluster/"$CLUSTER" >/dev/null
# A ResourceManager that has just (re)started with recovery on holds new containers back
# for yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms (10 s) while
# NodeManagers resync: the first run would measure that wait.
# probe rm-settled: a RUNNING NodeManager and a ResourceManager started more than 20 s ago.
poll 5 300 probe rm-settled || log "the ResourceManager has not settled after 5 minutes; measuring anyway"

# Other work on the machine, a build or a test, skews both paths by different amounts.
# It shows as CPU used outside the node's pods and the Ceph daemons: Kubernetes's own
# processes take about 0.2 of a core on an idle node.
# idle prints those cores over 10 s and fails from 0.5 up.
idle() {
  # shellcheck disable=SC2046
  probe idle $(ceph_cluster_pids)
}
if [ "${BENCH_ALLOW_BUSY:-0}" != 1 ]; then
  quiet=0
  for _ in $(seq 1 12); do
    if other="$(idle)"; then quiet=1; break; fi
  done
  if [ "$quiet" = 0 ]; then
    die "other work takes $other cores of this machine: wait for it, or set BENCH_ALLOW_BUSY=1 to measure anyway"
  fi
fi

rm -rf "$WORK"
mkdir -p "$WORK/runs" "$WORK/history"
{
  printf 'reps\t%s\n' "$REPS"
  printf 'rows\t%s\n' "$SIZES"
  printf 'config\t%s\n' "$config"
  printf 'paths\t%s\n' "$PATHS"
  printf 'started\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} > "$WORK/meta.tsv"

# CPU time sampled every half second, in seconds: every pod on the node (the kubepods
# cgroup), the local Ceph's daemons (mon, mgr, OSDs, MDS), and the whole machine, whose
# rest (Kubernetes itself, anything else) shows how quiet the run was. Columns: time,
# pods, ceph, busy. python3 itself in the background, not probe(): $! is then the
# sampler's own pid, and killing it stops the sampling.
# shellcheck disable=SC2046
python3 "$PROBE" sample "$WORK/cpu.tsv" $(ceph_cluster_pids) &
sampler=$!

# run_succeeded NAME succeeds once the BenchmarkRun has succeeded; it ends the measuring
# when the run failed.
run_succeeded() {
  case "$(k get benchmarkrun "$1" -o jsonpath='{.status.phase}')" in
    Succeeded) return 0 ;;
    Failed)
      k get benchmarkrun "$1" -o yaml >&2
      die "BenchmarkRun $1 failed"
      ;;
  esac
  return 1
}

# The cluster path: a BenchmarkRun; its object, and each Hadoop job's records from the
# JobHistory server, are kept for the report.
cluster_run() {
  local rows="$1" rep="$2" name="ts-$(($1 / 1000))k-r$2" job
  log "rep $rep cluster $rows rows: BenchmarkRun $name"
  k apply -f - >/dev/null <<YAML
apiVersion: hadoopceph.io/v1alpha1
kind: BenchmarkRun
metadata:
  name: $name
spec:
  clusterRef:
    name: $CLUSTER
  teraSort:
    rows: $rows
    maps: 2
    reduces: 2
  deadline: 30m
YAML
  poll 2 2100 run_succeeded "$name" || die "BenchmarkRun $name has not ended in 35 minutes (its deadline is 30)"
  k get benchmarkrun "$name" -o json > "$WORK/runs/$name.json"
  # The runner's report, in each stage pod's termination message, has the stage's start
  # and end to the millisecond; status rounds times to the second.
  k get pods -l hadoopceph.io/benchmarkrun="$name" -o json > "$WORK/runs/$name.pods.json"
  for job in $(k get benchmarkrun "$name" -o jsonpath='{.status.stages[*].hadoopJobs[*]}'); do
    history_of "$job" > "$WORK/history/$job.json"
  done
  printf '%s\tcluster\t%s\t%s\n' "$rep" "$rows" "$name" >> "$WORK/order.tsv"
}

# One job's records from the JobHistory server: the job, its tasks, and the reduce
# attempts, whose shuffle and merge end times split a reduce's time.
history_of() {
  local job="$1" tasks task
  poll 2 60 curl -sf -o /dev/null "$HISTORY/$job" || true
  tasks="$(curl -sf "$HISTORY/$job/tasks")"
  printf '{"job":%s,"jobAttempts":%s,"tasks":%s,"attempts":{' \
    "$(curl -sf "$HISTORY/$job")" "$(curl -sf "$HISTORY/$job/jobattempts")" "$tasks"
  local first=1
  for task in $(probe reduce-tasks "$tasks"); do
    [ "$first" = 1 ] || printf ','
    first=0
    printf '"%s":%s' "$task" "$(curl -sf "$HISTORY/$job/tasks/$task/attempts")"
  done
  printf '}}\n'
}

# The local path's pod: the first stage pod's template, kept running, with room for
# local mode's map and reduce threads in one JVM.
local_pod() {
  k get pod "$LOCAL_POD" >/dev/null 2>&1 && return
  local template
  template="$(k get jobs -l hadoopceph.io/benchmarkrun -o json | probe local-pod "$LOCAL_POD")"
  k apply -f - <<<"$template" >/dev/null
  k wait --for=condition=Ready --timeout=5m pod/"$LOCAL_POD" >/dev/null
}

# The local path: the BenchmarkRun's three commands with the same arguments, in local
# mode. Timed inside the pod around each `hadoop jar`, as the runner times a stage.
local_run() {
  local rows="$1" rep="$2" name="local-$(($1 / 1000))k-r$2"
  log "rep $rep local $rows rows"
  local_pod
  k exec "$LOCAL_POD" -- bash -ec '
rows="$1" dir="/benchmarks/local/$2"
jar="$(ls "$HADOOP_HOME"/share/hadoop/mapreduce/hadoop-mapreduce-examples-*.jar)"
export HADOOP_CLIENT_OPTS="-Xmx4g"
local=(-Dmapreduce.framework.name=local -Dmapreduce.local.map.tasks.maximum=2
  -Dmapreduce.local.reduce.tasks.maximum=2 -Dmapreduce.task.io.sort.mb=256
  -Dmapreduce.client.progressmonitor.pollinterval=100 -Dhadoop.tmp.dir=/tmp/local-mode)
hadoop fs -rm -r -f -skipTrash "$dir" >/dev/null 2>&1
mkdir -p /tmp/local-mode && cd /tmp/local-mode
stage() {
  local name="$1" start end
  shift
  start="$(date +%s%3N)"
  hadoop jar "$jar" "$@" > "/tmp/local-mode/$name.log" 2>&1 || { tail -n 30 "/tmp/local-mode/$name.log" >&2; exit 1; }
  end="$(date +%s%3N)"
  printf "%s\t%s\t%s\n" "$name" "$start" "$end"
}
stage teragen teragen "${local[@]}" -Dmapreduce.job.maps=2 "$rows" "$dir/teragen"
stage terasort terasort "${local[@]}" -Dmapreduce.job.reduces=2 "$dir/teragen" "$dir/terasort"
stage teravalidate teravalidate "${local[@]}" "$dir/terasort" "$dir/teravalidate"
hadoop fs -cat "$dir/teravalidate/part-r-*" | grep -q "^error" && { echo "TeraValidate found errors" >&2; exit 1; }
hadoop fs -rm -r -f -skipTrash "$dir" >/dev/null 2>&1
' local-mode "$rows" "$name" > "$WORK/runs/$name.tsv"
  printf '%s\tlocal\t%s\t%s\n' "$rep" "$rows" "$name" >> "$WORK/order.tsv"
}

for rep in $(seq 1 "$REPS"); do
  for rows in $SIZES; do
    # Odd repetitions start with the cluster, even ones with local mode.
    if [ $((rep % 2)) = 1 ]; then order="cluster local"; else order="local cluster"; fi
    for path in $order; do
      [[ " $PATHS " == *" $path "* ]] || continue
      ceph_settle
      "${path}_run" "$rows" "$rep"
    done
    # A finished run's data goes with it; its records are kept above.
    k delete benchmarkruns --all --wait=true >/dev/null
  done
done
kill "$sampler" 2>/dev/null || true
sampler=""
# The cluster holds the node's Hadoop ports and most of its memory, which `make e2e` and
# `make demo` need; BENCH_KEEP=1 keeps it for another run.
if [ "${BENCH_KEEP:-0}" = 1 ]; then
  k delete pod "$LOCAL_POD" --ignore-not-found --wait=false >/dev/null
else
  log "deleting namespace $NAMESPACE"
  "$KUBECTL" delete namespace "$NAMESPACE" --wait=false >/dev/null
fi
log "records in $WORK; writing $DOC"
"$REPORT" "$WORK" "$DOC"
