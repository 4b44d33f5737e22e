#!/usr/bin/env bash
# Remakes internal/benchmark/testdata/ from real Hadoop runs: TeraGen, TeraSort and
# TeraValidate (also of unsorted data, which TeraValidate must reject), TestDFSIO write
# and read, WordCount and Grep (also on a missing input path), and parallel puts, each
# through internal/benchmark/runner/run-benchmark, so the fixtures hold both the tools'
# output and the termination messages the runner makes of it.
#
# MapReduce runs in local mode (mapreduce.framework.name=local) with Hadoop's jars from
# Maven Central. The file system is CephFS through the connector when the local Ceph of
# hack/ceph is already running and cephfs-hadoop/target has the connector jar; else
# file://. This script never starts or stops Ceph. FIXTURE_FS=file forces file://.
# TestDFSIO's result is also captured from Hadoop 2.10.2 and 1.2.1, whose layout
# differs (FIXTURE_OLD=0 skips them).
#
# testdata/README.md says how the committed fixtures were made; testdata/capture.env is
# written by this script with the versions and the date. FIXTURE_OUT writes the
# fixtures elsewhere, for example to compare a new capture with the committed one.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=ceph/env.sh
source "$ROOT/hack/ceph/env.sh"

HADOOP_VERSION="${HADOOP_VERSION:-3.4.2}"
OUT="${FIXTURE_OUT:-$ROOT/internal/benchmark/testdata}"
WORK="$HCO_CACHE/capture-benchmark-fixtures"
RUNNER="$ROOT/internal/benchmark/runner/run-benchmark"
ROWS="${FIXTURE_ROWS:-100000}"


# fetch_jars copies the runtime jars of the Hadoop client, the MapReduce examples and
# the job client's tests jar (TestDFSIO) of version $1 into $2, once. The tests jar's
# driver also needs hadoop-common's tests jar, which Hadoop's distribution ships too.
fetch_jars() {
  local version="$1" dir="$2" pom="$WORK/pom-$1.xml"
  cat > "$pom" <<XML
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.hadoopceph</groupId>
  <artifactId>benchmark-fixtures</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.hadoop</groupId><artifactId>hadoop-client</artifactId><version>$version</version></dependency>
    <dependency><groupId>org.apache.hadoop</groupId><artifactId>hadoop-common</artifactId><version>$version</version></dependency>
    <dependency><groupId>org.apache.hadoop</groupId><artifactId>hadoop-common</artifactId><version>$version</version><classifier>tests</classifier></dependency>
    <dependency><groupId>org.apache.hadoop</groupId><artifactId>hadoop-mapreduce-client-core</artifactId><version>$version</version></dependency>
    <dependency><groupId>org.apache.hadoop</groupId><artifactId>hadoop-mapreduce-client-common</artifactId><version>$version</version></dependency>
    <dependency><groupId>org.apache.hadoop</groupId><artifactId>hadoop-mapreduce-client-shuffle</artifactId><version>$version</version></dependency>
    <dependency><groupId>org.apache.hadoop</groupId><artifactId>hadoop-mapreduce-client-jobclient</artifactId><version>$version</version></dependency>
    <dependency><groupId>org.apache.hadoop</groupId><artifactId>hadoop-mapreduce-client-jobclient</artifactId><version>$version</version><classifier>tests</classifier></dependency>
    <dependency><groupId>org.apache.hadoop</groupId><artifactId>hadoop-mapreduce-examples</artifactId><version>$version</version></dependency>
    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version></dependency>
  </dependencies>
</project>
XML
  # The copy is redone whenever the list above changes.
  if cmp -s "$pom" "$dir/.pom.xml"; then
    return
  fi
  log "copying Hadoop $version jars from Maven Central into $dir"
  rm -rf "$dir"
  mvn -B -q -ntp -f "$pom" dependency:copy-dependencies -DoutputDirectory="$dir" -DincludeScope=runtime
  cp "$pom" "$dir/.pom.xml"
}

# The JDK 17 options Hadoop's local mode needs (a subset of those internal/hadoop gives
# the daemons), split into words where used.
OPENS="--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED"

# make_hadoop writes $1/hadoop, a stand-in for Hadoop's `hadoop` command with the
# `jar` and `fs` subcommands the runner uses, on class path $2 (configuration first).
make_hadoop() {
  mkdir -p "$1"
  cat > "$1/hadoop" <<SH
#!/usr/bin/env bash
case "\$1" in
  jar) shift; exec java -Xmx1g $OPENS -cp "$2" org.apache.hadoop.util.RunJar "\$@" ;;
  fs) shift; exec java -Xmx512m $OPENS -cp "$2" org.apache.hadoop.fs.FsShell "\$@" ;;
  *) echo "hadoop: only jar and fs are supported here" >&2; exit 1 ;;
esac
SH
  chmod +x "$1/hadoop"
}

# write_conf writes core-site.xml and log4j.properties into $1 for default FS $2.
write_conf() {
  local conf="$1" fs="$2"
  mkdir -p "$conf"
  {
    echo '<?xml version="1.0"?>'
    echo '<configuration>'
    prop() { echo "  <property><name>$1</name><value>$2</value></property>"; }
    prop fs.defaultFS "$fs"
    if [ "$fs" = ceph:/// ]; then
      prop fs.ceph.impl io.hadoopceph.fs.CephFileSystem
      prop fs.AbstractFileSystem.ceph.impl io.hadoopceph.fs.CephFs
      prop ceph.conf.file "$CEPH_CONF_FILE"
      prop ceph.auth.id "$CEPH_CLIENT_ID"
      prop ceph.auth.keyring "$CEPH_CLIENT_KEYRING"
      prop fs.ceph.client.metadata "hadoop_cluster=benchmark-fixtures"
    fi
    prop mapreduce.framework.name local
    prop mapreduce.local.map.tasks.maximum 2
    prop mapreduce.local.reduce.tasks.maximum 2
    prop hadoop.tmp.dir "$WORK/tmp"
    echo '</configuration>'
  } > "$conf/core-site.xml"
  # Hadoop's own console layout (etc/hadoop/log4j.properties). The loggers of the tasks
  # that LocalJobRunner runs inside the client are quiet, so a log shows what a job
  # client prints when its tasks run on YARN.
  cat > "$conf/log4j.properties" <<'PROPS'
log4j.rootLogger=INFO,console
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.target=System.err
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n
log4j.logger.org.apache.hadoop.mapred.LocalJobRunner=WARN
log4j.logger.org.apache.hadoop.mapred.Task=WARN
log4j.logger.org.apache.hadoop.mapred.MapTask=WARN
log4j.logger.org.apache.hadoop.mapred.ReduceTask=WARN
log4j.logger.org.apache.hadoop.mapred.Merger=WARN
log4j.logger.org.apache.hadoop.mapreduce.task.reduce=WARN
log4j.logger.org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter=WARN
log4j.logger.org.apache.hadoop.mapreduce.lib.output.PathOutputCommitterFactory=WARN
log4j.logger.org.apache.hadoop.conf.Configuration.deprecation=WARN
log4j.logger.org.apache.hadoop.util.NativeCodeLoader=ERROR
log4j.logger.org.apache.hadoop.metrics2=WARN
log4j.logger.org.apache.hadoop.mapreduce.JobResourceUploader=WARN
PROPS
}

# capture NAME ARGS... runs the runner with ARGS; its output goes to NAME.log and its
# termination message to NAME.termination-log.json. A failing stage is expected for
# some captures, so the exit status is recorded instead of stopping the script.
capture() {
  local name="$1"; shift
  log "$name"
  local rc=0
  # A Ceph restarted underneath a client blocks it for good; the time limit turns that
  # into a failed capture.
  BENCHMARK_TERMINATION_LOG="$OUT/$name.termination-log.json" PATH="$WORK/bin:$PATH" \
    timeout --kill-after=10 600 "$RUNNER" "$@" > "$OUT/$name.log" 2>&1 || rc=$?
  echo "$name exit=$rc" >> "$OUT/capture.env"
}

mkdir -p "$WORK" "$OUT"
JARS="$HCO_CACHE/hadoop-$HADOOP_VERSION-jars"
fetch_jars "$HADOOP_VERSION" "$JARS"

connector=""
for jar in "$ROOT"/cephfs-hadoop/target/cephfs-hadoop-*.jar; do
  [ -f "$jar" ] && connector="$jar" && break
done
if [ "${FIXTURE_FS:-}" != file ] && [ -n "$connector" ] && "$ROOT/hack/ceph/up.sh" --check >/dev/null 2>&1; then
  FS=ceph:///
  BASE=/benchmark-fixtures
  CP="$WORK/conf:$JARS/*:$connector:/usr/share/java/libcephfs.jar"
else
  FS=file:///
  BASE="$WORK/fs"
  CP="$WORK/conf:$JARS/*"
fi
log "default file system $FS, base directory $BASE"
rm -rf "${WORK:?}/tmp" "${WORK:?}/conf" "${WORK:?}/bin" "${WORK:?}/local" "${WORK:?}/cwd"
# LocalJobRunner links the distributed cache (TeraSort's _partition.lst) into the
# working directory.
mkdir -p "$WORK/cwd"
cd "$WORK/cwd"
write_conf "$WORK/conf" "$FS"
make_hadoop "$WORK/bin" "$CP"
hfs() { "$WORK/bin/hadoop" fs "$@"; }
hfs -rm -r -f -skipTrash "$BASE" >/dev/null 2>&1 || true
hfs -mkdir -p "$BASE"

rm -f "$OUT"/*.log "$OUT"/*.termination-log.json "$OUT"/*.txt
{
  echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "hadoop=$HADOOP_VERSION"
  echo "java=$(java -version 2>&1 | head -n 1)"
  echo "fs=$FS"
  if [ "$FS" = ceph:/// ]; then
    echo "ceph=$(ceph --version | cut -d' ' -f1-3)"
    echo "connector=$(basename "$connector")"
  fi
  echo "rows=$ROWS"
  [ "${FIXTURE_OLD:-1}" = 1 ] && echo "older TestDFSIO=2.10.2 1.2.1"
} > "$OUT/capture.env"

EXAMPLES="$JARS/hadoop-mapreduce-examples-$HADOOP_VERSION.jar"
TESTS="$JARS/hadoop-mapreduce-client-jobclient-$HADOOP_VERSION-tests.jar"

capture teragen exec --stage teragen -- hadoop jar "$EXAMPLES" teragen \
  -D mapreduce.job.maps=2 "$ROWS" "$BASE/teragen"
capture terasort exec --stage terasort -- hadoop jar "$EXAMPLES" terasort \
  -D mapreduce.job.reduces=2 -D mapreduce.terasort.output.replication=1 "$BASE/teragen" "$BASE/terasort"
capture teravalidate exec --stage teravalidate --validate-report "$BASE/teravalidate" -- \
  hadoop jar "$EXAMPLES" teravalidate "$BASE/terasort" "$BASE/teravalidate"
hfs -cat "$BASE/teravalidate/part-r-*" > "$OUT/teravalidate-report.txt"

# Sorted files in the wrong order: the first reduce's file renamed as the last and the
# other way round. TeraValidate finds each file sorted and the keys out of place
# between them.
hfs -mkdir -p "$BASE/swapped"
hfs -cp "$BASE/terasort/part-r-00000" "$BASE/swapped/part-r-00001"
hfs -cp "$BASE/terasort/part-r-00001" "$BASE/swapped/part-r-00000"
capture teravalidate-swapped exec --stage teravalidate --validate-report "$BASE/teravalidate-swapped" -- \
  hadoop jar "$EXAMPLES" teravalidate "$BASE/swapped" "$BASE/teravalidate-swapped"
hfs -cat "$BASE/teravalidate-swapped/part-r-*" > "$OUT/teravalidate-swapped-report.txt"

# TeraGen's output is not sorted: TeraValidate reports every misordered pair and the
# keys out of place between files. Twenty rows keep the report small.
hfs -rm -r -f -skipTrash "$BASE/unsorted" >/dev/null 2>&1 || true
"$WORK/bin/hadoop" jar "$EXAMPLES" teragen -D mapreduce.job.maps=2 20 "$BASE/unsorted" > /dev/null 2>&1
capture teravalidate-unsorted exec --stage teravalidate --validate-report "$BASE/teravalidate-unsorted" -- \
  hadoop jar "$EXAMPLES" teravalidate "$BASE/unsorted" "$BASE/teravalidate-unsorted"
hfs -cat "$BASE/teravalidate-unsorted/part-r-*" > "$OUT/teravalidate-unsorted-report.txt"

for mode in write read; do
  rm -f "$WORK/dfsio.txt"
  capture "dfsio-$mode" exec --stage "dfsio-$mode" --dfsio-result "$WORK/dfsio.txt" -- \
    hadoop jar "$TESTS" TestDFSIO -D test.build.data="$BASE/dfsio" -"$mode" -nrFiles 2 -size 4MB -resFile "$WORK/dfsio.txt"
  cp "$WORK/dfsio.txt" "$OUT/dfsio-$mode-result.txt"
done

# Text for WordCount and Grep: two files of words from a fixed list.
mkdir -p "$WORK/local/text"
for f in 1 2; do
  awk -v seed="$f" 'BEGIN { srand(seed); split("ceph hadoop yarn mapreduce terasort wordcount grep metadata object pool placement replica erasure", w, " ");
    for (i = 0; i < 2000; i++) { line = ""; for (j = 0; j < 12; j++) line = line w[int(rand() * 13) + 1] " "; print line } }' > "$WORK/local/text/part-$f.txt"
done
hfs -mkdir -p "$BASE/text"
hfs -put -f "$WORK/local/text/part-1.txt" "$WORK/local/text/part-2.txt" "$BASE/text/"
capture wordcount exec --stage wordcount --require-path "$BASE/text" -- \
  hadoop jar "$EXAMPLES" wordcount "$BASE/text" "$BASE/wordcount"
capture grep exec --stage grep --require-path "$BASE/text" -- \
  hadoop jar "$EXAMPLES" grep "$BASE/text" "$BASE/grep" 'p[a-z]*'
capture wordcount-missing-input exec --stage wordcount --require-path "$BASE/no-such-input" -- \
  hadoop jar "$EXAMPLES" wordcount "$BASE/no-such-input" "$BASE/wordcount-missing"
# Without the runner's check, WordCount itself fails on the missing path.
capture wordcount-unchecked-missing-input exec --stage wordcount -- \
  hadoop jar "$EXAMPLES" wordcount "$BASE/no-such-input" "$BASE/wordcount-missing"

JOB_COMPLETION_INDEX=1 capture ingest ingest --stage ingest --puts 3 --size 8388608 --dest "$BASE/ingest"

# TestDFSIO's result of older releases, on file://: Hadoop 2.10 prints it as 3.4 does;
# Hadoop 1.2 aligns the keys differently and prints unrounded doubles.
if [ "${FIXTURE_OLD:-1}" = 1 ]; then
  OLD2="$HCO_CACHE/hadoop-2.10.2-jars"
  fetch_jars 2.10.2 "$OLD2"
  write_conf "$WORK/conf-2.10.2" file:///
  log "TestDFSIO write of Hadoop 2.10.2"
  rm -f "$WORK/dfsio-2.txt"
  # shellcheck disable=SC2086 # OPENS is a list of JVM options
  java -Xmx1g $OPENS -cp "$WORK/conf-2.10.2:$OLD2/*" org.apache.hadoop.util.RunJar \
    "$OLD2/hadoop-mapreduce-client-jobclient-2.10.2-tests.jar" TestDFSIO \
    -D test.build.data="$WORK/fs-2.10.2/dfsio" -write -nrFiles 2 -size 4MB -resFile "$WORK/dfsio-2.txt" \
    > "$OUT/dfsio-write-hadoop-2.10.2.log" 2>&1
  cp "$WORK/dfsio-2.txt" "$OUT/dfsio-write-hadoop-2.10.2-result.txt"

  OLD1="$HCO_CACHE/hadoop-1.2.1-jars"
  if ! [ -f "$OLD1/hadoop-test-1.2.1.jar" ]; then
    cat > "$WORK/pom-1.2.1.xml" <<'XML'
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.hadoopceph</groupId>
  <artifactId>benchmark-fixtures-hadoop1</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.hadoop</groupId><artifactId>hadoop-core</artifactId><version>1.2.1</version></dependency>
    <dependency><groupId>org.apache.hadoop</groupId><artifactId>hadoop-test</artifactId><version>1.2.1</version></dependency>
  </dependencies>
</project>
XML
    mvn -B -q -ntp -f "$WORK/pom-1.2.1.xml" dependency:copy-dependencies -DoutputDirectory="$OLD1" -DincludeScope=runtime
  fi
  mkdir -p "$WORK/conf-1.2.1"
  cat > "$WORK/conf-1.2.1/core-site.xml" <<XML
<?xml version="1.0"?>
<configuration>
  <property><name>fs.default.name</name><value>file:///</value></property>
  <property><name>mapred.job.tracker</name><value>local</value></property>
  <property><name>hadoop.tmp.dir</name><value>$WORK/tmp-1.2.1</value></property>
</configuration>
XML
  log "TestDFSIO write of Hadoop 1.2.1"
  rm -f "$WORK/dfsio-1.txt"
  java -Xmx1g --add-opens=java.base/java.lang=ALL-UNNAMED -cp "$WORK/conf-1.2.1:$OLD1/*" org.apache.hadoop.fs.TestDFSIO \
    -Dtest.build.data="$WORK/fs-1.2.1/dfsio" -write -nrFiles 2 -fileSize 4 -resFile "$WORK/dfsio-1.txt" \
    > "$OUT/dfsio-write-hadoop-1.2.1.log" 2>&1
  cp "$WORK/dfsio-1.txt" "$OUT/dfsio-write-hadoop-1.2.1-result.txt"
fi

hfs -rm -r -f -skipTrash "$BASE" >/dev/null 2>&1 || true
log "done: $OUT"
