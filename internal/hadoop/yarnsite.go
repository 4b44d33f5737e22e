package hadoop

import "strconv"

// OwnedYarnSiteKeys are the yarn-site.xml keys a user cannot override: the addresses
// the Services and probes depend on, the directories on the operator's volumes, the
// NodeManager's size, which spec.nodeManagers sets, and the ACL switches, which
// spec.access.yarn sets. The CEL rule on spec.config.yarnSite lists the same keys.
var OwnedYarnSiteKeys = []string{
	"yarn.resourcemanager.hostname",
	"yarn.resourcemanager.bind-host",
	"yarn.resourcemanager.address",
	"yarn.resourcemanager.scheduler.address",
	"yarn.resourcemanager.resource-tracker.address",
	"yarn.resourcemanager.admin.address",
	"yarn.resourcemanager.webapp.address",
	"yarn.nodemanager.hostname",
	"yarn.nodemanager.bind-host",
	"yarn.nodemanager.address",
	"yarn.nodemanager.localizer.address",
	"yarn.nodemanager.webapp.address",
	"yarn.nodemanager.local-dirs",
	"yarn.nodemanager.log-dirs",
	"yarn.nodemanager.resource.memory-mb",
	"yarn.nodemanager.resource.cpu-vcores",
	"yarn.acl.enable",
	"yarn.admin.acl",
	"yarn.resourcemanager.nodes.exclude-path",
}

// heartbeatIntervalMs is how often NodeManagers heartbeat to the ResourceManager and
// MapReduce ApplicationMasters ask it for containers, and how often job clients poll
// their jobs (mapredsite.go).
const heartbeatIntervalMs = 250

// rmRetryIntervalMs is how long a daemon or client that lost the ResourceManager
// waits before it tries again.
const rmRetryIntervalMs = 5000

// minFreeLocalDiskMiB is the free space below which a NodeManager's local or log
// directory is unhealthy: room for a task's spills and a container's logs.
const minFreeLocalDiskMiB = 1024

// allocationIncrementMiB is yarn.scheduler.minimum-allocation-mb. Hadoop's 1024 would
// round the MapReduce ApplicationMaster's 1536 MiB up to 2048 and waste a third of a
// small NodeManager.
const allocationIncrementMiB = 512

// aggregatedLogRetentionSeconds keeps a week of containers' logs on the cluster's
// storage: long enough to look into last week's failed job, short enough that a
// cluster running many small jobs does not fill its root with them.
const aggregatedLogRetentionSeconds = 7 * 24 * 3600

// YarnSite is the content of yarn-site.xml for a cluster whose NodeManagers offer nm,
// then the user's overrides.
func YarnSite(in Input, nm NodeResources) map[string]string {
	hc := in.Cluster
	generated := map[string]string{
		// Daemons bind every interface and advertise a name: the ResourceManager its
		// Service (whose ClusterIP survives pod restarts, so AMs and NodeManagers
		// reconnect), a NodeManager the address of the data interface when
		// start-nodemanager exports one, else its pod's name.
		"yarn.resourcemanager.hostname":  serviceHost(hc, ResourceManager),
		"yarn.resourcemanager.bind-host": "0.0.0.0",
		"yarn.nodemanager.hostname":      "${env." + EnvDataAddress + ":-0.0.0.0}",
		"yarn.nodemanager.bind-host":     "0.0.0.0",
		"yarn.nodemanager.address":       "${yarn.nodemanager.hostname}:" + strconv.Itoa(PortNMRPC),

		"yarn.nodemanager.local-dirs":          YARNLocalDir,
		"yarn.nodemanager.log-dirs":            YARNLogDir,
		"yarn.nodemanager.resource.memory-mb":  strconv.FormatInt(nm.MemoryMiB, 10),
		"yarn.nodemanager.resource.cpu-vcores": strconv.FormatInt(nm.VCores, 10),
		"yarn.scheduler.minimum-allocation-mb": strconv.Itoa(allocationIncrementMiB),
		// Containers are handed out on NodeManager heartbeats, so every wait for one
		// (a job's ApplicationMaster, then its maps, then its reduces) lasts up to an
		// interval. A quarter second cut the waits of a TeraSort's three jobs by about
		// 6 s (docs/hadoopcluster.md#performance-defaults); at 1,000 NodeManagers it loads
		// the ResourceManager as Hadoop's 1 s does at 4,000. It is fixed rather than
		// scaled with spec.nodeManagers.replicas, which would roll every pod on a scale.
		"yarn.resourcemanager.nodemanagers.heartbeat-interval-ms": strconv.Itoa(heartbeatIntervalMs),
		// NodeManagers, ApplicationMasters and clients that lose the ResourceManager
		// (a rolling update replaces it last, a node drain moves it) try it again
		// this often, for Hadoop's 15 minutes. Hadoop's 30 s kept every NodeManager
		// out of YARN for up to half a minute after each restart of the
		// ResourceManager; a refused connection costs the returning daemon nothing.
		"yarn.resourcemanager.connect.retry-interval.ms": strconv.Itoa(rmRetryIntervalMs),
		// A request larger than any NodeManager fails at once instead of waiting forever.
		"yarn.scheduler.maximum-allocation-mb":     strconv.FormatInt(nm.MemoryMiB, 10),
		"yarn.scheduler.maximum-allocation-vcores": strconv.FormatInt(nm.VCores, 10),

		"yarn.nodemanager.aux-services":                         "mapreduce_shuffle",
		"yarn.nodemanager.aux-services.mapreduce_shuffle.class": "org.apache.hadoop.mapred.ShuffleHandler",
		// The pod's memory limit bounds the containers; virtual memory says nothing
		// about a JVM's footprint and makes the check kill healthy tasks.
		"yarn.nodemanager.vmem-check-enabled": "false",
		// Containers inherit only these variables; the pod's name, namespace and UID
		// tag their CephFS sessions.
		"yarn.nodemanager.env-whitelist": "JAVA_HOME,HADOOP_COMMON_HOME,HADOOP_HDFS_HOME,HADOOP_CONF_DIR,CLASSPATH_PREPEND_DISTCACHE,HADOOP_YARN_HOME,HADOOP_HOME,PATH,LANG,TZ," + EnvPodName + "," + EnvPodNamespace + "," + EnvPodUID,
		// A stopped container gets this long after SIGTERM to unmount CephFS before
		// SIGKILL; Hadoop's 250 ms leaves MDS sessions behind that block other
		// clients until they time out.
		"yarn.nodemanager.sleep-delay-before-sigkill.ms": "5000",
		// The local and log directories are emptyDirs on the node's disk, which
		// everything on the node shares and whose pressure the kubelet handles by
		// evicting pods. YARN's default takes a NodeManager out of service once that
		// whole disk is 90% full, however many gigabytes are free, and jobs then wait
		// in ACCEPTED for a cluster without resources; only a floor of free space is
		// kept.
		"yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage": "100",
		"yarn.nodemanager.disk-health-checker.min-free-space-per-disk-mb":               strconv.Itoa(minFreeLocalDiskMiB),

		// Container logs outlive the NodeManager pod on CephFS.
		"yarn.log-aggregation-enable":         "true",
		"yarn.nodemanager.remote-app-log-dir": SystemDir(hc) + "/app-logs",
		// Hadoop keeps them forever; the JobHistory server deletes those older than
		// this, checking every tenth of it (a cluster without one keeps them).
		"yarn.log-aggregation.retain-seconds": strconv.Itoa(aggregatedLogRetentionSeconds),

		// The NodeManagers a scale-down removes are listed here, with their timeouts,
		// while YARN decommissions them (decommission.go).
		"yarn.resourcemanager.nodes.exclude-path": SchedulerConfDir + "/" + FileNodesExclude,

		// The ResourceManager keeps its state on CephFS, so a restart (a config
		// change, a node drain) keeps running applications.
		"yarn.resourcemanager.recovery.enabled":   "true",
		"yarn.resourcemanager.store.class":        "org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore",
		"yarn.resourcemanager.fs.state-store.uri": SystemDir(hc) + "/rmstore",

		// Queue ACLs are in capacity-scheduler.xml. Application ACLs default to the
		// owner and the admins (mapreduce.job.acl-view-job and -modify-job).
		"yarn.acl.enable": strconv.FormatBool(in.yarnACLsEnabled()),
		"yarn.admin.acl":  AdminACL(hc),
	}
	if in.jobHistoryEnabled() {
		generated["yarn.log.server.url"] = "http://" + serviceHost(hc, JobHistory) + ":" + strconv.Itoa(PortJHWeb) + "/jobhistory/logs"
	}
	return merged(generated, hc.Spec.Config.YarnSite)
}
