package hadoop

import (
	"maps"
	"slices"
	"strings"
)

// OwnedHadoopEnv are the hadoop-env.sh variables a user cannot set. The CEL rule on
// spec.config.hadoopEnv lists the same names.
var OwnedHadoopEnv = []string{"HADOOP_CONF_DIR"}

const hadoopEnvHeader = `# Rendered by hadoop-ceph-operator. Edit spec.config.hadoopEnv of the HadoopCluster
# instead: changes to this file are overwritten.
`

// HadoopEnv is hadoop-env.sh: the user's variables sorted by name, then the JDK 17
// options appended to HADOOP_OPTS and, in the ResourceManager's pod, the scheduler's
// directory put first on the classpath, last so that overrides keep them.
func HadoopEnv(in Input) string {
	var b strings.Builder
	b.WriteString(hadoopEnvHeader)
	env := in.Cluster.Spec.Config.HadoopEnv
	if len(env) > 0 {
		b.WriteString("\n")
	}
	for _, name := range slices.Sorted(maps.Keys(env)) {
		b.WriteString("export " + name + "=" + doubleQuoted(env[name]) + "\n")
	}
	b.WriteString("\n# Hadoop's daemons and commands on JDK 17 reach into JDK internals by reflection.\n")
	b.WriteString(`export HADOOP_OPTS="${HADOOP_OPTS:-} ` + jdk17Opens + "\"\n")
	b.WriteString(schedulerClasspath)
	return b.String()
}

// doubleQuoted quotes s for a POSIX shell so that $VAR and ${VAR} still expand but
// nothing else is interpreted: no command substitution, no word splitting.
func doubleQuoted(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`", "$(", `\$(`)
	return `"` + r.Replace(s) + `"`
}

// schedulerClasspath puts SchedulerConfDir, where only the ResourceManager's pod has
// it, ahead of the image's configuration directory, so the ResourceManager finds
// capacity-scheduler.xml there: in a directory mount, which follows ConfigMap updates,
// where a single-file mount over the image's file would not.
const schedulerClasspath = `
# The ResourceManager reads capacity-scheduler.xml from a directory that follows
# ConfigMap updates, so queues change without a restart.
if [ -d ` + SchedulerConfDir + ` ]; then
  export HADOOP_CLASSPATH="` + SchedulerConfDir + `${HADOOP_CLASSPATH:+:$HADOOP_CLASSPATH}"
  export HADOOP_USER_CLASSPATH_FIRST=true
fi
`
