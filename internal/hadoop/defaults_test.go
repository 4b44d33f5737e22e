package hadoop

import "testing"

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
