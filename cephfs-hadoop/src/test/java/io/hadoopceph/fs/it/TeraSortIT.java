package io.hadoopceph.fs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import io.hadoopceph.fs.CephTestCluster;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.terasort.TeraGen;
import org.apache.hadoop.examples.terasort.TeraSort;
import org.apache.hadoop.examples.terasort.TeraValidate;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.junit.Test;

/**
 * TeraGen, TeraSort and TeraValidate in local mode on ceph:/// and on file://: the same
 * rows must sort to the same checksum, and TeraValidate must find no ordering error.
 */
public class TeraSortIT {

  private static final String ROWS = "200000";

  private static Map<String, String> run(Configuration conf, String base) throws Exception {
    conf.set("mapreduce.framework.name", "local");
    conf.setInt("mapreduce.job.maps", 2);
    conf.setInt("mapreduce.terasort.output.replication", 1);
    String in = base + "/in";
    String out = base + "/out";
    String report = base + "/report";
    assertThat(ToolRunner.run(new Configuration(conf), new TeraGen(), new String[] {ROWS, in})).isZero();
    assertThat(ToolRunner.run(new Configuration(conf), new TeraSort(), new String[] {in, out})).isZero();
    assertThat(ToolRunner.run(new Configuration(conf), new TeraValidate(), new String[] {out, report})).isZero();
    Path reportDir = new Path(report);
    FileSystem fs = reportDir.getFileSystem(conf);
    Map<String, String> result = new HashMap<>();
    for (FileStatus part : fs.listStatus(reportDir, p -> p.getName().startsWith("part-"))) {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(part.getPath()), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          String[] kv = line.split("\t", 2);
          result.put(kv[0], kv.length > 1 ? kv[1] : "");
        }
      }
    }
    long sortedBytes = 0;
    for (FileStatus part : fs.listStatus(new Path(out), p -> p.getName().startsWith("part-"))) {
      sortedBytes += part.getLen();
    }
    result.put("sortedBytes", Long.toString(sortedBytes));
    return result;
  }

  @Test
  public void cephSortsToTheSameChecksumAsTheLocalFileSystem() throws Exception {
    Configuration ceph = CephTestCluster.conf();
    ceph.set("fs.defaultFS", "ceph:///");
    Map<String, String> onCeph = run(ceph, "ceph:///terasort");

    File local = new File(System.getProperty("test.work.dir", "target"), "terasort-local").getAbsoluteFile();
    FileSystem.getLocal(new Configuration()).delete(new Path(local.toURI()), true);
    Configuration file = new Configuration();
    file.set("fs.defaultFS", "file:///");
    Map<String, String> onFile = run(file, local.toURI().toString());

    assertThat(onCeph).doesNotContainKey("error");
    assertThat(onFile).doesNotContainKey("error");
    assertThat(onCeph.get("checksum")).isNotBlank().isEqualTo(onFile.get("checksum"));
    assertThat(onCeph.get("sortedBytes")).isEqualTo(Long.toString(Long.parseLong(ROWS) * 100));
    assertThat(onCeph.get("sortedBytes")).isEqualTo(onFile.get("sortedBytes"));
  }
}
