package hadoop

import (
	"strings"
	"testing"
)

// The measured defaults (docs/hadoopcluster.md#performance-defaults) and the disk
// health check are what a cluster gets without spec.config, and a user's value of the
// same key replaces them.
func TestDefaultsYieldToTheUsersKeys(t *testing.T) {
	nm := NodeResources{MemoryMiB: 4608, VCores: 4}
	defaults := map[string]struct {
		site  func(Input) map[string]string
		key   string
		value string
	}{
		"yarn heartbeat":  {func(in Input) map[string]string { return YarnSite(in, nm) }, "yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", "250"},
		"disk percentage": {func(in Input) map[string]string { return YarnSite(in, nm) }, "yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", "100"},
		"disk floor":      {func(in Input) map[string]string { return YarnSite(in, nm) }, "yarn.nodemanager.disk-health-checker.min-free-space-per-disk-mb", "1024"},
		"AM heartbeat":    {MapredSite, "yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms", "250"},
		"client poll":     {MapredSite, "mapreduce.client.progressmonitor.pollinterval", "250"},
	}
	for name, d := range defaults {
		in := replicatedInput(t)
		if got := d.site(in)[d.key]; got != d.value {
			t.Errorf("%s: %s = %q, want %q", name, d.key, got, d.value)
		}
		in.Cluster.Spec.Config.YarnSite = map[string]string{d.key: "1000"}
		in.Cluster.Spec.Config.MapredSite = map[string]string{d.key: "1000"}
		if got := d.site(in)[d.key]; got != "1000" {
			t.Errorf("%s: with the user's 1000, %s = %q", name, d.key, got)
		}
	}
}

// Task and ApplicationMaster JVMs stop at C1 through the admin options, which Hadoop
// puts before a job's own java.opts: a job's -XX:TieredStopAtLevel=4 there comes last,
// and the JVM takes the last value of a flag.
func TestShortLivedJVMsStopAtC1(t *testing.T) {
	site := MapredSite(replicatedInput(t))
	for _, key := range []string{"yarn.app.mapreduce.am.admin-command-opts", "mapreduce.admin.map.child.java.opts", "mapreduce.admin.reduce.child.java.opts"} {
		if !strings.HasSuffix(site[key], " "+shortLivedJIT) {
			t.Errorf("%s = %q, want it to end with %s", key, site[key], shortLivedJIT)
		}
	}
	for _, key := range []string{"yarn.app.mapreduce.am.command-opts", "mapreduce.map.java.opts", "mapreduce.reduce.java.opts"} {
		if v, ok := site[key]; ok {
			t.Errorf("%s = %q: a job's own options must stay free for the job", key, v)
		}
	}
}
