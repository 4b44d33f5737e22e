package hadoop

// The image contract: what the operator assumes about the Hadoop image. Image builders
// find the same list in docs/hadoopcluster.md.
const (
	// HadoopHome is where Hadoop is installed (HADOOP_HOME), with the connector and
	// libcephfs.jar in share/hadoop/common/lib and the libcephfs JNI library on Java's
	// default library path.
	HadoopHome = "/opt/hadoop"
	// SparkHome is where the image installs Spark, for clients' Spark on YARN: its
	// jars, without Hadoop's, in jars/ (which spark-defaults.conf has YARN's
	// containers load), and spark-submit and spark-shell in bin/. Only Spark
	// applications need it.
	SparkHome = "/opt/spark"
	// ConfDir is the image's HADOOP_CONF_DIR. It keeps the files Hadoop ships
	// (log4j.properties, capacity-scheduler.xml, ...); the operator mounts its
	// generated files over single files in it (in client pods spark-defaults.conf
	// too, which the image's Spark reads there), so those files must exist in the
	// image.
	ConfDir = HadoopHome + "/etc/hadoop"

	// Entry points. Each runs one daemon in the foreground, logging to stdout, and
	// exits when it stops.
	StartResourceManager = "/opt/hadoop-ceph/bin/start-resourcemanager"
	StartNodeManager     = "/opt/hadoop-ceph/bin/start-nodemanager"
	StartJobHistory      = "/opt/hadoop-ceph/bin/start-jobhistory"
	// StopNodeManager stops the NodeManager and returns once it and every container
	// process it started have exited, so their CephFS sessions are closed.
	StopNodeManager = "/opt/hadoop-ceph/bin/stop-nodemanager"

	// HadoopUID and HadoopGID are the image's hadoop user and group. Hadoop takes the
	// user name from the passwd entry, so the image must have one for this id.
	HadoopUID int64 = 1000
	HadoopGID int64 = 1000
	// HadoopUser is that user's name: the daemons' user, which YARN always counts
	// among its admins, and the user benchmark stages submit as.
	HadoopUser = "hadoop"
)

// Paths the operator mounts volumes at.
const (
	// CephConfDir holds ceph.conf and the keyring from the client config Secret.
	CephConfDir     = "/etc/ceph"
	CephConfPath    = CephConfDir + "/ceph.conf"
	CephKeyringPath = CephConfDir + "/keyring"
	// LogDir is HADOOP_LOG_DIR; Hadoop's scripts refuse to start unless they can
	// write to it, and the root file system is read-only.
	LogDir = "/var/log/hadoop"
	// TmpDir holds hadoop.tmp.dir and the JVMs' temporary files.
	TmpDir = "/tmp"
	// YARNDataDir holds the NodeManager's local and container log directories.
	YARNDataDir  = "/var/lib/hadoop-yarn"
	YARNLocalDir = YARNDataDir + "/local"
	YARNLogDir   = YARNDataDir + "/logs"
	// SchedulerConfDir holds capacity-scheduler.xml in the ResourceManager's pod.
	SchedulerConfDir = "/etc/hadoop-ceph/scheduler"
	// TopologyDir holds the topology ConfigMap's FileTopologyHosts in every Hadoop
	// pod, for the connector (KeyLocalityHostsFile).
	TopologyDir = "/etc/hadoop-ceph/topology"
)

// Environment variables of the contract.
const (
	// EnvDataInterface names the interface whose address the NodeManager advertises.
	// start-nodemanager exports that address as EnvDataAddress, which yarn-site.xml
	// reads; it fails when the interface has no IPv4 address.
	EnvDataInterface = "HADOOP_DATA_INTERFACE"
	EnvDataAddress   = "HADOOP_DATA_ADDRESS"
	// EnvPodName, EnvPodNamespace and EnvPodUID tag the MDS sessions of the
	// connector, so that the sessions of a dead pod can be evicted at once: by the
	// operator, by UID (a StatefulSet's replacement pod has the same name), or by an
	// administrator.
	EnvPodName      = "POD_NAME"
	EnvPodNamespace = "POD_NAMESPACE"
	EnvPodUID       = "POD_UID"
	// EnvHeapSize is Hadoop 3's maximum heap for the daemon a container runs.
	EnvHeapSize = "HADOOP_HEAPSIZE_MAX"
	EnvLogDir   = "HADOOP_LOG_DIR"
)

// Ports the daemons listen on: Hadoop's defaults, except the NodeManager's RPC port,
// which Hadoop picks at random and the headless Service must name.
const (
	PortRMScheduler       = 8030
	PortRMResourceTracker = 8031
	PortRMClient          = 8032
	PortRMAdmin           = 8033
	PortRMWeb             = 8088

	PortNMLocalizer = 8040
	PortNMRPC       = 8041
	PortNMWeb       = 8042
	PortShuffle     = 13562

	PortJHRPC   = 10020
	PortJHAdmin = 10033
	PortJHWeb   = 19888
)

// PortAMClientFirst to PortAMClientLast are the ports MapReduce ApplicationMasters
// serve their job clients on (KeyAMClientPortRange), inside the NodeManager pods. An
// AM takes the first free one, so the range bounds the AMs of one NodeManager: 100,
// where each needs 1536Mi. It lies below Kubernetes' NodePort range (30000-32767)
// and Linux's ephemeral ports (32768-60999), so that on the host's network neither a
// Service nor an outgoing connection holds one, and clear of Hadoop's own defaults.
const (
	PortAMClientFirst = 27100
	PortAMClientLast  = 27199
)
