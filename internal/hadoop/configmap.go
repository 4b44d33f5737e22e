package hadoop

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Files of the configuration ConfigMap, each mounted over the image's file of the same
// name in ConfDir.
const (
	FileCoreSite   = "core-site.xml"
	FileYarnSite   = "yarn-site.xml"
	FileMapredSite = "mapred-site.xml"
	FileHadoopEnv  = "hadoop-env.sh"
	// FileCapacityScheduler holds the CapacityScheduler's queues and their access
	// control lists.
	FileCapacityScheduler = "capacity-scheduler.xml"
)

var configFiles = []string{FileCapacityScheduler, FileCoreSite, FileHadoopEnv, FileMapredSite, FileYarnSite}

// ConfigMap holds the rendered configuration files of a cluster whose NodeManagers
// offer nm. It carries no secret: the keyring stays in the client config Secret.
func ConfigMap(in Input, nm NodeResources) *corev1.ConfigMap {
	hc := in.Cluster
	data := map[string]string{
		FileCoreSite:   ConfigurationXML(CoreSite(in)),
		FileYarnSite:   ConfigurationXML(YarnSite(in, nm)),
		FileMapredSite: ConfigurationXML(MapredSite(in)),
		FileHadoopEnv:  HadoopEnv(in),

		FileCapacityScheduler: ConfigurationXML(CapacityScheduler(in)),
	}
	return &corev1.ConfigMap{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{
			Name:        ConfigMapName(hc),
			Namespace:   hc.Namespace,
			Labels:      clusterLabels(hc),
			Annotations: map[string]string{ConfigHashAnnotation: ConfigHash(data)},
		},
		Data: data,
	}
}
