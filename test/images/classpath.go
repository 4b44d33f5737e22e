package images

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// shareHadoop holds Hadoop's jars in the image.
const shareHadoop = "/opt/hadoop/share/hadoop"

// classPathDirs are the directories of shareHadoop whose jars YARN's default
// application class path and the operator's mapreduce.application.classpath name.
var classPathDirs = []string{"common", "common/lib", "hdfs", "hdfs/lib", "yarn", "yarn/lib", "mapreduce", "mapreduce/lib"}

// classPathJars returns the file names of the jars on the containers' class path in the
// image whose root file system is root: every *.jar of classPathDirs that exists in the
// image, but for mapreduce's links (hadoop-mapreduce-examples.jar), version-less names
// of jars beside them for the operator's Jobs.
func classPathJars(root string) ([]string, error) {
	var names []string
	for _, dir := range classPathDirs {
		entries, err := os.ReadDir(filepath.Join(root, shareHadoop, dir))
		if err != nil {
			return nil, fmt.Errorf("the class path's directory %s: %w", dir, err)
		}
		for _, e := range entries {
			name := e.Name()
			if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".jar") {
				continue
			}
			if e.Type()&fs.ModeSymlink != 0 && strings.HasPrefix(dir, "mapreduce") {
				continue
			}
			if existsIn(root, path.Join(shareHadoop, dir, name)) {
				names = append(names, name)
			}
		}
	}
	return names, nil
}

// version is a jar name's version: from a dash and a digit to the next dash or to
// ".jar". POSIX's leftmost-longest match, as sed's.
var version = regexp.MustCompilePOSIX(`-[0-9][^-]*(-|\.jar$)`)

// artifact is a jar's file name without its version: hadoop-common-3.4.2.jar is
// hadoop-common.jar, guava-27.0-jre.jar guava-jre.jar.
func artifact(jar string) string {
	m := version.FindStringSubmatchIndex(jar)
	if m == nil {
		return jar
	}
	return jar[:m[0]] + jar[m[2]:m[3]] + jar[m[1]:]
}

// duplicateArtifacts returns, sorted, the artifacts of which jars (file names) hold
// more than one version or copy: with two, class loading depends on directory order.
func duplicateArtifacts(jars []string) []string {
	count := map[string]int{}
	for _, jar := range jars {
		count[artifact(jar)]++
	}
	var twice []string
	for a, n := range count {
		if n > 1 {
			twice = append(twice, a)
		}
	}
	slices.Sort(twice)
	return twice
}
