//go:build imagetest

package images

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// hadoopVersion is the Hadoop of images/hadoop/pom.xml, which every command reports.
const hadoopVersion = "3.4.2"

// What docs/hadoopcluster.md's image contract and the operator's Jobs need.
var (
	contractCommands = []string{
		"/opt/hadoop/bin/hadoop", "/opt/hadoop/bin/hdfs", "/opt/hadoop/bin/yarn", "/opt/hadoop/bin/mapred",
		"/opt/hadoop-ceph/bin/start-resourcemanager", "/opt/hadoop-ceph/bin/start-nodemanager",
		"/opt/hadoop-ceph/bin/start-jobhistory", "/opt/hadoop-ceph/bin/stop-nodemanager",
		"/opt/hadoop-ceph/bin/run-benchmark",
		"/opt/spark/bin/spark-submit", "/opt/spark/bin/spark-shell", "/opt/spark/bin/spark-class",
	}
	contractConfFiles = []string{
		"core-site.xml", "yarn-site.xml", "mapred-site.xml", "hdfs-site.xml", "hadoop-env.sh", "log4j.properties", "capacity-scheduler.xml", "spark-defaults.conf",
	}
	contractJars = []string{
		"mapreduce/hadoop-mapreduce-examples.jar", "mapreduce/hadoop-mapreduce-client-jobclient-tests.jar", "common/lib/libcephfs.jar",
		"tools/lib/hadoop-streaming.jar",
	}
)

// The tools the image's scripts and the operator's probes and Jobs run.
const toolsScript = `awk "BEGIN{}" && echo x | grep -q x && echo x | sed s/x/y/ >/dev/null && command -v setsid ip >/dev/null && [[ "$(date +%s%3N)" =~ ^[0-9]{13}$ ]] && [ "$(head -c 3 /dev/zero | wc -c)" = 3 ]`

func contractSpecs() {
	Describe("the image contract", func() {
		for _, p := range contractCommands {
			It("executable "+p, func(ctx SpecContext) {
				succeeded(inImage.run(ctx, "test", "-x", p))
			})
		}
		for _, f := range contractConfFiles {
			p := path.Join("/opt/hadoop/etc/hadoop", f)
			It("file "+p, func() {
				Expect(regularIn(p)).To(BeTrue(), "no regular file %s in the image", p)
			})
		}
		It("run-benchmark is internal/benchmark/runner/run-benchmark", func() {
			p, err := inRoot(img.root, "/opt/hadoop-ceph/bin/run-benchmark")
			Expect(err).NotTo(HaveOccurred())
			same, err := sameContents(p, filepath.Join(repoRoot, "internal/benchmark/runner/run-benchmark"))
			Expect(err).NotTo(HaveOccurred())
			Expect(same).To(BeTrue(), "the image's /opt/hadoop-ceph/bin/run-benchmark differs from the checkout's")
		})
		for _, j := range contractJars {
			p := path.Join(shareHadoop, j)
			It("jar "+p, func(ctx SpecContext) {
				succeeded(inImage.run(ctx, "test", "-f", p))
			})
		}
		It("the connector in common/lib", func() {
			entries, err := os.ReadDir(filepath.Join(img.root, shareHadoop, "common/lib"))
			Expect(err).NotTo(HaveOccurred())
			Expect(slices.ContainsFunc(entries, func(e os.DirEntry) bool {
				return strings.HasPrefix(e.Name(), "cephfs-hadoop-") && strings.HasSuffix(e.Name(), ".jar")
			})).To(BeTrue(), "no cephfs-hadoop-*.jar in %s/common/lib", shareHadoop)
		})
		It("user hadoop is uid 1000", func(ctx SpecContext) {
			res := inImage.run(ctx, "id", "-un")
			Expect(strings.TrimSpace(string(res.stdout))).To(Equal("hadoop"), "%s", res)
		})
		It("JAVA_HOME is a JDK 17", func(ctx SpecContext) {
			res := inImage.run(ctx, "bash", "-c", `"${JAVA_HOME}/bin/java" -version 2>&1`)
			Expect(string(res.stdout)).To(ContainSubstring(`version "17`), "%s", res)
		})
		It("the libcephfs JNI library is on Java's default path", func() {
			Expect(existsIn(img.root, "/usr/lib/jni/libcephfs_jni.so")).To(BeTrue(), "no /usr/lib/jni/libcephfs_jni.so in the image")
		})
		It("bash, awk, grep, sed, setsid, ip and GNU date and head", func(ctx SpecContext) {
			succeeded(inImage.run(ctx, "bash", "-c", toolsScript))
		})
		// YARN's application class path and the operator's mapreduce.application.classpath
		// must name every jar once: two versions of one artifact make class loading depend
		// on directory order.
		It("every artifact once on the containers' class path", func() {
			jars, err := classPathJars(img.root)
			Expect(err).NotTo(HaveOccurred())
			Expect(duplicateArtifacts(jars)).To(BeEmpty(), "artifacts twice on the class path")
		})
		It("the root file system is read-only", func() {
			x := filepath.Join(img.root, "opt/x")
			err := os.WriteFile(x, nil, 0o644)
			if err == nil {
				Expect(os.Remove(x)).To(Succeed())
			}
			Expect(errors.Is(err, syscall.EROFS)).To(BeTrue(), "writing /opt/x in the image: %v", err)
		})
		for _, command := range []string{"hadoop", "hdfs", "yarn", "mapred"} {
			It(command+" version is "+hadoopVersion, func(ctx SpecContext) {
				res := inImage.run(ctx, command, "version")
				first, _, _ := strings.Cut(string(res.stdout), "\n")
				Expect(first).To(Equal("Hadoop "+hadoopVersion), "%s", res)
			})
		}
		It("run-benchmark without arguments exits 64", func(ctx SpecContext) {
			res := inImage.run(ctx, "run-benchmark")
			Expect(res.exitCode()).To(Equal(64), "%s", res)
		})
		var badInterface result
		It("start-nodemanager fails when HADOOP_DATA_INTERFACE has no address", func(ctx SpecContext) {
			badInterface = inImage.with("HADOOP_DATA_INTERFACE=hco-no-such-if0").
				runLogged(ctx, filepath.Join(work, "nm-bad-if.log"), "start-nodemanager")
			Expect(readText(badInterface.log)).To(ContainSubstring("has no IPv4 address"), "%s", badInterface)
		})
		It("... with a non-zero status", func() {
			Expect(badInterface.exitCode()).NotTo(Equal(0), "%s", badInterface)
		})
	})
}

// regularIn reports whether name is a regular file in the image, as test -f in it
// would.
func regularIn(name string) bool {
	p, err := inRoot(img.root, name)
	if err != nil {
		return false
	}
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
