# shellcheck shell=bash
# Sourced by bin/hadoop, bin/hdfs, bin/yarn and bin/mapred. Maven Central has Hadoop's
# jars but not the shell scripts of its binary distribution, so this gives a JVM what
# those scripts would: the configuration (hadoop-env.sh included), the class path, the
# heap, HADOOP_OPTS and the log settings. Only the variables below are read; a daemon
# always runs in the foreground and logs to the console.

export HADOOP_HOME="${HADOOP_HOME:-/opt/hadoop}"
export HADOOP_CONF_DIR="${HADOOP_CONF_DIR:-${HADOOP_HOME}/etc/hadoop}"
export HADOOP_COMMON_HOME="${HADOOP_COMMON_HOME:-${HADOOP_HOME}}"
export HADOOP_HDFS_HOME="${HADOOP_HDFS_HOME:-${HADOOP_HOME}}"
export HADOOP_YARN_HOME="${HADOOP_YARN_HOME:-${HADOOP_HOME}}"
export HADOOP_MAPRED_HOME="${HADOOP_MAPRED_HOME:-${HADOOP_HOME}}"

if [[ -f "${HADOOP_CONF_DIR}/hadoop-env.sh" ]]; then
	# shellcheck source=/dev/null
	. "${HADOOP_CONF_DIR}/hadoop-env.sh"
fi

export HADOOP_LOG_DIR="${HADOOP_LOG_DIR:-/var/log/hadoop}"
if [[ -z "${JAVA_HOME:-}" || ! -x "${JAVA_HOME}/bin/java" ]]; then
	echo "$(basename "$0"): JAVA_HOME ('${JAVA_HOME:-}') does not hold a Java runtime" >&2
	exit 1
fi

# hadoop_classpath prints the class path in Hadoop's order: the configuration
# directory first, so its files win over the defaults inside the jars.
hadoop_classpath() {
	local cp="${HADOOP_CONF_DIR}"
	cp+=":${HADOOP_COMMON_HOME}/share/hadoop/common/lib/*:${HADOOP_COMMON_HOME}/share/hadoop/common/*"
	cp+=":${HADOOP_HDFS_HOME}/share/hadoop/hdfs/lib/*:${HADOOP_HDFS_HOME}/share/hadoop/hdfs/*"
	cp+=":${HADOOP_YARN_HOME}/share/hadoop/yarn/lib/*:${HADOOP_YARN_HOME}/share/hadoop/yarn/*"
	cp+=":${HADOOP_MAPRED_HOME}/share/hadoop/mapreduce/lib/*:${HADOOP_MAPRED_HOME}/share/hadoop/mapreduce/*"
	if [[ -n "${HADOOP_CLASSPATH:-}" ]]; then
		if [[ -n "${HADOOP_USER_CLASSPATH_FIRST:-}" ]]; then
			cp="${HADOOP_CLASSPATH}:${cp}"
		else
			cp+=":${HADOOP_CLASSPATH}"
		fi
	fi
	echo "${cp}"
}

# hadoop_print_classpath [--glob] prints the class path, with --glob each wildcard
# replaced by the jars it matches.
hadoop_print_classpath() {
	local entry entries=() out=() jar
	if [[ "${1:-}" != "--glob" ]]; then
		hadoop_classpath
		return
	fi
	IFS=: read -ra entries <<<"$(hadoop_classpath)"
	for entry in "${entries[@]}"; do
		if [[ "${entry}" == */\* ]]; then
			for jar in "${entry%\*}"*.jar; do
				[[ -e "${jar}" ]] && out+=("${jar}")
			done
		else
			out+=("${entry}")
		fi
	done
	(IFS=:; echo "${out[*]}")
}

hadoop_print_envvars() {
	local v
	for v in JAVA_HOME HADOOP_HOME HADOOP_CONF_DIR HADOOP_COMMON_HOME HADOOP_HDFS_HOME \
		HADOOP_YARN_HOME HADOOP_MAPRED_HOME HADOOP_LOG_DIR; do
		echo "${v}='${!v}'"
	done
}

# hadoop_heap_option VALUE FLAG prints FLAG with VALUE, which like in Hadoop 3 is in
# MiB when it has no unit ("1024", "1024m", "1g").
hadoop_heap_option() {
	if [[ "$1" =~ ^[0-9]+$ ]]; then
		echo "$2$1m"
	else
		echo "$2$1"
	fi
}

# hadoop_exec daemon|client NAME OPTS_VARIABLE CLASS [ARG]... replaces the shell with
# the JVM running CLASS. NAME names the log file a daemon would write; OPTS_VARIABLE
# names the variable with this command's own JVM options (YARN_RESOURCEMANAGER_OPTS,
# HADOOP_CLIENT_OPTS, ...), which come after HADOOP_OPTS and so win.
hadoop_exec() {
	local mode="$1" name="$2" opts_var="$3" class="$4" user opts=() extra=()
	shift 4
	user="$(id -un 2>/dev/null || id -u)"
	opts+=(-Djava.net.preferIPv4Stack=true)
	if [[ -n "${HADOOP_HEAPSIZE_MAX:-}" ]]; then
		opts+=("$(hadoop_heap_option "${HADOOP_HEAPSIZE_MAX}" -Xmx)")
	fi
	if [[ -n "${HADOOP_HEAPSIZE_MIN:-}" ]]; then
		opts+=("$(hadoop_heap_option "${HADOOP_HEAPSIZE_MIN}" -Xms)")
	fi
	# Words, like Hadoop's scripts split them: an option cannot contain a space.
	read -ra extra <<<"${HADOOP_OPTS:-}"
	opts+=("${extra[@]}")
	read -ra extra <<<"${!opts_var:-}"
	opts+=("${extra[@]}")
	local log_file="hadoop-${user}-${name}.log"
	opts+=(
		"-Dhadoop.log.dir=${HADOOP_LOG_DIR}" "-Dhadoop.log.file=${log_file}"
		"-Dyarn.log.dir=${HADOOP_LOG_DIR}" "-Dyarn.log.file=${log_file}"
		"-Dhadoop.home.dir=${HADOOP_HOME}" "-Dyarn.home.dir=${HADOOP_YARN_HOME}"
		"-Dhadoop.id.str=${user}" "-Dhadoop.policy.file=hadoop-policy.xml"
		"-Dhadoop.root.logger=${HADOOP_ROOT_LOGGER:-INFO,console}"
		"-Dyarn.root.logger=${HADOOP_ROOT_LOGGER:-INFO,console}"
		"-Dhadoop.security.logger=${HADOOP_SECURITY_LOGGER:-INFO,NullAppender}"
	)
	if [[ "${mode}" == daemon ]]; then
		# A daemon out of heap is better restarted by the kubelet than left running
		# with threads that died.
		opts+=(-Dhadoop.console.target=System.out -XX:+ExitOnOutOfMemoryError)
	else
		opts+=(-Dhadoop.console.target=System.err)
	fi
	exec "${JAVA_HOME}/bin/java" "${opts[@]}" -cp "$(hadoop_classpath)" "${class}" "$@"
}

# hadoop_is_classname WORD: a command word that names a Java class (it has a dot).
hadoop_is_classname() {
	[[ "$1" == *.* && "$1" != -* ]]
}
