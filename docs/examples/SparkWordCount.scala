// A Spark application of one's own, for docs/using.md: it counts the words of the text
// files under INPUT, writes the counts as CSV files under OUTPUT, reads them back and
// prints them. Paths without a scheme are on the cluster's default file system: its
// CephFS (ceph://), or its HDFS.
//
// Compiled in a client pod with the Scala compiler the image's Spark carries, and
// submitted in either deploy mode:
//
//   java -cp "/opt/spark/jars/*:$(hadoop classpath)" scala.tools.nsc.Main \
//     -usejavacp -d word-count.jar SparkWordCount.scala
//   spark-submit --class SparkWordCount word-count.jar INPUT OUTPUT
//   spark-submit --deploy-mode cluster --class SparkWordCount word-count.jar INPUT OUTPUT
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.{col, explode, length, split}

object SparkWordCount {
  def main(args: Array[String]): Unit = {
    if (args.length != 2) {
      System.err.println("usage: SparkWordCount INPUT OUTPUT")
      sys.exit(2)
    }
    val Array(input, output) = args
    val spark = SparkSession.builder.appName("SparkWordCount").getOrCreate()
    try {
      val words = spark.read.text(input)
        .select(explode(split(col("value"), "\\s+")).as("word"))
        .where(length(col("word")) > 0)
      words.groupBy("word").count().write.mode("overwrite").csv(output)
      // Read back from the file system, so that a run proves both directions.
      val counts = spark.read.csv(output).collect().map(r => s"${r.getString(0)}\t${r.getString(1)}").sorted
      counts.foreach(println)
      println(s"SparkWordCount: ${counts.length} distinct words in ${input}, written to ${output}")
    } finally {
      spark.stop()
    }
  }
}
