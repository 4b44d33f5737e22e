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
	// FileNodeManagerCoreSite is the NodeManagers' core-site.xml, with
	// spec.network.cephOptions, when that is set: their container mounts it as
	// core-site.xml, and every other container FileCoreSite.
	FileNodeManagerCoreSite = "core-site-nodemanager.xml"
	// FileHDFSSite is the client configuration of an HDFS backend, as the backend's
	// client ConfigMap has it; a cluster on CephFS has none.
	FileHDFSSite = "hdfs-site.xml"
	// FileCapacityScheduler holds the CapacityScheduler's queues and their access
	// control lists. It is not among the files whose change rolls the pods: the
	// ResourceManager's pod mounts it as a directory, which follows ConfigMap
	// updates, and reloads it (SchedulerRefresher).
	FileCapacityScheduler = "capacity-scheduler.xml"
	// FileNodesExclude lists the NodeManagers being decommissioned. Like
	// capacity-scheduler.xml it is outside the configuration hash and read again on
	// change; its name must end in .xml for YARN to read the timeouts in it.
	FileNodesExclude = "nodes-exclude.xml"
)

// configFiles are mounted over the image's files and roll the pods when they change.
func configFiles(st Storage) []string {
	if st.cephFS() {
		return []string{FileCoreSite, FileHadoopEnv, FileMapredSite, FileYarnSite}
	}
	return []string{FileCoreSite, FileHadoopEnv, FileHDFSSite, FileMapredSite, FileYarnSite}
}

// sharedFiles are the rendered files that the daemons and their clients read alike:
// core-site.xml as every pod but the NodeManagers has it, yarn-site.xml,
// mapred-site.xml, hadoop-env.sh, and hdfs-site.xml on HDFS.
func sharedFiles(in Input, nm NodeResources) map[string]string {
	data := map[string]string{
		FileCoreSite:   ConfigurationXML(CoreSite(in)),
		FileYarnSite:   ConfigurationXML(YarnSite(in, nm)),
		FileMapredSite: ConfigurationXML(MapredSite(in)),
		FileHadoopEnv:  HadoopEnv(in),
	}
	if !in.Storage.cephFS() {
		data[FileHDFSSite] = ConfigurationXMLFrom("Rendered by hadoop-ceph-operator from the client configuration of the HadoopCluster's HDFS StorageBackend: changes to this file are overwritten.", in.Storage.HDFS.Site)
	}
	return data
}

// ConfigMap holds the rendered configuration files of a cluster whose NodeManagers
// offer nm. It carries no secret: the keyring stays in the client config Secret.
func ConfigMap(in Input, nm NodeResources) *corev1.ConfigMap {
	hc := in.Cluster
	data := sharedFiles(in, nm)
	if in.nodeManagerCoreSite() {
		data[FileNodeManagerCoreSite] = NodeManagerCoreSiteXML(in)
	}
	hash := ConfigHash(data)
	scheduler := ConfigurationXML(CapacityScheduler(in))
	data[FileCapacityScheduler] = scheduler
	data[FileNodesExclude] = NodesExcludeXML(in.Decommission)
	return &corev1.ConfigMap{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      ConfigMapName(hc),
			Namespace: hc.Namespace,
			Labels:    clusterLabels(hc),
			Annotations: map[string]string{
				ConfigHashAnnotation:    hash,
				SchedulerHashAnnotation: ConfigHash(map[string]string{FileCapacityScheduler: scheduler, FileNodesExclude: data[FileNodesExclude]}),
			},
		},
		Data: data,
	}
}
