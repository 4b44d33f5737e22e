//go:build imagetest

package images

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// HDFS's configuration: its defaults, on loopback, with the data in the writable /tmp.
const (
	hdfsCoreSite = `<configuration>
  <property><name>fs.defaultFS</name><value>hdfs://127.0.0.1:8020</value></property>
</configuration>
`
	hdfsSite = `<configuration>
  <property><name>dfs.namenode.name.dir</name><value>file:///tmp/hdfs/name</value></property>
  <property><name>dfs.datanode.data.dir</name><value>file:///tmp/hdfs/data</value></property>
  <property><name>dfs.namenode.http-address</name><value>127.0.0.1:9870</value></property>
  <property><name>dfs.datanode.address</name><value>127.0.0.1:9866</value></property>
  <property><name>dfs.datanode.http.address</name><value>127.0.0.1:9864</value></property>
  <property><name>dfs.datanode.ipc.address</name><value>127.0.0.1:9867</value></property>
  <property><name>dfs.replication</name><value>1</value></property>
</configuration>
`
)

const nameNodeStatus = "http://127.0.0.1:9870/jmx?qry=Hadoop:service=NameNode,name=NameNodeStatus"

func hdfsSpecs() {
	Describe("HDFS: a NameNode and a DataNode", func() {
		// Their own configuration directory, in the writable /tmp: the operator's files
		// name no HDFS.
		inHDFS := inImage.with("HADOOP_CONF_DIR=/tmp/hdfs-conf")
		hdfsDaemon := inHDFS.with("HADOOP_HEAPSIZE_MAX=256")
		BeforeAll(func() {
			dir := filepath.Join(work, "volumes", "tmp", "hdfs-conf")
			Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
			files := map[string]string{"core-site.xml": hdfsCoreSite, "hdfs-site.xml": hdfsSite}
			for name, from := range map[string]string{
				"hadoop-env.sh":    filepath.Join(work, "conf", "hadoop-env.sh"),
				"log4j.properties": filepath.Join(img.root, "opt/hadoop/etc/hadoop/log4j.properties"),
			} {
				b, err := os.ReadFile(from)
				Expect(err).NotTo(HaveOccurred())
				files[name] = string(b)
			}
			for name, content := range files {
				Expect(os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)).To(Succeed())
				Expect(os.Chown(filepath.Join(dir, name), hadoopUID, hadoopGID)).To(Succeed())
			}
			Expect(os.Chown(dir, hadoopUID, hadoopGID)).To(Succeed())
		})

		It("hdfs namenode -format", func(ctx SpecContext) {
			succeeded(inHDFS.runLogged(ctx, filepath.Join(work, "namenode-format.log"),
				"hdfs", "namenode", "-format", "-nonInteractive", "-clusterid", "image-test"))
		})
		// /isActive answers 200 only with the web application, which Maven Central's
		// hadoop-hdfs jar leaves out (pom.xml).
		It("NameNode serves /isActive on 9870", func(ctx SpecContext) {
			hdfsDaemon.start("namenode", "hdfs", "namenode")
			Expect(serves(ctx, "namenode", 9870, "/isActive")).To(Succeed())
		})
		It("NameNode logs to standard output", logged("namenode", "NameNode"))
		It("DataNode serves its web application on 9864", func(ctx SpecContext) {
			hdfsDaemon.start("datanode", "hdfs", "datanode")
			Expect(serves(ctx, "datanode", 9864, "/datanode.html")).To(Succeed())
		})
		It("hdfs dfsadmin -report counts one live DataNode", func(ctx SpecContext) {
			var res result
			live := tries(ctx, 60, time.Second, func() bool {
				res = inHDFS.limit(30*time.Second).run(ctx, "hdfs", "dfsadmin", "-report")
				for line := range strings.Lines(string(res.stdout)) {
					if strings.HasPrefix(line, "Live datanodes (1)") {
						return true
					}
				}
				return false
			})
			Expect(live).To(BeTrue(), "the last report: %s\n%s", res.stdout, res)
		})
		// The bean appears a moment after /isActive answers, once the NameNode has
		// started.
		It("NameNode's JMX says State active", func(ctx SpecContext) {
			body, err := httpGet(ctx, nameNodeStatus)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(body)).To(ContainSubstring(`"State" : "active"`))
		})
		It("hdfs dfs -put", func(ctx SpecContext) {
			res := inHDFS.run(ctx, "hdfs", "dfs", "-put", "/tmp/hello.txt", "/hello.txt")
			save("hdfs-put.err", res.stderr)
			succeeded(res)
		})
		It("hdfs dfs -cat prints the file", func(ctx SpecContext) {
			res := inHDFS.run(ctx, "hdfs", "dfs", "-cat", "/hello.txt")
			save("hdfs-cat.out", res.stdout)
			Expect(string(res.stdout)).To(Equal(hello), "%s", res)
		})
		It("hdfs getconf -confKey dfs.replication", func(ctx SpecContext) {
			res := inHDFS.run(ctx, "hdfs", "getconf", "-confKey", "dfs.replication")
			Expect(strings.TrimSpace(string(res.stdout))).To(Equal("1"), "%s", res)
		})
		It("DataNode stops on SIGTERM", func(ctx SpecContext) {
			Expect(stopped(ctx, "datanode", time.Minute)).To(Succeed())
		})
		It("NameNode stops on SIGTERM", func(ctx SpecContext) {
			Expect(stopped(ctx, "namenode", time.Minute)).To(Succeed())
		})
	})
}
