package images

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"testing"
)

func TestArtifact(t *testing.T) {
	cases := map[string]string{
		"hadoop-common-3.4.2.jar":                      "hadoop-common.jar",
		"hadoop-hdfs-3.4.2-tests.jar":                  "hadoop-hdfs-tests.jar",
		"guava-27.0-jre.jar":                           "guava-jre.jar",
		"hadoop-shaded-guava-1.4.0.jar":                "hadoop-shaded-guava.jar",
		"jackson-core-2.12.7.jar":                      "jackson-core.jar",
		"jetty-util-9.4.57.v20241219.jar":              "jetty-util.jar",
		"cephfs-hadoop-0.2.0-SNAPSHOT.jar":             "cephfs-hadoop-SNAPSHOT.jar",
		"libcephfs.jar":                                "libcephfs.jar",
		"hadoop-mapreduce-client-jobclient-tests.jar":  "hadoop-mapreduce-client-jobclient-tests.jar",
		"listenablefuture-9999.0-empty-to-avoid-c.jar": "listenablefuture-empty-to-avoid-c.jar",
	}
	for jar, want := range cases {
		if got := artifact(jar); got != want {
			t.Errorf("artifact(%s) = %s, want %s", jar, got, want)
		}
	}
}

func TestDuplicateArtifacts(t *testing.T) {
	got := duplicateArtifacts([]string{
		"hadoop-common-3.4.2.jar", "hadoop-common-3.4.2-tests.jar", "guava-27.0-jre.jar",
		"slf4j-api-1.7.36.jar", "slf4j-api-2.0.9.jar", "guava-32.0-jre.jar", "libcephfs.jar",
	})
	if want := []string{"guava-jre.jar", "slf4j-api.jar"}; !slices.Equal(got, want) {
		t.Errorf("duplicateArtifacts = %v, want %v", got, want)
	}
	if got := duplicateArtifacts([]string{"a-1.jar", "b-1.jar"}); got != nil {
		t.Errorf("duplicateArtifacts of distinct jars = %v, want none", got)
	}
}

func TestClassPathJars(t *testing.T) {
	files := map[string]os.FileMode{"usr/share/java/libcephfs-16.2.15.jar": 0o644}
	for _, dir := range classPathDirs {
		files[path.Join("opt/hadoop/share/hadoop", dir, ".keep")] = 0o644
	}
	for _, name := range []string{
		"common/hadoop-common-3.4.2.jar", "common/lib/guava-27.0-jre.jar", "common/lib/README.txt",
		"mapreduce/hadoop-mapreduce-examples-3.4.2.jar", "yarn/lib/.hidden.jar",
	} {
		files[path.Join("opt/hadoop/share/hadoop", name)] = 0o644
	}
	root := imageRoot(t, files, map[string]string{
		"usr/share/java/libcephfs.jar":                                      "libcephfs-16.2.15.jar",
		"opt/hadoop/share/hadoop/common/lib/libcephfs.jar":                  "/usr/share/java/libcephfs.jar",
		"opt/hadoop/share/hadoop/common/lib/gone.jar":                       "/usr/share/java/gone.jar",
		"opt/hadoop/share/hadoop/mapreduce/hadoop-mapreduce-examples.jar":   "hadoop-mapreduce-examples-3.4.2.jar",
		"opt/hadoop/share/hadoop/mapreduce/lib/hadoop-mapreduce-extras.jar": "../hadoop-mapreduce-examples-3.4.2.jar",
	})
	got, err := classPathJars(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"hadoop-common-3.4.2.jar", "guava-27.0-jre.jar", "libcephfs.jar", "hadoop-mapreduce-examples-3.4.2.jar"}
	if !slices.Equal(got, want) {
		t.Errorf("classPathJars = %v, want %v", got, want)
	}
	if err := os.RemoveAll(filepath.Join(root, "opt/hadoop/share/hadoop/hdfs/lib")); err != nil {
		t.Fatal(err)
	}
	if _, err := classPathJars(root); err == nil {
		t.Error("classPathJars without hdfs/lib: no error")
	}
}
