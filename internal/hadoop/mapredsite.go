package hadoop

import (
	"fmt"
	"strconv"
)

// OwnedMapredSiteKeys are the mapred-site.xml keys a user cannot override: MapReduce
// runs on this cluster's YARN, the JobHistory server is reached through its Service,
// and the NetworkPolicies open the ApplicationMasters' client port range. The CEL rule on spec.config.mapredSite lists the same keys.
var OwnedMapredSiteKeys = []string{
	"mapreduce.framework.name",
	"mapreduce.jobhistory.address",
	"mapreduce.jobhistory.webapp.address",
	"mapreduce.jobhistory.admin.address",
	"mapreduce.jobhistory.bind-host",
	KeyAMClientPortRange,
}

// KeyAMClientPortRange pins the ports a MapReduce ApplicationMaster serves its job
// clients on, which Hadoop otherwise picks at random, so that a NetworkPolicy can open
// them (networkpolicy.go).
const KeyAMClientPortRange = "yarn.app.mapreduce.am.job.client.port-range"

// mapredAdminJavaOpts are Hadoop's default admin options for task JVMs. Setting the
// admin options replaces them, so they are repeated.
const mapredAdminJavaOpts = "-Djava.net.preferIPv4Stack=true -Dhadoop.metrics.log.level=WARN"

// shortLivedJIT keeps task and ApplicationMaster JVMs to the C1 compiler. They live for
// seconds to minutes, and a profile of TeraSort's JVMs (docs/benchmarks.md) found each
// spending 6 to 12 s compiling, mostly in C2, which local mode pays once for all its
// tasks: C1 alone took TeraSort at 10,000,000 rows from 94-100 s to 87-90 s and its
// CPU by 9% (docs/hadoopcluster.md#performance-defaults). A job of long tasks gets C2
// back with -XX:TieredStopAtLevel=4 in its java.opts, which come after these.
const shortLivedJIT = "-XX:TieredStopAtLevel=1"

// MapredSite is the content of mapred-site.xml, then the user's overrides.
func MapredSite(in Input) map[string]string {
	hc := in.Cluster
	mapredHome := "HADOOP_MAPRED_HOME=" + HadoopHome
	generated := map[string]string{
		"mapreduce.framework.name": "yarn",
		// Hadoop 3 containers find MapReduce only through these; without them the
		// ApplicationMaster fails with "Could not find or load main class".
		"mapreduce.application.classpath": "$HADOOP_MAPRED_HOME/share/hadoop/mapreduce/*,$HADOOP_MAPRED_HOME/share/hadoop/mapreduce/lib/*",
		"yarn.app.mapreduce.am.env":       mapredHome,
		"mapreduce.map.env":               mapredHome,
		"mapreduce.reduce.env":            mapredHome,
		// The admin options precede a job's own java.opts, so a job that sets its
		// heap keeps the JDK 17 options, and a job's own -XX flags win.
		"yarn.app.mapreduce.am.admin-command-opts": jdk17Opens + " " + shortLivedJIT,
		"mapreduce.admin.map.child.java.opts":      mapredAdminJavaOpts + " " + jdk17Opens + " " + shortLivedJIT,
		"mapreduce.admin.reduce.child.java.opts":   mapredAdminJavaOpts + " " + jdk17Opens + " " + shortLivedJIT,
		// A task's heap is this share of its container; the rest holds the JVM's own
		// memory and libcephfs's caches (the object cacher alone may take 200 MiB),
		// which the NodeManager counts against the container.
		"mapreduce.job.heap.memory-mb.ratio": "0.7",

		// An ApplicationMaster gets its containers on its allocate heartbeat, and a job
		// client learns of its job's end on its next poll: both at the NodeManagers'
		// heartbeat interval (yarnsite.go) instead of Hadoop's 1 s.
		"yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms": strconv.Itoa(heartbeatIntervalMs),
		"mapreduce.client.progressmonitor.pollinterval":         strconv.Itoa(heartbeatIntervalMs),

		"yarn.app.mapreduce.am.staging-dir":          SystemDir(hc) + "/staging",
		"mapreduce.jobhistory.intermediate-done-dir": HistoryIntermediateDir(hc),
		"mapreduce.jobhistory.done-dir":              SystemDir(hc) + "/history/done",

		KeyAMClientPortRange: fmt.Sprintf("%d-%d", PortAMClientFirst, PortAMClientLast),
	}
	if in.jobHistoryEnabled() {
		host := serviceHost(hc, JobHistory)
		generated["mapreduce.jobhistory.address"] = host + ":" + strconv.Itoa(PortJHRPC)
		generated["mapreduce.jobhistory.webapp.address"] = host + ":" + strconv.Itoa(PortJHWeb)
		generated["mapreduce.jobhistory.admin.address"] = host + ":" + strconv.Itoa(PortJHAdmin)
		generated["mapreduce.jobhistory.bind-host"] = "0.0.0.0"
	}
	return merged(generated, hc.Spec.Config.MapredSite)
}
