#!/usr/bin/env bash
# `make bench-datapath`: the connector's data path against the alternatives, on this
# machine, in one run. Not part of `make test`; takes about an hour with the defaults.
#   TeraGen+TeraSort+TeraValidate (local mode) on ceph:// replicated (size 2), ceph:// EC
#   2+1, HDFS (MiniDFSCluster, 3 DataNodes, replication 3) and file://; systems alternate
#   within each repetition; medians are reported.
#   TestDFSIO write/read through the connector against `rados bench` on the same pools.
#   Raw bytes stored per logical byte after TeraGen (ceph df detail; DataNode disk usage).
# Results go to $HCO_CACHE/bench-datapath/results.tsv and to the section
# "## Data path (make bench-datapath)" of docs/benchmarks.md.
# Knobs: BENCH_REPS (3), BENCH_ROWS (10000000), BENCH_DFSIO_FILES (4),
# BENCH_DFSIO_SIZE_MB (1024), BENCH_RADOS_SECONDS (20), BENCH_DOC (docs/benchmarks.md).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=ceph/env.sh
source "$ROOT/hack/ceph/env.sh"

REPS="${BENCH_REPS:-3}"
ROWS="${BENCH_ROWS:-10000000}"
DFSIO_FILES="${BENCH_DFSIO_FILES:-4}"
DFSIO_SIZE_MB="${BENCH_DFSIO_SIZE_MB:-1024}"
RADOS_SECONDS="${BENCH_RADOS_SECONDS:-20}"
DOC="${BENCH_DOC:-$ROOT/docs/benchmarks.md}"
WORK="$HCO_CACHE/bench-datapath"
RESULTS="$WORK/results.tsv"
NN_PORT="${BENCH_NN_PORT:-18020}"

log() { echo "bench-datapath: $(date +%H:%M:%S) $*" >&2; }

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
  <property><name>hadoop.tmp.dir</name><value>$WORK/tmp</value></property>
</configuration>
XML
cat > "$WORK/conf/log4j.properties" <<'PROPS'
log4j.rootLogger=WARN,console
log4j.logger.org.apache.hadoop.fs.TestDFSIO=INFO
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.target=System.err
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %-5p %c{1}: %m%n
PROPS

OPENS="--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED"
# shellcheck disable=SC2086
hjava() { java -Xmx6g $OPENS -cp "$CP" "$@"; }

now() { date +%s.%N; }
elapsed() { python3 -c "print(f'{$(now) - $1:.1f}')"; }
record() { printf '%s\n' "$(IFS=$'\t'; echo "$*")" >> "$RESULTS"; }

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
for _ in $(seq 1 120); do
  hjava org.apache.hadoop.fs.FsShell -fs "hdfs://127.0.0.1:$NN_PORT" -mkdir -p /bench >/dev/null 2>&1 && break
  kill -0 "$hdfs_pid" 2>/dev/null || { log "MiniDFSCluster died; see $WORK/logs/hdfs.log"; exit 1; }
  sleep 2
done

ceph_pool_stats() {
  ceph_cli df detail --format json | python3 -c '
import json, sys
pool = sys.argv[1]
for p in json.load(sys.stdin)["pools"]:
    if p["name"] == pool:
        print(p["stats"]["stored"], p["stats"]["bytes_used"])' "$1"
}

raw_overhead() {
  local system="$1"
  case "$system" in
    ceph-*) sleep 10; ceph_pool_stats "$(pool_of "$system")" ;;
    hdfs) echo 0 "$(du -sb "$WORK/hdfs" | cut -f1)" ;;
  esac
}

# Local-mode jobs symlink distributed-cache files (TeraSort's _partition.lst) into the
# working directory, so every job runs in a directory of its own.
enter_job_dir() {
  mkdir -p "$WORK/jobs/$1"
  cd "$WORK/jobs/$1"
}

terasort() {
  local system="$1" rep="$2" fs base repl t before after
  enter_job_dir "terasort-$system-$rep"
  fs="$(fs_of "$system")"
  base="$(base_of "$system")"
  repl="$(replication_of "$system")"
  local common=(-D "fs.defaultFS=$fs" -D "dfs.replication=$repl" -D "mapreduce.terasort.output.replication=$repl")
  hjava org.apache.hadoop.fs.FsShell -D "fs.defaultFS=$fs" -rm -r -f -skipTrash "$base/in" "$base/out" "$base/report" >/dev/null 2>&1 || true
  [ "$system" = file ] && rm -rf "$WORK/file"/*
  if [ "$rep" = 1 ] && [ "$system" != file ]; then before="$(raw_overhead "$system")"; fi
  log "rep $rep $system teragen"
  t="$(now)"
  hjava org.apache.hadoop.examples.terasort.TeraGen "${common[@]}" -D mapreduce.job.maps=4 "$ROWS" "$base/in" 2>>"$WORK/logs/$system.log"
  record terasort "$system" "$rep" teragen "$(elapsed "$t")"
  if [ "$rep" = 1 ] && [ "$system" != file ]; then
    after="$(raw_overhead "$system")"
    record raw "$system" "$rep" "$before" "$after" "$((ROWS * 100))"
  fi
  log "rep $rep $system terasort"
  t="$(now)"
  hjava org.apache.hadoop.examples.terasort.TeraSort "${common[@]}" -D mapreduce.job.reduces=2 "$base/in" "$base/out" 2>>"$WORK/logs/$system.log"
  record terasort "$system" "$rep" terasort "$(elapsed "$t")"
  log "rep $rep $system teravalidate"
  t="$(now)"
  hjava org.apache.hadoop.examples.terasort.TeraValidate "${common[@]}" "$base/out" "$base/report" 2>>"$WORK/logs/$system.log"
  record terasort "$system" "$rep" teravalidate "$(elapsed "$t")"
  local checksum
  checksum="$(hjava org.apache.hadoop.fs.FsShell -D "fs.defaultFS=$fs" -cat "$base/report/part-*" | awk -F'\t' '$1=="checksum"{print $2} $1=="error"{print "ERROR"}' | tr '\n' ' ')"
  record checksum "$system" "$rep" "$checksum"
  hjava org.apache.hadoop.fs.FsShell -D "fs.defaultFS=$fs" -rm -r -f -skipTrash "$base/in" "$base/out" "$base/report" >/dev/null 2>&1 || true
}

rados_bench() {
  local system="$1" rep="$2" pool out
  pool="$(pool_of "$system")"
  log "rep $rep $system rados bench"
  out="$(timeout 300 rados --conf "$CEPH_CONF_FILE" --name client.admin --keyring "$CEPH_ADMIN_KEYRING" \
    -p "$pool" bench "$RADOS_SECONDS" write -t 16 --no-cleanup 2>&1)"
  record rados "$system" "$rep" write "$(awk -F: '/^Bandwidth \(MB\/sec\)/{gsub(/ /,"",$2); print $2}' <<<"$out")"
  out="$(timeout 300 rados --conf "$CEPH_CONF_FILE" --name client.admin --keyring "$CEPH_ADMIN_KEYRING" \
    -p "$pool" bench "$RADOS_SECONDS" seq -t 16 2>&1)"
  record rados "$system" "$rep" read "$(awk -F: '/^Bandwidth \(MB\/sec\)/{gsub(/ /,"",$2); print $2}' <<<"$out")"
  timeout 300 rados --conf "$CEPH_CONF_FILE" --name client.admin --keyring "$CEPH_ADMIN_KEYRING" \
    -p "$pool" cleanup >/dev/null 2>&1
}

dfsio() {
  local system="$1" rep="$2" dir mode res
  enter_job_dir "dfsio-$system-$rep"
  dir="ceph://$(base_of "$system")/dfsio"
  for mode in write read; do
    log "rep $rep $system TestDFSIO -$mode"
    res="$WORK/dfsio-$system-$rep-$mode.txt"
    rm -f "$res"
    hjava org.apache.hadoop.fs.TestDFSIO -D fs.defaultFS=ceph:/// -D test.build.data="$dir" \
      -D mapreduce.local.map.tasks.maximum="$DFSIO_FILES" \
      "-$mode" -nrFiles "$DFSIO_FILES" -size "${DFSIO_SIZE_MB}MB" -resFile "$res" 2>>"$WORK/logs/dfsio.log"
    record dfsio "$system" "$rep" "$mode" "$(awk -F: '/Test exec time sec/{gsub(/ /,"",$2); print $2}' "$res")" \
      "$((DFSIO_FILES * DFSIO_SIZE_MB))"
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
python3 - "$RESULTS" "$DOC" "BENCH_REPS=$REPS BENCH_ROWS=$ROWS BENCH_DFSIO_FILES=$DFSIO_FILES BENCH_DFSIO_SIZE_MB=$DFSIO_SIZE_MB make bench-datapath" <<'PY'
import os, re, statistics, sys, time
from collections import defaultdict

results, doc, command = sys.argv[1:4]
rows = [line.rstrip("\n").split("\t") for line in open(results) if line.strip()]
meta = dict(zip(rows[0][1::2], rows[0][2::2]))
stage = defaultdict(list)
checksums = defaultdict(set)
raw = {}
dfsio = defaultdict(list)
rados = defaultdict(list)
for r in rows[1:]:
    kind, system = r[0], r[1]
    if kind == "terasort":
        stage[(system, r[3])].append(float(r[4]))
    elif kind == "checksum":
        checksums[system].add(r[3].strip())
    elif kind == "raw":
        b_stored, b_used = map(int, r[3].split())
        a_stored, a_used = map(int, r[4].split())
        raw[system] = (a_stored - b_stored, a_used - b_used, int(r[5]))
    elif kind == "dfsio":
        dfsio[(system, r[3])].append(float(r[5]) / float(r[4]))
    elif kind == "rados":
        rados[(system, r[3])].append(float(r[4]))

med = statistics.median
names = {"ceph-rep": "ceph:// replicated, size 2", "ceph-ec": "ceph:// EC 2+1",
         "hdfs": "HDFS, 3 DataNodes, replication 3", "file": "file:// (local disk)"}
systems = [s for s in ["ceph-rep", "ceph-ec", "hdfs", "file"] if (s, "terasort") in stage]
totals = {}
for s in systems:
    per_rep = [sum(x) for x in zip(stage[(s, "teragen")], stage[(s, "terasort")], stage[(s, "teravalidate")])]
    totals[s] = med(per_rep)


def verdict(flag):
    return "met" if flag else "**missed**"


out = ["## Data path (make bench-datapath)", ""]
mem = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30)
out.append(f"Measured {time.strftime('%Y-%m-%d')} on one machine ({os.cpu_count()} cores, {mem} GiB, "
           f"Debian 12, Ceph 16.2.15 from Debian's packages via hack/ceph/up.sh, Hadoop 3.4.2, "
           f"OpenJDK 17). Medians of {meta['reps']} repetitions; within each repetition the "
           f"systems run one after the other. Reproduce with:")
out += ["", "```", command, "```", ""]
rows_n = int(meta["rows"])
out.append(f"### TeraGen + TeraSort + TeraValidate, {rows_n:,} rows ({rows_n * 100 / 1e9:.1f} GB), local mode")
out.append("")
out.append("MapReduce local mode with the same settings on every system (2 map and 2 reduce "
           "slots, 4 TeraGen maps, 2 TeraSort reduces, io.sort.mb 256). "
           "`mapreduce.terasort.output.replication` is set to the system's replication (HDFS 3), "
           "so HDFS writes the sorted output three times, as Ceph's pools do.")
out.append("")
out.append("| System | TeraGen s | TeraSort s | TeraValidate s | Total s | Total vs HDFS | Total vs file:// | TeraSort vs HDFS |")
out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for s in systems:
    g, t, v = (med(stage[(s, k)]) for k in ("teragen", "terasort", "teravalidate"))
    vs_hdfs = f"{totals[s] / totals['hdfs']:.2f}x" if "hdfs" in totals else "-"
    vs_file = f"{totals[s] / totals['file']:.2f}x" if "file" in totals else "-"
    sort_vs = f"{t / med(stage[('hdfs', 'terasort')]):.2f}x" if "hdfs" in totals else "-"
    out.append(f"| {names[s]} | {g:.1f} | {t:.1f} | {v:.1f} | {totals[s]:.1f} | {vs_hdfs} | {vs_file} | {sort_vs} |")
out.append("")
sums = set().union(*checksums.values()) if checksums else set()
out.append(f"TeraValidate checksums: {'identical on every system and repetition' if len(sums) == 1 and 'ERROR' not in ''.join(sums) else 'DIFFER: ' + ', '.join(sorted(sums))}.")
out.append("")
for s in ("ceph-rep", "ceph-ec"):
    if s in totals and "hdfs" in totals and "file" in totals:
        r_h = totals[s] / totals["hdfs"]
        r_f = totals[s] / totals["file"]
        out.append(f"- {names[s]}: total {r_h:.2f}x HDFS (target at most 0.75x: {verdict(r_h <= 0.75)}), "
                   f"{(r_f - 1) * 100:+.1f}% against file:// (target within 5%: {verdict(abs(r_f - 1) <= 0.05)}).")
out.append("")
out.append("All systems share the host's cores: Ceph's daemons (3 OSDs, MDS, mon, mgr) and HDFS's NameNode and DataNodes run beside the job, file:// has no storage daemon at all, so the comparison with file:// measures what the storage stack costs on one host.")
out.append("")
if dfsio:
    out.append("### TestDFSIO through the connector against rados bench")
    out.append("")
    out.append(f"TestDFSIO: {meta['dfsio']} files written, then read, in local mode with one "
               f"map per file and all maps in parallel; aggregate MiB/s = bytes / job time "
               f"(TestDFSIO's \"Test exec time\"). rados bench: {meta['rados']}, `write` then "
               f"`seq`, on the same pool.")
    out.append("")
    out.append("| Pool | Operation | TestDFSIO MiB/s | rados bench MiB/s | Ratio | Target (at least 80%) |")
    out.append("| --- | --- | ---: | ---: | ---: | --- |")
    for s in ("ceph-rep", "ceph-ec"):
        for op in ("write", "read"):
            if (s, op) in dfsio and (s, op) in rados:
                d, r = med(dfsio[(s, op)]), med(rados[(s, op)])
                out.append(f"| {names[s]} | {op} | {d:.0f} | {r:.0f} | {d / r * 100:.0f}% | {verdict(d / r >= 0.8)} |")
    out.append("")
if raw:
    out.append("### Raw storage per byte stored, after TeraGen")
    out.append("")
    out.append("Ceph: growth of the pool's `bytes_used` over the growth of its `stored` "
               "(`ceph df detail`). HDFS: growth of the MiniDFSCluster's directory (block "
               "files and their metadata) over the bytes TeraGen wrote.")
    out.append("")
    out.append("| System | Logical GB | Raw GB | Raw / logical | Expected | Target |")
    out.append("| --- | ---: | ---: | ---: | ---: | --- |")
    for s, expected in (("ceph-rep", "2.0"), ("ceph-ec", "1.5"), ("hdfs", "3.0")):
        if s in raw:
            stored, used, logical = raw[s]
            base = stored if stored > 0 else logical
            ratio = used / base
            target = verdict(abs(ratio / 1.5 - 1) <= 0.05) + " (within 5% of 1.5)" if s == "ceph-ec" else ""
            out.append(f"| {names[s]} | {base / 1e9:.2f} | {used / 1e9:.2f} | {ratio:.2f} | {expected} | {target} |")
    out.append("")

section = "\n".join(out).rstrip() + "\n"
text = open(doc).read() if os.path.exists(doc) else "# Benchmarks\n"
m = re.search(r"^## Data path \(make bench-datapath\)\n.*?(?=^## |\Z)", text, flags=re.M | re.S)
if m:
    rest = text[m.end():]
    text = text[:m.start()] + section + ("\n" + rest if rest else "")
else:
    text = text.rstrip() + "\n\n" + section
with open(doc, "w") as f:
    f.write(text)
print(section)
PY
log "done"
