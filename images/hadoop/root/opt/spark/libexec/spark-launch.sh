# shellcheck shell=bash
# Sourced by bin/spark-submit, bin/spark-shell and bin/spark-class. Maven Central has
# Spark's jars but not the scripts of its binary distribution, so this gives Spark's
# launcher library (org.apache.spark.launcher.Main, which reads spark-defaults.conf and
# spark-submit's options and prints the JVM's command) what those scripts would, on the
# image's Hadoop: this Spark has no Hadoop jars of its own.

# JAVA_HOME, HADOOP_CONF_DIR (the client ConfigMap in a client pod) with hadoop-env.sh,
# and Hadoop's class path, as the hadoop command has them.
# shellcheck source=../../hadoop/libexec/hadoop-launch.sh
. "${HADOOP_HOME:-/opt/hadoop}/libexec/hadoop-launch.sh"

export SPARK_HOME="${SPARK_HOME:-/opt/spark}"
# The cluster's client ConfigMap carries spark-defaults.conf beside Hadoop's files, so a
# pod that mounts it as HADOOP_CONF_DIR has Spark's settings too.
export SPARK_CONF_DIR="${SPARK_CONF_DIR:-${HADOOP_CONF_DIR}}"
# Spark on YARN finds the ResourceManager through this directory's yarn-site.xml.
export YARN_CONF_DIR="${YARN_CONF_DIR:-${HADOOP_CONF_DIR}}"
# The launcher cannot tell the Scala version from a jars directory alone.
export SPARK_SCALA_VERSION=2.12
# Spark's Hadoop-free layout: Hadoop's class path, with the CephFS connector and
# libcephfs.jar, after Spark's own jars.
SPARK_DIST_CLASSPATH="$(hadoop_classpath)"
export SPARK_DIST_CLASSPATH

# spark_exec CLASS [ARG]... replaces the shell with the JVM the launcher builds for
# CLASS. The launcher first prints its own messages, a line each, then an empty line
# (a NUL and a newline), then the command's words, each ended by a NUL. This adds the
# launcher's exit status as a last word, so that a launcher that failed (a bad option,
# its message already on stderr) is not mistaken for a command.
spark_exec() {
	local cmd=() word in_command=false launcher_opts=() status
	read -ra launcher_opts <<<"${SPARK_LAUNCHER_OPTS:-}"
	while true; do
		if [[ "${in_command}" == false ]]; then
			# At the end of the output without the empty line, word is the status.
			IFS= read -r word || { cmd=("${word}"); break; }
			if [[ -z "${word}" ]]; then
				in_command=true
			else
				echo "${word}" >&2
			fi
		else
			IFS= read -r -d '' word || break
			cmd+=("${word}")
		fi
	done < <(
		"${JAVA_HOME}/bin/java" -Xmx128m "${launcher_opts[@]}" -cp "${SPARK_HOME}/jars/*" \
			org.apache.spark.launcher.Main "$@"
		printf '%d\0' $?
	)
	status="${cmd[${#cmd[@]}-1]:-}"
	unset 'cmd[${#cmd[@]}-1]'
	if [[ "${status}" != 0 ]]; then
		exit "${status:-1}"
	fi
	if [[ ${#cmd[@]} == 0 ]]; then
		echo "$(basename "$0"): Spark's launcher printed no command" >&2
		exit 1
	fi
	exec "${cmd[@]}"
}
