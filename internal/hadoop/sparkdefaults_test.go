package hadoop

import (
	"strings"
	"testing"
)

// readJavaProperties reads the lines of a properties file the way
// java.util.Properties.load does for what SparkDefaultsFile writes: comments, a name
// ended by the first unescaped space, '=' or ':', the spaces (and after a space one
// '=' or ':') before the value skipped, and backslash escapes (\n and \r for line breaks).
func readJavaProperties(t *testing.T, text string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "!") {
			continue
		}
		var key, value strings.Builder
		cur := &key
		for i := 0; i < len(line); i++ {
			c := line[i]
			switch {
			case c == '\\' && i+1 < len(line):
				i++
				switch line[i] {
				case 'n':
					cur.WriteByte('\n')
				case 'r':
					cur.WriteByte('\r')
				default:
					cur.WriteByte(line[i])
				}
			case cur == &key && (c == ' ' || c == '=' || c == ':'):
				cur = &value
				for i+1 < len(line) && line[i+1] == ' ' {
					i++
				}
				if c == ' ' && i+1 < len(line) && (line[i+1] == '=' || line[i+1] == ':') {
					i++
					for i+1 < len(line) && line[i+1] == ' ' {
						i++
					}
				}
			default:
				cur.WriteByte(c)
			}
		}
		out[key.String()] = value.String()
	}
	return out
}

// A client's Spark runs on YARN with the image's own jars and Hadoop's class path,
// stages its files beside MapReduce's, and gets sizes that fit a client pod and a
// NodeManager's 1 GiB containers; a user's spark-defaults win.
func TestSparkDefaults(t *testing.T) {
	in := replicatedInput(t)
	got := SparkDefaults(in)
	want := map[string]string{
		"spark.master":                       "yarn",
		"spark.yarn.jars":                    "local:/opt/spark/jars/*",
		"spark.yarn.populateHadoopClasspath": "true",
		"spark.yarn.stagingDir":              SystemDir(in.Cluster) + "/staging",
		"spark.driver.memory":                "512m",
		"spark.executor.memory":              "512m",
		"spark.executor.cores":               "1",
	}
	expectProperties(t, got, want)
	if got["spark.yarn.stagingDir"] != MapredSite(in)["yarn.app.mapreduce.am.staging-dir"] {
		t.Errorf("Spark stages in %s, MapReduce in %s", got["spark.yarn.stagingDir"], MapredSite(in)["yarn.app.mapreduce.am.staging-dir"])
	}

	in.Cluster.Spec.Config.SparkDefaults = map[string]string{"spark.executor.memory": "2g", "spark.eventLog.enabled": "true"}
	got = SparkDefaults(in)
	if got["spark.executor.memory"] != "2g" || got["spark.eventLog.enabled"] != "true" || got["spark.master"] != "yarn" {
		t.Errorf("with overrides: %v", got)
	}
}

// What the ConfigMap's spark-defaults.conf says is what Java reads back, whatever
// the API lets a name or a value hold.
func TestSparkDefaultsFileReadsBack(t *testing.T) {
	props := map[string]string{
		"spark.master":                     "yarn",
		"spark.executor.extraJavaOptions":  `-XX:+UseG1GC -Dpath=C:\tmp -Dx=1`,
		"spark.hadoop.odd=name":            "a:b",
		"spark.hadoop.odd:name":            "c",
		"#not-a-comment":                   "kept",
		"!not-a-comment-either":            "kept too",
		`spark.hadoop.back\slash`:          `\`,
		"spark.driver.extraLibraryPath":    "/usr/lib/jni",
		"spark.yarn.appMasterEnv.JAVA_OPT": "  two leading spaces",
		"spark.app.name":                   "two\nlines\r",
		"spark.hadoop.starts.with.equals":  "=x",
		"spark.hadoop.starts.with.colon":   ": y",
	}
	text := SparkDefaultsFile(props)
	got := readJavaProperties(t, text)
	for k, v := range props {
		if got[k] != v {
			t.Errorf("%q reads back as %q, want %q\n%s", k, got[k], v, text)
		}
	}
	if len(got) != len(props) {
		t.Errorf("%d properties read back, want %d:\n%s", len(got), len(props), text)
	}
	if SparkDefaultsFile(props) != text {
		t.Error("the file differs between two renderings of the same properties")
	}
}
