#!/usr/bin/env bash
# Tests the Hadoop image the way the operator runs it, on the local Ceph of hack/ceph:
# the image's root file system (unpacked from the archive hack/images/build.sh wrote)
# read-only, the commands run as uid 1000 with the image's environment, /etc/ceph,
# /tmp, /var/log/hadoop and /var/lib/hadoop-yarn mounted, and the configuration files
# the operator renders (internal/hadoop/testdata/external-hostnetwork, pointed at this
# Ceph and at 127.0.0.1) mounted over the image's. Checks the image contract, CephFS
# through the connector, an HDFS of one NameNode and one DataNode, the ResourceManager,
# a NodeManager and the JobHistory server in the foreground, TeraGen, TeraSort and
# TeraValidate through the benchmark runner on that YARN, and stop-nodemanager with a
# task running.
#
# Builds the image if needed. Starts the local Ceph if it is not running and then
# stops it again (HCO_KEEP_CEPH=1 leaves it running). Uses the contract's ports
# (8030-8033, 8088, 8040-8042, 13562, 10020, 10033, 19888) and HDFS's (8020, 9870,
# 9864, 9866, 9867) on this machine, and fails at once if one is taken. Ends with a line "N passed, N failed". HCO_KEEP_TEST_WORK=1
# keeps the daemons' logs and the unpacked image.
set -Eeuo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=../ceph/env.sh
source "${ROOT}/hack/ceph/env.sh"

GOLDEN="${ROOT}/internal/hadoop/testdata/external-hostnetwork"
PORTS=(8030 8031 8032 8033 8088 8040 8041 8042 13562 10020 10033 19888 8020 9870 9864 9866 9867)

# ---------------------------------------------------------------------------------
# Inside a private mount namespace: mounts, daemons and checks.
# ---------------------------------------------------------------------------------
if [[ "${1:-}" == --inside ]]; then
	WORK="$2"
	R="${WORK}/bundle/rootfs"
	TEST_ROOT="$(cat "${WORK}/test-root")"
	TEST_PARENT="${TEST_ROOT%/*}"
	passed=0 failed=0
	declare -A daemons=()

	pass() {
		passed=$((passed + 1))
		echo "PASS $*"
	}
	fail() {
		failed=$((failed + 1))
		echo "FAIL $*"
	}
	# check NAME COMMAND...: passes when COMMAND succeeds.
	check() {
		local name="$1"
		shift
		if "$@"; then pass "${name}"; else fail "${name}"; fi
	}

	# The image's environment (config.json of the unpacked bundle) and what the
	# operator adds to every container.
	mapfile -t IMAGE_ENV < <(jq -r '.process.env[] | select(startswith("TERM=") | not)' "${WORK}/bundle/config.json")
	IMAGE_CWD="$(jq -r .process.cwd "${WORK}/bundle/config.json")"
	POD_ENV=(POD_NAMESPACE=hco-image-test HADOOP_LOG_DIR=/var/log/hadoop HADOOP_HEAPSIZE_MAX=512m)

	# in_image [NAME=VALUE]... COMMAND...: runs COMMAND in the image as the hadoop user
	# (IMAGE_USER=0:0 for root), for at most IMAGE_TIMEOUT seconds (0: no limit): a
	# Hadoop client whose server is gone retries for many minutes.
	in_image() {
		timeout --kill-after=10 "${IMAGE_TIMEOUT:-300}" \
			chroot --userspec="${IMAGE_USER:-1000:1000}" "${R}" /usr/bin/env -i -C "${IMAGE_CWD}" \
			"${IMAGE_ENV[@]}" "${POD_ENV[@]}" "$@"
	}

	echo "== assemble.sh as images/hadoop/Dockerfile runs it"
	# In the Debian base, on its whole root file system, rather than into a layer of
	# its own as build.sh runs it: both must give the same files.
	docker_way() {
		local d="${WORK}/dockerfile-bundle/rootfs" paths=(opt var/log/hadoop var/lib/hadoop-yarn etc/ceph home/hadoop)
		umoci unpack --image "$(echo "${IMAGES_OUT}"/hadoop/base-*/layout):base" "${WORK}/dockerfile-bundle" >/dev/null
		mkdir -p "${d}/tmp/stage"
		cp -R "${ROOT}/images/hadoop/root" "${d}/tmp/stage/root"
		cp -al "${IMAGES_OUT}/hadoop/jars" "${d}/tmp/stage/jars"
		cp -al "${IMAGES_OUT}/hadoop/connector" "${d}/tmp/stage/connector"
		cp "${ROOT}/internal/benchmark/runner/run-benchmark" "${ROOT}/images/hadoop/assemble.sh" "${d}/tmp/stage/"
		chroot "${d}" /tmp/stage/assemble.sh /tmp/stage / 2>/dev/null
		rm -rf "${d}/tmp/stage"
		tree() { (cd "$1" && find "${paths[@]}" -printf '%p %m %u %g %y %l\n' | LC_ALL=C sort); }
		diff <(tree "${d}") <(tree "${R}") && diff -r "${d}/opt" "${R}/opt" &&
			diff "${d}/etc/passwd" "${R}/etc/passwd" && diff "${d}/etc/group" "${R}/etc/group"
	}
	check "the same files, owners, modes and links as the image" docker_way
	rm -rf "${WORK}/dockerfile-bundle"

	# The root file system read-only, the volumes writable by the hadoop user as the
	# kubelet makes them (fsGroup), the client config readable by the group only, and
	# the node's name resolution, which the kubelet mounts over files it creates.
	touch "${R}/etc/hosts" "${R}/etc/resolv.conf"
	mount --bind "${R}" "${R}"
	mount -o remount,bind,ro "${R}"
	mount -t proc proc "${R}/proc"
	mount --rbind /dev "${R}/dev"
	for v in tmp log yarn ceph; do
		mkdir -p "${WORK}/volumes/${v}"
	done
	chown 1000:1000 "${WORK}/volumes/tmp" "${WORK}/volumes/log" "${WORK}/volumes/yarn"
	chmod 1777 "${WORK}/volumes/tmp"
	mount --bind "${WORK}/volumes/tmp" "${R}/tmp"
	mount --bind "${WORK}/volumes/log" "${R}/var/log/hadoop"
	mount --bind "${WORK}/volumes/yarn" "${R}/var/lib/hadoop-yarn"
	mount --bind "${WORK}/volumes/ceph" "${R}/etc/ceph"
	for f in core-site.xml yarn-site.xml mapred-site.xml hadoop-env.sh; do
		mount --bind -o ro "${WORK}/conf/${f}" "${R}/opt/hadoop/etc/hadoop/${f}"
	done
	for f in hosts resolv.conf; do
		mount --bind -o ro "/etc/${f}" "${R}/etc/${f}"
	done

	stop_daemons() {
		local name pid
		for name in "${!daemons[@]}"; do
			pid="${daemons[${name}]}"
			kill -TERM "${pid}" 2>/dev/null || continue
			timeout 30 tail --pid="${pid}" -f /dev/null || kill -KILL "${pid}" 2>/dev/null || true
		done
	}
	trap 'stop_daemons; _cleanup' EXIT
	trap 'exit 143' TERM INT

	# start NAME [NAME=VALUE]... COMMAND...: a daemon in the background, logging to
	# WORK/NAME.log.
	start() {
		local name="$1"
		shift
		{
			trap - ERR
			exec chroot --userspec=1000:1000 "${R}" /usr/bin/env -i -C "${IMAGE_CWD}" \
				"${IMAGE_ENV[@]}" "${POD_ENV[@]}" "POD_NAME=image-test-${name}" "$@"
		} >"${WORK}/${name}.log" 2>&1 &
		daemons[${name}]=$!
	}

	# serves NAME PORT PATH: waits (at most two minutes) until the daemon NAME answers
	# HTTP 200 on 127.0.0.1:PORT/PATH, and stops waiting when it exits.
	serves() {
		local name="$1" port="$2" path="$3" i
		for ((i = 0; i < 240; i++)); do
			if ! kill -0 "${daemons[${name}]}" 2>/dev/null; then
				echo "${name} exited; the end of its log:"
				tail -n 30 "${WORK}/${name}.log"
				return 1
			fi
			if curl -fsS -o "${WORK}/${name}.http" "http://127.0.0.1:${port}${path}" 2>/dev/null; then
				return 0
			fi
			sleep 0.5
		done
		echo "${name} does not answer on ${port}${path}; the end of its log:"
		tail -n 30 "${WORK}/${name}.log"
		return 1
	}

	# proc_pids PATTERN: processes whose command line matches PATTERN.
	proc_pids() {
		local c pid
		for c in /proc/[0-9]*/cmdline; do
			pid="${c#/proc/}" pid="${pid%/cmdline}"
			{ tr '\0' ' ' <"${c}" | grep -q -- "$1"; } 2>/dev/null && echo "${pid}"
		done
		return 0
	}

	# stopped NAME SECONDS: SIGTERM to daemon NAME, which must exit within SECONDS.
	stopped() {
		local pid="${daemons[$1]}"
		kill -TERM "${pid}"
		if timeout "$2" tail --pid="${pid}" -f /dev/null; then
			unset "daemons[$1]"
			return 0
		fi
		return 1
	}

	# report FILE KEY: a value of the runner's JSON report.
	report() { jq -r "$2" "${WORK}/volumes/tmp/$1"; }

	echo "== the image contract"
	contract_paths=(
		/opt/hadoop/bin/hadoop /opt/hadoop/bin/hdfs /opt/hadoop/bin/yarn /opt/hadoop/bin/mapred
		/opt/hadoop-ceph/bin/start-resourcemanager /opt/hadoop-ceph/bin/start-nodemanager
		/opt/hadoop-ceph/bin/start-jobhistory /opt/hadoop-ceph/bin/stop-nodemanager
		/opt/hadoop-ceph/bin/run-benchmark
	)
	for p in "${contract_paths[@]}"; do
		check "executable ${p}" in_image test -x "${p}"
	done
	for f in core-site.xml yarn-site.xml mapred-site.xml hdfs-site.xml hadoop-env.sh log4j.properties capacity-scheduler.xml; do
		check "file /opt/hadoop/etc/hadoop/${f}" test -f "${R}/opt/hadoop/etc/hadoop/${f}"
	done
	check "run-benchmark is internal/benchmark/runner/run-benchmark" \
		cmp "${R}/opt/hadoop-ceph/bin/run-benchmark" "${ROOT}/internal/benchmark/runner/run-benchmark"
	for j in mapreduce/hadoop-mapreduce-examples.jar mapreduce/hadoop-mapreduce-client-jobclient-tests.jar \
		common/lib/libcephfs.jar; do
		check "jar /opt/hadoop/share/hadoop/${j}" in_image test -f "/opt/hadoop/share/hadoop/${j}"
	done
	connector() { compgen -G "${R}/opt/hadoop/share/hadoop/common/lib/cephfs-hadoop-*.jar" >/dev/null; }
	check "the connector in common/lib" connector
	check "user hadoop is uid 1000" test "$(in_image id -un)" = hadoop
	java17() { in_image bash -c '"${JAVA_HOME}/bin/java" -version 2>&1' | grep -q 'version "17'; }
	check "JAVA_HOME is a JDK 17" java17
	check "the libcephfs JNI library is on Java's default path" \
		test -e "${R}/usr/lib/jni/libcephfs_jni.so"
	check "bash, awk, grep, sed, setsid, ip and GNU date and head" \
		in_image bash -c 'awk "BEGIN{}" && echo x | grep -q x && echo x | sed s/x/y/ >/dev/null && command -v setsid ip >/dev/null && [[ "$(date +%s%3N)" =~ ^[0-9]{13}$ ]] && [ "$(head -c 3 /dev/zero | wc -c)" = 3 ]'
	# YARN's application class path and the operator's mapreduce.application.classpath
	# must name every jar once: two versions of one artifact make class loading depend
	# on directory order.
	dupes="$(cd "${R}/opt/hadoop/share/hadoop" &&
		for jar in {common,hdfs,yarn,mapreduce}{,/lib}/*.jar; do
			[[ -e "${jar}" ]] || continue
			[[ -L "${jar}" && "${jar}" == mapreduce/* ]] || basename "${jar}"
		done | sed -E 's/-[0-9][^-]*(-|\.jar$)/\1/' | sort | uniq -d)"
	check "every artifact once on the containers' class path${dupes:+ (twice: ${dupes//$'\n'/ })}" test -z "${dupes}"
	read_only() { ! touch "${R}/opt/x" 2>/dev/null; }
	check "the root file system is read-only" read_only
	version_is() { [[ "$(in_image "$1" version 2>/dev/null | head -1)" == "Hadoop $2" ]]; }
	check "hadoop version is 3.4.2" version_is hadoop 3.4.2
	check "hdfs version is 3.4.2" version_is hdfs 3.4.2
	check "yarn version is 3.4.2" version_is yarn 3.4.2
	check "mapred version is 3.4.2" version_is mapred 3.4.2
	code=0
	in_image run-benchmark >/dev/null 2>&1 || code=$?
	check "run-benchmark without arguments exits 64 (got ${code})" test "${code}" = 64
	code=0
	in_image HADOOP_DATA_INTERFACE=hco-no-such-if0 start-nodemanager >"${WORK}/nm-bad-if.log" 2>&1 || code=$?
	check "start-nodemanager fails when HADOOP_DATA_INTERFACE has no address" \
		grep -q 'has no IPv4 address' "${WORK}/nm-bad-if.log"
	check "... with a non-zero status (${code})" test "${code}" != 0

	echo "== CephFS through the connector"
	# Like a StorageBackend's root, the parent of the test roots is the administrator's
	# to make and hand over; the image's own hadoop command does it as root.
	IMAGE_USER=0:0 in_image hadoop fs -D ceph.root.dir=/ -mkdir -p "/${TEST_PARENT}" >/dev/null 2>&1 || true
	IMAGE_USER=0:0 in_image hadoop fs -D ceph.root.dir=/ -chmod 1777 "/${TEST_PARENT}" >/dev/null 2>&1 || true
	check "hadoop fs -mkdir of the test root ${TEST_ROOT}" \
		in_image hadoop fs -D ceph.root.dir=/ -mkdir -p "/${TEST_ROOT}"
	check "hadoop fs -ls ceph:///" in_image hadoop fs -ls ceph:/// >"${WORK}/ls.out" 2>"${WORK}/ls.err"
	printf 'line one\nline two\n' >"${WORK}/volumes/tmp/hello.txt"
	check "hadoop fs -put" in_image hadoop fs -put -f /tmp/hello.txt /hello.txt 2>"${WORK}/put.err"
	in_image hadoop fs -cat /hello.txt >"${WORK}/cat.out" 2>"${WORK}/cat.err" || true
	check "hadoop fs -cat prints the file and nothing else (no JNI banner)" cmp "${WORK}/cat.out" "${WORK}/volumes/tmp/hello.txt"

	echo "== HDFS: a NameNode and a DataNode"
	# Their own configuration directory, in the writable /tmp: the operator's files
	# name no HDFS. HDFS's defaults otherwise, on loopback.
	hdfs_conf="${WORK}/volumes/tmp/hdfs-conf"
	mkdir -p "${hdfs_conf}"
	cp "${WORK}/conf/hadoop-env.sh" "${R}/opt/hadoop/etc/hadoop/log4j.properties" "${hdfs_conf}/"
	cat >"${hdfs_conf}/core-site.xml" <<-'XML'
		<configuration>
		  <property><name>fs.defaultFS</name><value>hdfs://127.0.0.1:8020</value></property>
		</configuration>
	XML
	cat >"${hdfs_conf}/hdfs-site.xml" <<-'XML'
		<configuration>
		  <property><name>dfs.namenode.name.dir</name><value>file:///tmp/hdfs/name</value></property>
		  <property><name>dfs.datanode.data.dir</name><value>file:///tmp/hdfs/data</value></property>
		  <property><name>dfs.namenode.http-address</name><value>127.0.0.1:9870</value></property>
		  <property><name>dfs.datanode.address</name><value>127.0.0.1:9866</value></property>
		  <property><name>dfs.datanode.http.address</name><value>127.0.0.1:9864</value></property>
		  <property><name>dfs.datanode.ipc.address</name><value>127.0.0.1:9867</value></property>
		  <property><name>dfs.replication</name><value>1</value></property>
		</configuration>
	XML
	chown -R 1000:1000 "${hdfs_conf}"
	in_hdfs() { in_image HADOOP_CONF_DIR=/tmp/hdfs-conf "$@"; }
	format() { in_hdfs hdfs namenode -format -nonInteractive -clusterid image-test >"${WORK}/namenode-format.log" 2>&1; }
	check "hdfs namenode -format" format
	start namenode HADOOP_CONF_DIR=/tmp/hdfs-conf HADOOP_HEAPSIZE_MAX=256 hdfs namenode
	# /isActive answers 200 only with the web application, which Maven Central's
	# hadoop-hdfs jar leaves out (pom.xml).
	check "NameNode serves /isActive on 9870" serves namenode 9870 /isActive
	check "NameNode logs to standard output" grep -q 'NameNode' "${WORK}/namenode.log"
	start datanode HADOOP_CONF_DIR=/tmp/hdfs-conf HADOOP_HEAPSIZE_MAX=256 hdfs datanode
	check "DataNode serves its web application on 9864" serves datanode 9864 /datanode.html
	live=0
	for ((i = 0; i < 60; i++)); do
		if IMAGE_TIMEOUT=30 in_hdfs hdfs dfsadmin -report 2>/dev/null | grep -q '^Live datanodes (1)'; then
			live=1
			break
		fi
		sleep 1
	done
	check "hdfs dfsadmin -report counts one live DataNode" test "${live}" = 1
	# The bean appears a moment after /isActive answers, once the NameNode has started.
	nn_active() { curl -fsS 'http://127.0.0.1:9870/jmx?qry=Hadoop:service=NameNode,name=NameNodeStatus' | grep -q '"State" : "active"'; }
	check "NameNode's JMX says State active" nn_active
	check "hdfs dfs -put" in_hdfs hdfs dfs -put /tmp/hello.txt /hello.txt 2>"${WORK}/hdfs-put.err"
	in_hdfs hdfs dfs -cat /hello.txt >"${WORK}/hdfs-cat.out" 2>/dev/null || true
	check "hdfs dfs -cat prints the file" cmp "${WORK}/hdfs-cat.out" "${WORK}/volumes/tmp/hello.txt"
	check "hdfs getconf -confKey dfs.replication" test "$(in_hdfs hdfs getconf -confKey dfs.replication 2>/dev/null)" = 1
	check "DataNode stops on SIGTERM" stopped datanode 60
	check "NameNode stops on SIGTERM" stopped namenode 60

	echo "== daemons"
	start resourcemanager /opt/hadoop-ceph/bin/start-resourcemanager
	check "ResourceManager serves /ws/v1/cluster/info on 8088" serves resourcemanager 8088 /ws/v1/cluster/info
	check "ResourceManager logs to standard output" grep -q 'ResourceManager' "${WORK}/resourcemanager.log"
	start nodemanager HADOOP_DATA_INTERFACE=lo /opt/hadoop-ceph/bin/start-nodemanager
	check "NodeManager serves /ws/v1/node/info on 8042" serves nodemanager 8042 /ws/v1/node/info
	check "start-nodemanager advertises the data interface's address" \
		grep -q 'advertising 127.0.0.1 of lo' "${WORK}/nodemanager.log"
	start jobhistory /opt/hadoop-ceph/bin/start-jobhistory
	check "JobHistory server serves /ws/v1/history/info on 19888" serves jobhistory 19888 /ws/v1/history/info
	registered=0
	for ((i = 0; i < 60; i++)); do
		if IMAGE_TIMEOUT=30 in_image yarn node -list 2>/dev/null | grep -q 'RUNNING'; then
			registered=1
			break
		fi
		sleep 1
	done
	check "yarn node -list shows the NodeManager RUNNING" test "${registered}" = 1

	echo "== MapReduce on YARN through the runner"
	examples=/opt/hadoop/share/hadoop/mapreduce/hadoop-mapreduce-examples.jar
	small=(-Dyarn.app.mapreduce.am.resource.mb=768 -Dmapreduce.map.memory.mb=512 -Dmapreduce.reduce.memory.mb=512)
	run_stage() {
		local stage="$1"
		shift
		IMAGE_TIMEOUT=600 in_image "POD_NAME=image-test-${stage}" BENCHMARK_TERMINATION_LOG="/tmp/${stage}.json" \
			run-benchmark exec --stage "${stage}" "$@" >"${WORK}/${stage}.log" 2>&1
	}
	stage_ok() {
		if [[ "$(report "$1.json" .exit)" == 0 && "$(report "$1.json" '.jobs | length')" -ge 1 ]]; then
			return 0
		fi
		echo "$1's report: $(cat "${WORK}/volumes/tmp/$1.json" 2>/dev/null)"
		tail -n 30 "${WORK}/$1.log"
		return 1
	}
	run_stage teragen -- hadoop jar "${examples}" teragen "${small[@]}" -Dmapreduce.job.maps=2 20000 /bench/teragen || true
	check "TeraGen on YARN" stage_ok teragen
	run_stage terasort --require-path /bench/teragen -- \
		hadoop jar "${examples}" terasort "${small[@]}" -Dmapreduce.job.reduces=2 /bench/teragen /bench/terasort || true
	check "TeraSort on YARN (shuffle)" stage_ok terasort
	run_stage teravalidate --require-path /bench/terasort --validate-report /bench/teravalidate -- \
		hadoop jar "${examples}" teravalidate "${small[@]}" /bench/terasort /bench/teravalidate || true
	check "TeraValidate on YARN" stage_ok teravalidate
	check "the runner read TeraValidate's report (checksum)" \
		test "$(report teravalidate.json '.validate[0] // ""' | cut -f1)" = checksum
	ceph_counters() { report terasort.json '.counters[]' | grep -q '^CEPH: Number of bytes written='; }
	check "TeraSort's counters count CephFS bytes" ceph_counters

	echo "== stop-nodemanager with a task running"
	jobclient=/opt/hadoop/share/hadoop/mapreduce/hadoop-mapreduce-client-jobclient-tests.jar
	start sleep hadoop jar "${jobclient}" sleep "${small[@]}" -m 1 -r 0 -mt 600000
	task=""
	for ((i = 0; i < 240; i++)); do
		task="$(proc_pids 'org.apache.hadoop.mapred.YarnChild')"
		[[ -n "${task}" ]] && break
		sleep 0.5
	done
	check "a sleep task runs in a YARN container" test -n "${task}"
	tracked="$(proc_pids 'org.apache.hadoop.yarn.server.nodemanager.NodeManager\|MRAppMaster\|YarnChild' | tr '\n' ' ')"
	start_s=${SECONDS}
	stop_ok=0
	IMAGE_TIMEOUT=120 in_image /opt/hadoop-ceph/bin/stop-nodemanager >"${WORK}/stop-nodemanager.log" 2>&1 && stop_ok=1
	left=""
	for pid in ${tracked}; do
		if [[ -e "/proc/${pid}" ]] && ! grep -q '^State:[[:space:]]*Z' "/proc/${pid}/status" 2>/dev/null; then
			left+="${pid} "
		fi
	done
	check "stop-nodemanager returned ($((SECONDS - start_s)) s) after the NodeManager, AM and task (${tracked}) exited${left:+; left: ${left}}" \
		test "${stop_ok}" = 1 -a -z "${left}"
	sed 's/^/    /' "${WORK}/stop-nodemanager.log"
	unset "daemons[nodemanager]"
	app="$(grep -o 'application_[0-9]*_[0-9]*' "${WORK}/sleep.log" | head -1)" || true
	[[ -n "${app}" ]] && IMAGE_TIMEOUT=60 in_image yarn application -kill "${app}" >/dev/null 2>&1 || true
	stopped sleep 30 || true

	echo "== stopping"
	check "ResourceManager stops on SIGTERM" stopped resourcemanager 60
	check "JobHistory server stops on SIGTERM" stopped jobhistory 60
	in_image hadoop fs -D ceph.root.dir=/ -rm -r -f -skipTrash "/${TEST_ROOT}" >/dev/null 2>&1 || true

	echo "${passed} passed, ${failed} failed"
	exit $((failed == 0 ? 0 : 1))
fi

# ---------------------------------------------------------------------------------
# Outside: the image, Ceph, the configuration; then the checks in a mount namespace.
# ---------------------------------------------------------------------------------
ensure_debs umoci jq curl util-linux
for port in "${PORTS[@]}"; do
	if (exec 3<>"/dev/tcp/127.0.0.1/${port}") 2>/dev/null; then
		die "port ${port} is in use: another Hadoop daemon runs on this machine"
	fi
done

"${HCO_IMAGES_DIR}/build.sh" hadoop
started_ceph=0
if ! "${ROOT}/hack/ceph/up.sh" --check >/dev/null 2>&1; then
	started_ceph=1
	"${ROOT}/hack/ceph/up.sh" >/dev/null
fi
stop_ceph() {
	if [[ "${started_ceph}" == 1 && "${HCO_KEEP_CEPH:-0}" != 1 ]]; then
		"${ROOT}/hack/ceph/down.sh" >/dev/null || true
	fi
}

mk_tmpdir image-test
WORK="${HCO_TMPDIR}"
if [[ "${HCO_KEEP_TEST_WORK:-0}" == 1 ]]; then
	# shellcheck disable=SC2034 # read by hack/tools/lib.sh's exit trap
	HCO_CLEANUP=()
	log "keeping the daemons' logs, the configuration and the unpacked image in ${WORK}"
fi
chmod 0755 "${WORK}"
trap 'stop_ceph; _cleanup' EXIT
trap 'exit 143' TERM INT

step "unpacking $(image_ref hadoop)"
mkdir -p "${WORK}/layout"
tar -xf "$(image_archive hadoop)" -C "${WORK}/layout"
umoci unpack --image "${WORK}/layout:$(image_tag hadoop)" "${WORK}/bundle" >/dev/null
rm -rf "${WORK}/layout"

# What the client config Secret holds (internal/cephconf): the monitors and the key.
mkdir -p "${WORK}/volumes/ceph"
printf '[global]\nmon_host = %s\n' "${CEPH_MON_HOST}" >"${WORK}/volumes/ceph/ceph.conf"
cp "${CEPH_CLIENT_KEYRING}" "${WORK}/volumes/ceph/keyring"
chown root:1000 "${WORK}/volumes/ceph"/*
chmod 0440 "${WORK}/volumes/ceph"/*

# set_property FILE NAME VALUE replaces a value in a configuration file the operator
# rendered (one <name> line, its <value> on the next).
set_property() {
	awk -v name="$2" -v value="$3" '
		found && /<value>/ { sub(/<value>.*<\/value>/, "<value>" value "</value>"); found = 0; done = 1 }
		index($0, "<name>" name "</name>") { found = 1 }
		{ print }
		END { if (!done) { print "no property " name > "/dev/stderr"; exit 1 } }' "$1" >"$1.new"
	mv "$1.new" "$1"
}
TEST_ROOT="hco-image-tests/run-$$"
echo "${TEST_ROOT}" >"${WORK}/test-root"
mkdir -p "${WORK}/conf"
for f in core-site.xml yarn-site.xml mapred-site.xml hadoop-env.sh; do
	[[ -f "${GOLDEN}/${f}" ]] || die "no ${GOLDEN}/${f}: the operator's rendered files moved"
	cp "${GOLDEN}/${f}" "${WORK}/conf/${f}"
done
set_property "${WORK}/conf/core-site.xml" ceph.root.dir "/${TEST_ROOT}"
set_property "${WORK}/conf/core-site.xml" ceph.auth.id "${CEPH_CLIENT_ID}"
set_property "${WORK}/conf/core-site.xml" ceph.conf.options "client_fs=${CEPH_FS_NAME}"
set_property "${WORK}/conf/yarn-site.xml" yarn.resourcemanager.hostname 127.0.0.1
set_property "${WORK}/conf/yarn-site.xml" yarn.nodemanager.resource.memory-mb 4096
set_property "${WORK}/conf/yarn-site.xml" yarn.nodemanager.resource.cpu-vcores 4
set_property "${WORK}/conf/yarn-site.xml" yarn.scheduler.maximum-allocation-mb 4096
set_property "${WORK}/conf/yarn-site.xml" yarn.scheduler.maximum-allocation-vcores 4
chmod 0644 "${WORK}/conf"/*

start=${SECONDS}
rc=0
unshare --mount --propagation private "${BASH_SOURCE[0]}" --inside "${WORK}" || rc=$?
log "image test took $(fmt_secs $((SECONDS - start)))"
exit "${rc}"
