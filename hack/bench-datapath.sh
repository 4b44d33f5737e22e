#!/usr/bin/env bash
# `make bench-datapath`: the connector's data path against the alternatives, on this
# machine, in one run. Not part of `make test`; takes about 25 minutes with the defaults
# on a 2-core machine.
#   TeraGen+TeraSort+TeraValidate (local mode) on ceph:// replicated (size 2), ceph:// EC
#   2+1, HDFS (MiniDFSCluster, 3 DataNodes, replication 3) and file://; systems alternate
#   within each repetition, each starting on a settled machine (dirty pages written,
#   Ceph's purge of deleted files finished); every TeraSort gets 128 MiB splits; medians
#   are reported.
#   TestDFSIO write/read through the connector against `rados bench` on the same pools,
#   both over the job's time and over its maps' I/O window.
#   Raw bytes stored per logical byte after TeraGen (ceph df detail; DataNode disk usage).
# Results go to $HCO_CACHE/bench-datapath/results.tsv and to the section
# "## Data path (make bench-datapath)" of docs/benchmarks.md.
# Knobs: BENCH_REPS (3), BENCH_ROWS (10000000), BENCH_DFSIO_FILES (4),
# BENCH_DFSIO_SIZE_MB (2048: 8 GiB in all, so the job's 1.3 s or so of submission and
# commit stay a small part of its time), BENCH_RADOS_SECONDS (20), BENCH_DOC (docs/benchmarks.md),
# BENCH_ALLOW_BUSY=1 (measure although a local Kubernetes is running), BENCH_REPORT_ONLY=1
# (write the section again from the last run's results.tsv, measuring nothing).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=ceph/env.sh
source "$ROOT/hack/ceph/env.sh"

REPS="${BENCH_REPS:-3}"
ROWS="${BENCH_ROWS:-10000000}"
DFSIO_FILES="${BENCH_DFSIO_FILES:-4}"
DFSIO_SIZE_MB="${BENCH_DFSIO_SIZE_MB:-2048}"
RADOS_SECONDS="${BENCH_RADOS_SECONDS:-20}"
DOC="${BENCH_DOC:-$ROOT/docs/benchmarks.md}"
WORK="$HCO_CACHE/bench-datapath"
RESULTS="$WORK/results.tsv"
NN_PORT="${BENCH_NN_PORT:-18020}"

# shellcheck disable=SC2034 # read by log, from hack/log.sh
HCO_LOG_TIME=1

if [ "${BENCH_REPORT_ONLY:-0}" = 1 ]; then
  [ -s "$RESULTS" ] || die "BENCH_REPORT_ONLY=1: no results to report in $RESULTS; run make bench-datapath first"
  log "writing $DOC from $RESULTS"
  exec "$ROOT/hack/bench_datapath_report.py" "$RESULTS" "$DOC"
fi

started_ceph=0
hdfs_pid=""
cleanup() {
  if [ -n "$hdfs_pid" ]; then
    kill "$hdfs_pid" 2>/dev/null || true
    wait "$hdfs_pid" 2>/dev/null || true
  fi
  if [ "$started_ceph" = 1 ] && [ "${HCO_KEEP_CEPH:-0}" != 1 ]; then
    "$ROOT/hack/ceph/down.sh" || true
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Every system shares the host's two cores, so anything else running skews the figures:
# the local Kubernetes of `make demo` and `make e2e` stays up after them and takes a few
# percent of a core even when idle, more while its pods run.
for busy in kube-apiserver kubelet; do
  if pgrep -x "$busy" >/dev/null; then
    log "$busy is running: stop the local Kubernetes first (make demo-down), or set BENCH_ALLOW_BUSY=1 to measure anyway"
    [ "${BENCH_ALLOW_BUSY:-0}" = 1 ] || exit 1
  fi
done

"$ROOT/hack/ceph/up.sh" --check >/dev/null 2>&1 || started_ceph=1
"$ROOT/hack/ceph/up.sh" >/dev/null
version="$(hco_install_libcephfs_jar)"

rm -rf "$WORK"
mkdir -p "$WORK/conf" "$WORK/file" "$WORK/hdfs" "$WORK/logs"
log "building the connector"
mvn -B -q -ntp -f "$ROOT/cephfs-hadoop/pom.xml" -Dlibcephfs.version="$version" package -DskipTests
mvn -B -q -ntp -f "$ROOT/cephfs-hadoop/pom.xml" -Dlibcephfs.version="$version" dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile="$WORK/classpath.txt" >/dev/null
CP="$WORK/conf:$(ls "$ROOT"/cephfs-hadoop/target/cephfs-hadoop-*.jar | head -1):$(cat "$WORK/classpath.txt")"

cat > "$WORK/conf/core-site.xml" <<XML
<?xml version="1.0"?>
<configuration>
  <property><name>fs.ceph.impl</name><value>io.hadoopceph.fs.CephFileSystem</value></property>
  <property><name>fs.AbstractFileSystem.ceph.impl</name><value>io.hadoopceph.fs.CephFs</value></property>
  <property><name>ceph.conf.file</name><value>$CEPH_CONF_FILE</value></property>
  <property><name>ceph.auth.id</name><value>$CEPH_CLIENT_ID</value></property>
  <property><name>ceph.auth.keyring</name><value>$CEPH_CLIENT_KEYRING</value></property>
  <property><name>mapreduce.framework.name</name><value>local</value></property>
  <property><name>mapreduce.local.map.tasks.maximum</name><value>2</value></property>
  <property><name>mapreduce.local.reduce.tasks.maximum</name><value>2</value></property>
  <property><name>mapreduce.task.io.sort.mb</name><value>256</value></property>
  <!-- The job client notices a job's end at its next poll (every second by default), which
       would add up to a second to every stage on every system. -->
  <property><name>mapreduce.client.progressmonitor.pollinterval</name><value>100</value></property>
  <property><name>hadoop.tmp.dir</name><value>$WORK/tmp</value></property>
</configuration>
XML
cat > "$WORK/conf/log4j.properties" <<'PROPS'
log4j.rootLogger=WARN,console
log4j.logger.org.apache.hadoop.fs.TestDFSIO=INFO
log4j.logger.org.apache.hadoop.mapred.LocalJobRunner=INFO
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.target=System.err
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %-5p %c{1}: %m%n
PROPS

OPENS="--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED"
# shellcheck disable=SC2086
hjava() { java -Xmx6g $OPENS -cp "$CP" "$@"; }

now() { date +%s.%N; }
elapsed() { awk -v t0="$1" -v t1="$(now)" 'BEGIN { printf "%.1f\n", t1 - t0 }'; }
record() { printf '%s\n' "$(IFS=$'\t'; echo "$*")" >> "$RESULTS"; }
# parse KIND [FILE]: a figure read out of a tool's output (hack/bench_datapath_parse.py,
# tested in make test-hack); it fails when the output lacks it.
parse() { "$ROOT/hack/bench_datapath_parse.py" "$@"; }

# probe: CPU time of processes and of a timed command (hack/bench_datapath_probe.py,
# tested in make test-hack).
probe() { "$ROOT/hack/bench_datapath_probe.py" "$@"; }

# CPU seconds used so far by a system's storage daemons: Ceph's mon, mgr, OSDs and MDS;
# the MiniDFSCluster's JVM (NameNode and DataNodes); none for file://.
storage_cpu() {
  case "$1" in
    # shellcheck disable=SC2046
    ceph-*) probe cpu-seconds $(ceph_cluster_pids) ;;
    hdfs) probe cpu-seconds "$hdfs_pid" ;;
    *) probe cpu-seconds ;;
  esac
}

# One timed stage: `stage <system> <rep> <name> <main class> <args...>` records its wall
# time, the CPU time of the job's JVM and that of the system's storage daemons.
stage() {
  local system="$1" rep="$2" name="$3" t s0
  shift 3
  log "rep $rep $system $name"
  s0="$(storage_cpu "$system")"
  t="$(now)"
  # shellcheck disable=SC2086
  probe timed "$WORK/job-cpu" java -Xmx6g $OPENS -cp "$CP" "$@" 2>>"$WORK/logs/$system.log"
  record terasort "$system" "$rep" "$name" "$(elapsed "$t")" "$(cat "$WORK/job-cpu")" \
    "$(awk -v s0="$s0" -v s1="$(storage_cpu "$system")" 'BEGIN { printf "%.2f\n", s1 - s0 }')"
}

# system -> default FS, base directory, replication for TeraSort's output
fs_of() {
  case "$1" in
    ceph-rep|ceph-ec) echo "ceph:///" ;;
    hdfs) echo "hdfs://127.0.0.1:$NN_PORT" ;;
    file) echo "file:///" ;;
  esac
}
base_of() {
  case "$1" in
    ceph-rep) echo "/bench/rep" ;;
    ceph-ec) echo "/bench/ec" ;;
    hdfs) echo "/bench" ;;
    file) echo "$WORK/file" ;;
  esac
}
replication_of() {
  case "$1" in
    ceph-rep) echo 2 ;;
    ceph-ec|hdfs) echo 3 ;;
    file) echo 1 ;;
  esac
}
pool_of() {
  case "$1" in
    ceph-rep) echo "$CEPH_REPLICATED_POOL" ;;
    ceph-ec) echo "$CEPH_EC_POOL" ;;
  esac
}

fsshell() { hjava org.apache.hadoop.fs.FsShell "$@"; }

log "laying out /bench/rep on $CEPH_REPLICATED_POOL and /bench/ec on $CEPH_EC_POOL"
fsshell -rm -r -f ceph:///bench >/dev/null 2>&1 || true
fsshell -mkdir -p ceph:///bench/rep ceph:///bench/ec
fsshell -setfattr -n ceph.dir.layout.pool -v "$CEPH_REPLICATED_POOL" ceph:///bench/rep
fsshell -setfattr -n ceph.dir.layout.pool -v "$CEPH_EC_POOL" ceph:///bench/ec

log "starting a MiniDFSCluster (3 DataNodes) on port $NN_PORT"
java -Xmx3g $OPENS -Dtest.build.data="$WORK/hdfs" -cp "$CP" org.apache.hadoop.mapreduce.MiniHadoopClusterManager \
  -nomr -format -datanodes 3 -nnport "$NN_PORT" -D dfs.replication=3 > "$WORK/logs/hdfs.log" 2>&1 &
hdfs_pid=$!
# hdfs_up makes the benchmarks' directory, once the NameNode answers; it stops the run
# when the MiniDFSCluster has died.
hdfs_up() {
  kill -0 "$hdfs_pid" 2>/dev/null || die "MiniDFSCluster died; see $WORK/logs/hdfs.log"
  hjava org.apache.hadoop.fs.FsShell -fs "hdfs://127.0.0.1:$NN_PORT" -mkdir -p /bench >/dev/null 2>&1
}
poll 2 240 hdfs_up || die "timed out after 240s waiting for the MiniDFSCluster's NameNode on port $NN_PORT (log: $WORK/logs/hdfs.log)"

ceph_pool_stats() {
  ceph_cli df detail --format json | parse pool-stats "$1"
}

# Every system pauses alike around the measured TeraGen of repetition 1: Ceph's pool
# statistics need the time to catch up, and the others must not run on a quieter machine.
raw_overhead() {
  local system="$1"
  sleep 10
  case "$system" in
    ceph-*) ceph_pool_stats "$(pool_of "$system")" ;;
    hdfs) echo 0 "$(du -sb "$WORK/hdfs" | cut -f1)" ;;
    file) echo 0 0 ;;
  esac
}

# Local-mode jobs symlink distributed-cache files (TeraSort's _partition.lst) into the
# working directory, so every job runs in a directory of its own.
enter_job_dir() {
  mkdir -p "$WORK/jobs/$1"
  cd "$WORK/jobs/$1"
}

terasort() {
  local system="$1" rep="$2" fs base repl before after
  enter_job_dir "terasort-$system-$rep"
  fs="$(fs_of "$system")"
  base="$(base_of "$system")"
  repl="$(replication_of "$system")"
  local common=(-D "fs.defaultFS=$fs" -D "dfs.replication=$repl" -D "mapreduce.terasort.output.replication=$repl")
  hjava org.apache.hadoop.fs.FsShell -D "fs.defaultFS=$fs" -rm -r -f -skipTrash "$base/in" "$base/out" "$base/report" >/dev/null 2>&1 || true
  [ "$system" = file ] && rm -rf "$WORK/file"/*
  ceph_settle
  if [ "$rep" = 1 ]; then before="$(raw_overhead "$system")"; fi
  stage "$system" "$rep" teragen org.apache.hadoop.examples.terasort.TeraGen "${common[@]}" "$ROWS" "$base/in"
  if [ "$rep" = 1 ]; then
    after="$(raw_overhead "$system")"
    if [ "$system" != file ]; then record raw "$system" "$rep" "$before" "$after" "$((ROWS * 100))"; fi
  fi
  # file:// reports 32 MiB blocks, HDFS and the connector 128 MiB: the same split size
  # everywhere gives every system the same job (8 maps of 128 MiB, 2 reduces).
  stage "$system" "$rep" terasort org.apache.hadoop.examples.terasort.TeraSort "${common[@]}" -D mapreduce.job.reduces=2 \
    -D mapreduce.input.fileinputformat.split.minsize=$((128 * 1024 * 1024)) "$base/in" "$base/out"
  stage "$system" "$rep" teravalidate org.apache.hadoop.examples.terasort.TeraValidate "${common[@]}" "$base/out" "$base/report"
  local checksum
  checksum="$(hjava org.apache.hadoop.fs.FsShell -D "fs.defaultFS=$fs" -cat "$base/report/part-*" | parse checksum)"
  record checksum "$system" "$rep" "$checksum"
  hjava org.apache.hadoop.fs.FsShell -D "fs.defaultFS=$fs" -rm -r -f -skipTrash "$base/in" "$base/out" "$base/report" >/dev/null 2>&1 || true
}

rados_bench() {
  local system="$1" rep="$2" pool out bandwidth
  pool="$(pool_of "$system")"
  log "rep $rep $system rados bench"
  ceph_settle
  out="$(timeout 300 rados --conf "$CEPH_CONF_FILE" --name client.admin --keyring "$CEPH_ADMIN_KEYRING" \
    -p "$pool" bench "$RADOS_SECONDS" write -t 16 --no-cleanup 2>&1)"
  bandwidth="$(parse rados-bandwidth <<<"$out")"
  record rados "$system" "$rep" write "$bandwidth"
  ceph_settle
  out="$(timeout 300 rados --conf "$CEPH_CONF_FILE" --name client.admin --keyring "$CEPH_ADMIN_KEYRING" \
    -p "$pool" bench "$RADOS_SECONDS" seq -t 16 2>&1)"
  bandwidth="$(parse rados-bandwidth <<<"$out")"
  record rados "$system" "$rep" read "$bandwidth"
  timeout 300 rados --conf "$CEPH_CONF_FILE" --name client.admin --keyring "$CEPH_ADMIN_KEYRING" \
    -p "$pool" cleanup >/dev/null 2>&1
}

dfsio() {
  local system="$1" rep="$2" dir mode res joblog seconds window
  enter_job_dir "dfsio-$system-$rep"
  dir="ceph://$(base_of "$system")/dfsio"
  for mode in write read; do
    ceph_settle
    log "rep $rep $system TestDFSIO -$mode"
    res="$WORK/dfsio-$system-$rep-$mode.txt"
    joblog="$WORK/logs/dfsio-$system-$rep-$mode.log"
    rm -f "$res"
    hjava org.apache.hadoop.fs.TestDFSIO -D fs.defaultFS=ceph:/// -D test.build.data="$dir" \
      -D mapreduce.local.map.tasks.maximum="$DFSIO_FILES" \
      "-$mode" -nrFiles "$DFSIO_FILES" -size "${DFSIO_SIZE_MB}MB" -resFile "$res" 2>"$joblog"
    # The maps' I/O window: from the first map's start to the last map's end in the
    # local-mode job's log, without the job's submission, reduce and commit.
    seconds="$(parse dfsio-seconds "$res")"
    window="$(parse map-window "$joblog")"
    record dfsio "$system" "$rep" "$mode" "$seconds" "$((DFSIO_FILES * DFSIO_SIZE_MB))" "$window"
  done
  hjava org.apache.hadoop.fs.TestDFSIO -D fs.defaultFS=ceph:/// -D test.build.data="$dir" -clean 2>>"$WORK/logs/dfsio.log"
}

: > "$RESULTS"
record meta rows "$ROWS" reps "$REPS" dfsio "$DFSIO_FILES x ${DFSIO_SIZE_MB} MiB" rados "${RADOS_SECONDS}s 4MiB 16 threads"
for rep in $(seq 1 "$REPS"); do
  for system in ceph-rep ceph-ec hdfs file; do
    terasort "$system" "$rep"
  done
  for system in ceph-rep ceph-ec; do
    dfsio "$system" "$rep"
    rados_bench "$system" "$rep"
  done
done

log "writing $DOC"
"$ROOT/hack/bench_datapath_report.py" "$RESULTS" "$DOC"
log "done"
