package hadoop

import (
	"slices"
	"strings"
)

// FileSparkDefaults is Spark's configuration file in the discovery ConfigMap. The
// image's Spark reads it from HADOOP_CONF_DIR (its SPARK_CONF_DIR unless a pod sets
// one), so a pod that mounts the ConfigMap there has Hadoop's and Spark's settings
// alike. The daemons need none of it: a Spark application ships its settings to its
// ApplicationMaster and executors itself.
const FileSparkDefaults = "spark-defaults.conf"

// The sizes of an application that sets none. A driver in client mode runs in a client
// pod, beside nothing else: it gets the heap a client pod's Hadoop commands get. An
// executor's container, its heap and Spark's overhead of at least 384 MiB, takes 1 GiB
// of a NodeManager and one core, like a MapReduce task's.
const (
	sparkDriverMemory   = clientPodHeap
	sparkExecutorMemory = "512m"
	sparkExecutorCores  = "1"
)

// SparkDefaults is the content of spark-defaults.conf, then spec.config.sparkDefaults.
func SparkDefaults(in Input) map[string]string {
	hc := in.Cluster
	generated := map[string]string{
		"spark.master": "yarn",
		// Drivers and executors in the NodeManagers run the image's Spark: nothing is
		// uploaded per application, and the ApplicationMaster's jars are the client's.
		"spark.yarn.jars": "local:" + SparkHome + "/jars/*",
		// The image's Spark has no Hadoop jars: its containers take Hadoop's class
		// path, with the CephFS connector, from yarn-site.xml and mapred-site.xml.
		// Spark turns this on only for its own Hadoop-free build.
		"spark.yarn.populateHadoopClasspath": "true",
		// Beside MapReduce's staging directories (<dir>/<user>/.sparkStaging), in the
		// cluster's own directory, rather than in home directories Hadoop's root may
		// not have.
		"spark.yarn.stagingDir": SystemDir(hc) + "/staging",
		"spark.driver.memory":   sparkDriverMemory,
		"spark.executor.memory": sparkExecutorMemory,
		"spark.executor.cores":  sparkExecutorCores,
	}
	return merged(generated, hc.Spec.Config.SparkDefaults)
}

// SparkDefaultsFile renders properties as spark-defaults.conf: a name and its value
// on a line each, sorted, so that the file changes only when a property does. Spark
// reads the file as Java properties, so whatever the API lets a name or a value hold
// is escaped to read back the same: backslashes, line breaks, a value's leading
// space or separator, and in a name a separator ('=', ':') or a leading comment mark.
func SparkDefaultsFile(props map[string]string) string {
	var b strings.Builder
	b.WriteString("# Rendered by hadoop-ceph-operator for the clients of this HadoopCluster: changes to\n# this file are overwritten; set spec.config.sparkDefaults instead.\n")
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		name := propertyNameEscaper.Replace(k)
		if strings.HasPrefix(name, "#") || strings.HasPrefix(name, "!") {
			name = `\` + name
		}
		value := propertyValueEscaper.Replace(props[k])
		if trimmed := strings.TrimLeft(value, " "); len(trimmed) < len(value) {
			value = strings.Repeat(`\ `, len(value)-len(trimmed)) + trimmed
		} else if strings.HasPrefix(value, "=") || strings.HasPrefix(value, ":") {
			// After the space, Java takes one '=' or ':' for the separator still.
			value = `\` + value
		}
		b.WriteString(name)
		b.WriteByte(' ')
		b.WriteString(value)
		b.WriteByte('\n')
	}
	return b.String()
}

var (
	propertyNameEscaper  = strings.NewReplacer(`\`, `\\`, "=", `\=`, ":", `\:`)
	propertyValueEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\r", `\r`)
)
