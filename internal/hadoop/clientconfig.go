package hadoop

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// A cluster publishes what a client in another pod needs, the way operators publish
// discovery data: a ConfigMap that is a whole HADOOP_CONF_DIR, and a PodTemplate of a
// client pod in the cluster's image. A client is declared by the labels of
// ClientLabels: the NetworkPolicies admit such pods on every port, as they admit the
// cluster's own (Spark's executors, in the NodeManagers, answer their driver on ports
// of their choosing).

// FileLog4j is the clients' log4j.properties in the discovery ConfigMap: Hadoop's
// commands log to standard error, as the image's own file has them do.
const FileLog4j = "log4j.properties"

// clientLog4j logs at hadoop.root.logger, which Hadoop's scripts set (INFO,console
// unless HADOOP_ROOT_LOGGER says otherwise), to standard error, so that a command's
// standard output stays its result.
const clientLog4j = `# Rendered by hadoop-ceph-operator for the clients of this HadoopCluster.
hadoop.root.logger=INFO,console
log4j.rootLogger=${hadoop.root.logger}
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.target=System.err
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{yy/MM/dd HH:mm:ss} %p %c{2}: %m%n
`

// ClientConfigMapName names the discovery ConfigMap.
func ClientConfigMapName(hc *v1alpha1.HadoopCluster) string {
	return hc.Name + "-client"
}

// ClientPodTemplateName names the PodTemplate of a client pod.
func ClientPodTemplateName(hc *v1alpha1.HadoopCluster) string {
	return hc.Name + "-client"
}

// ClientLabels declare a pod a client of the cluster: the labels of the benchmark
// stages' pods, without the operator's managed-by.
func ClientLabels(hc *v1alpha1.HadoopCluster) map[string]string {
	return map[string]string{LabelName: AppName, LabelInstance: hc.Name, LabelComponent: string(Client)}
}

// ClientConfigMap is the discovery ConfigMap: the files of the daemons' configuration
// that a client reads (core-site.xml as the ResourceManager has it, yarn-site.xml,
// mapred-site.xml, whose task settings a MapReduce job takes from its client,
// hadoop-env.sh with the JVM options Hadoop needs on the image's JDK, and hdfs-site.xml
// on HDFS) and a log4j.properties, so that it can be mounted as a
// directory and named by HADOOP_CONF_DIR. The paths in core-site.xml are the image
// contract's: the client config Secret at CephConfDir, the topology ConfigMap at
// TopologyDir (without it a client still works, but its jobs' splits name Ceph's hosts
// rather than the NodeManagers', and lose their locality).
func ClientConfigMap(in Input, nm NodeResources) *corev1.ConfigMap {
	hc := in.Cluster
	data := sharedFiles(in, nm)
	data[FileLog4j] = clientLog4j
	data[FileSparkDefaults] = SparkDefaultsFile(SparkDefaults(in))
	return &corev1.ConfigMap{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      ClientConfigMapName(hc),
			Namespace: hc.Namespace,
			Labels:    clusterLabels(hc),
		},
		Data: data,
	}
}
