//go:build imagetest

package images

import (
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// sparkScript counts the words of hello on CephFS with Spark's Dataset API, writes the
// counts to CephFS as CSV and reads them back: the executors, in the NodeManager's
// containers, read and write ceph:// through Hadoop's class path.
const sparkScript = `
val counts = spark.read.textFile("/spark/in.txt").flatMap(_.split(" ")).groupByKey(identity).count()
counts.write.mode("overwrite").csv("/spark/out")
val back = spark.read.csv("/spark/out").collect().map(r => r.getString(0) + "=" + r.getString(1)).sorted
println("SPARK-RESULT " + back.mkString(","))
`

// sparkSpecs run the image's Spark on the YARN the daemons' specs started, with the
// spark-defaults.conf the operator renders for a cluster's clients mounted into
// HADOOP_CONF_DIR as in its client pods, where Spark finds it without SPARK_CONF_DIR.
func sparkSpecs() {
	Describe("Spark on YARN", func() {
		It("spark-submit reports Spark 3.5 on the image's Hadoop", func(ctx SpecContext) {
			res := inImage.run(ctx, "spark-submit", "--version")
			succeeded(res)
			Expect(string(res.stdout)+string(res.stderr)).To(ContainSubstring("version 3.5."), "%s", res)
		})
		It("spark-shell runs a job on YARN whose executors read and write CephFS, with the operator's spark-defaults.conf", func(ctx SpecContext) {
			Expect(os.WriteFile(filepath.Join(work, "volumes", "tmp", "count.scala"), []byte(sparkScript), 0o644)).To(Succeed())
			succeeded(inImage.run(ctx, "bash", "-c", "hadoop fs -mkdir -p /spark && hadoop fs -put -f /tmp/hello.txt /spark/in.txt"))

			res := inImage.limit(5*time.Minute).runLogged(ctx, filepath.Join(work, "spark-shell.log"), "spark-shell", "-I", "/tmp/count.scala")
			succeeded(res)
			log := readText(res.log)
			Expect(log).To(ContainSubstring("master = yarn"), "the master of spark-defaults.conf")
			Expect(applicationID.FindString(log)).NotTo(BeEmpty(), "a YARN application")
			Expect(log).To(ContainSubstring("SPARK-RESULT line=2,one=1,two=1"))

			out := inImage.run(ctx, "bash", "-c", "hadoop fs -cat '/spark/out/part-*' | sort")
			succeeded(out)
			Expect(string(out.stdout)).To(Equal("line,2\none,1\ntwo,1\n"), "the CSV Spark wrote to CephFS")
		})
	})
}
