#!/usr/bin/env bash
# Installs Hadoop, the CephFS connector and this image's commands into the root file
# system TARGET, whose Debian system (images/hadoop/packages) is already there or, for
# a layer built apart from it, at least its /etc/passwd and /etc/group. Both
# images/hadoop/Dockerfile and hack/images/build.sh run it, so the two images have the
# same contents.
#
# Usage: assemble.sh STAGE TARGET, where STAGE holds
#   root/           images/hadoop/root: files copied as they are (commands, configuration)
#   jars/           what `mvn dependency:copy-dependencies` copied for images/hadoop/pom.xml
#   connector/      the connector's jar (cephfs-hadoop)
#   spark-jars/     what `mvn dependency:copy-dependencies` copied for
#                   images/hadoop/spark/pom.xml: Spark without Hadoop
#   run-benchmark   internal/benchmark/runner/run-benchmark
#
# Layout: Hadoop's own jars in share/hadoop/{common,hdfs,yarn,mapreduce}, its tools
# (DistCp, streaming) in share/hadoop/tools/lib, and every
# other jar once in share/hadoop/common/lib, so that YARN's default application class
# path and the operator's mapreduce.application.classpath together name each jar
# exactly once; the connector and libcephfs.jar join common/lib. Spark is in
# /opt/spark: its jars, none of them Hadoop's, and the image's own spark-submit,
# spark-shell and spark-class (root/opt/spark), which run it on Hadoop's class path.
set -euo pipefail

readonly HADOOP_UID=1000 HADOOP_GID=1000

die() {
	echo "assemble.sh: $*" >&2
	exit 1
}

[[ $# -eq 2 ]] || die "usage: assemble.sh STAGE TARGET"
stage="$(cd "$1" && pwd)"
target="$2"
[[ -d "${target}" ]] || die "no target directory ${target}"
# "/" becomes "", so paths below read /opt/... rather than //opt/...
target="$(cd "${target}" && pwd)"
target="${target%/}"
for f in "${stage}/root" "${stage}/jars" "${stage}/connector" "${stage}/spark-jars" "${stage}/run-benchmark" \
	"${target}/etc/passwd" "${target}/etc/group"; do
	[[ -e "${f}" ]] || die "missing ${f}"
done

common_jar="$(find "${stage}/jars/" -maxdepth 1 -name 'hadoop-common-*.jar' ! -name '*-tests.jar' -printf '%f\n')"
[[ "$(wc -w <<<"${common_jar}")" == 1 ]] || die "expected one hadoop-common jar in ${stage}/jars, found: ${common_jar:-none}"
version="${common_jar#hadoop-common-}"
version="${version%.jar}"

hadoop="${target}/opt/hadoop"
share="${hadoop}/share/hadoop"

# Commands and configuration, root-owned and read-only for the hadoop user.
cp -R --no-preserve=ownership "${stage}/root/." "${target}/"
install -d -m 0755 "${share}/common/lib" "${share}/hdfs/lib" "${share}/yarn/lib" "${share}/mapreduce/lib" "${share}/tools/lib"

# A jar is Hadoop's own when it carries Hadoop's version (hadoop-yarn-api-3.4.2.jar,
# hadoop-common-3.4.2-tests.jar); Hadoop's shaded third-party jars carry their own.
for jar in "${stage}/jars"/*.jar; do
	name="$(basename "${jar}")"
	case "${name}" in
	hadoop-distcp-"${version}".jar | hadoop-streaming-"${version}".jar) dir=tools/lib ;;
	hadoop-hdfs*-"${version}".jar | hadoop-hdfs*-"${version}"-*.jar) dir=hdfs ;;
	hadoop-yarn-*-"${version}".jar | hadoop-yarn-*-"${version}"-*.jar) dir=yarn ;;
	hadoop-mapreduce-*-"${version}".jar | hadoop-mapreduce-*-"${version}"-*.jar) dir=mapreduce ;;
	hadoop-*-"${version}".jar | hadoop-*-"${version}"-*.jar) dir=common ;;
	*) dir=common/lib ;;
	esac
	install -m 0644 "${jar}" "${share}/${dir}/${name}"
done

connectors=("${stage}/connector"/*.jar)
[[ ${#connectors[@]} == 1 && -f "${connectors[0]}" ]] || die "expected one jar in ${stage}/connector"
install -m 0644 "${connectors[0]}" "${share}/common/lib/$(basename "${connectors[0]}")"
# Debian's binding, matching the JNI library of libcephfs-jni: a link, so the two are
# always upgraded together.
ln -sfn /usr/share/java/libcephfs.jar "${share}/common/lib/libcephfs.jar"

# Version-less names, so that the operator's Jobs need not know Hadoop's version.
ln -sfn "hadoop-mapreduce-examples-${version}.jar" "${share}/mapreduce/hadoop-mapreduce-examples.jar"
ln -sfn "hadoop-mapreduce-client-jobclient-${version}-tests.jar" "${share}/mapreduce/hadoop-mapreduce-client-jobclient-tests.jar"
ln -sfn "hadoop-streaming-${version}.jar" "${share}/tools/lib/hadoop-streaming.jar"
for link in "${share}/mapreduce/hadoop-mapreduce-examples.jar" "${share}/mapreduce/hadoop-mapreduce-client-jobclient-tests.jar" \
	"${share}/tools/lib/hadoop-streaming.jar"; do
	[[ -f "${link}" ]] || die "${link} points at no jar"
done

install -m 0755 "${stage}/run-benchmark" "${target}/opt/hadoop-ceph/bin/run-benchmark"

# Spark runs on the Hadoop above: a Hadoop jar of its own would shadow Hadoop's (the
# launcher puts Spark's jars first), so the image refuses one.
spark="${target}/opt/spark"
spark_core="$(find "${stage}/spark-jars/" -maxdepth 1 -name 'spark-core_*.jar' -printf '%f\n')"
[[ "$(wc -w <<<"${spark_core}")" == 1 ]] || die "expected one spark-core jar in ${stage}/spark-jars, found: ${spark_core:-none}"
spark_version="${spark_core#spark-core_*-}"
spark_version="${spark_version%.jar}"
if find "${stage}/spark-jars/" -maxdepth 1 -name 'hadoop-*.jar' | grep -q .; then
	die "Spark's jars include Hadoop's: images/hadoop/spark/pom.xml must exclude org.apache.hadoop"
fi
install -d -m 0755 "${spark}/jars"
install -m 0644 "${stage}/spark-jars"/*.jar "${spark}/jars/"
# Spark's launcher takes SPARK_HOME for a distribution, with its jars in jars/, only
# where a RELEASE file says so.
echo "Spark ${spark_version} (Scala 2.12) without Hadoop, on Hadoop ${version}" >"${spark}/RELEASE"
chmod 0644 "${spark}/RELEASE"

chmod 0755 "${hadoop}/bin"/* "${target}/opt/hadoop-ceph/bin"/* "${spark}/bin"/*
chmod 0644 "${hadoop}/libexec"/* "${hadoop}/etc/hadoop"/* "${spark}/libexec"/*
find "${hadoop}" "${target}/opt/hadoop-ceph" "${spark}" -type d -exec chmod 0755 {} +

# Hadoop takes the user's name from the passwd entry of its id.
if ! grep -q "^[^:]*:[^:]*:${HADOOP_GID}:" "${target}/etc/group"; then
	echo "hadoop:x:${HADOOP_GID}:" >>"${target}/etc/group"
fi
if ! grep -q "^[^:]*:[^:]*:${HADOOP_UID}:" "${target}/etc/passwd"; then
	echo "hadoop:x:${HADOOP_UID}:${HADOOP_GID}:Hadoop:/home/hadoop:/bin/bash" >>"${target}/etc/passwd"
fi

# Where the operator mounts volumes; in an image run without them (docker run) they
# are the hadoop user's to write.
install -d -m 0755 -o "${HADOOP_UID}" -g "${HADOOP_GID}" \
	"${target}/home/hadoop" "${target}/var/log/hadoop" "${target}/var/lib/hadoop-yarn"
install -d -m 0755 "${target}/etc/ceph"

echo "assemble.sh: Hadoop ${version} with $(find "${share}" -name '*.jar' -type f | wc -l) jars in ${hadoop}, Spark ${spark_version} with $(find "${spark}/jars" -name '*.jar' -type f | wc -l) in ${spark}" >&2
