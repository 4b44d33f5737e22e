package io.hadoopceph.fs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.util.UUID;

import io.hadoopceph.fs.CephTestCluster;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.terasort.TeraGen;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.util.ToolRunner;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.Test;

/**
 * A MapReduce job on a MiniYARNCluster whose default file system, staging directory and
 * job history live on ceph://. YARN reaches them through FileContext, so this exercises
 * the AbstractFileSystem binding, and the containers load the connector themselves.
 */
public class MiniYarnIT {

  private static final String OPENS = System.getProperty("test.jdk.opens", "");

  @Test
  public void aJobRunsWithStagingOnCeph() throws Exception {
    // Daemons and containers read core-site.xml, whose root is the file system's root.
    String base = "/hco-tests/yarn-" + UUID.randomUUID();
    Configuration conf = CephTestCluster.baseConf();
    conf.set("fs.defaultFS", "ceph:///");
    conf.set(MRJobConfig.MR_AM_STAGING_DIR, base + "/staging");
    conf.set("mapreduce.jobhistory.intermediate-done-dir", base + "/history/intermediate");
    conf.set("mapreduce.jobhistory.done-dir", base + "/history/done");
    conf.set(MRJobConfig.MAPREDUCE_APPLICATION_CLASSPATH,
        System.getProperty("java.class.path").replace(File.pathSeparatorChar, ','));
    conf.set(MRJobConfig.MR_AM_COMMAND_OPTS, "-Xmx400m " + OPENS);
    conf.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx300m " + OPENS);
    conf.set(MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx300m " + OPENS);
    conf.setInt(MRJobConfig.MR_AM_VMEM_MB, 512);
    conf.setInt(MRJobConfig.MAP_MEMORY_MB, 512);
    conf.setInt(MRJobConfig.REDUCE_MEMORY_MB, 512);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 256);
    conf.setInt(YarnConfiguration.NM_PMEM_MB, 3072);
    conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
    // The NodeManager's directories are on the machine's disk: YARN's 90% rule would take
    // it out of service, and the job would wait forever, whenever that disk is 90% full
    // however much is free. A floor of free space, as the operator's clusters have.
    conf.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 100.0f);
    conf.setLong(YarnConfiguration.NM_MIN_PER_DISK_FREE_SPACE_MB, 1024);

    MiniMRYarnCluster cluster = new MiniMRYarnCluster("ceph-yarn", 1);
    try {
      cluster.init(conf);
      cluster.start();
      Configuration jobConf = new Configuration(cluster.getConfig());
      jobConf.setInt("mapreduce.job.maps", 2);
      int rows = 20000;
      int rc = ToolRunner.run(jobConf, new TeraGen(), new String[] {Integer.toString(rows), base + "/teragen"});
      assertThat(rc).isZero();

      FileSystem fs = FileSystem.get(jobConf);
      assertThat(fs.getUri().getScheme()).isEqualTo("ceph");
      long bytes = 0;
      for (FileStatus part : fs.listStatus(new Path(base + "/teragen"), p -> p.getName().startsWith("part-"))) {
        bytes += part.getLen();
      }
      assertThat(bytes).isEqualTo(rows * 100L);
      assertThat(fs.exists(new Path(base + "/teragen/_SUCCESS"))).isTrue();
      assertThat(fs.listStatus(new Path(base + "/staging"))).as("the job was staged on ceph").isNotEmpty();
      fs.delete(new Path(base), true);
    } finally {
      cluster.stop();
    }
  }
}
