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
// options appended to HADOOP_OPTS, last so that a HADOOP_OPTS override keeps them.
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
	return b.String()
}

// doubleQuoted quotes s for a POSIX shell so that $VAR and ${VAR} still expand but
// nothing else is interpreted: no command substitution, no word splitting.
func doubleQuoted(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`", "$(", `\$(`)
	return `"` + r.Replace(s) + `"`
}
