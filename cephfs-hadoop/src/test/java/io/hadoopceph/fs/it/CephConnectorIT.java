package io.hadoopceph.fs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.hadoopceph.fs.CephAdmin;
import io.hadoopceph.fs.CephFileSystem;
import io.hadoopceph.fs.CephFsConfig;
import io.hadoopceph.fs.CephTestCluster;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.io.IOUtils;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** What the contract suites do not cover: layouts, pools, locality, sessions, URIs. */
public class CephConnectorIT {

  private static String base;

  @BeforeClass
  public static void createBase() throws IOException {
    base = "/hco-tests/connector-" + UUID.randomUUID();
    try (FileSystem fs = newFs(CephTestCluster.baseConf())) {
      fs.mkdirs(new Path(base));
    }
  }

  @AfterClass
  public static void removeBase() throws IOException {
    try (FileSystem fs = newFs(CephTestCluster.baseConf())) {
      fs.delete(new Path(base), true);
    }
  }

  private static FileSystem newFs(Configuration conf) throws IOException {
    return FileSystem.newInstance(URI.create("ceph:///"), conf);
  }

  private static byte[] randomBytes(int n, long seed) {
    byte[] data = new byte[n];
    new Random(seed).nextBytes(data);
    return data;
  }

  private static void write(FileSystem fs, Path p, byte[] data) throws IOException {
    try (FSDataOutputStream out = fs.create(p, true)) {
      out.write(data);
    }
  }

  private static byte[] read(FileSystem fs, Path p) throws IOException {
    try (FSDataInputStream in = fs.open(p)) {
      return in.readAllBytes();
    }
  }

  private static String poolOf(FileSystem fs, Path p) throws IOException {
    return new String(fs.getXAttr(p, "ceph.file.layout.pool"), StandardCharsets.UTF_8);
  }

  private static int objectsIn(String pool) throws IOException {
    String out = CephAdmin.rados("-p", pool, "ls");
    return out.isBlank() ? 0 : out.trim().split("\n").length;
  }

  @Test
  public void filesInheritAnErasureCodedDirectoryLayout() throws IOException {
    String dir = CephTestCluster.createLaidOutDir(base + "/ec", "ec");
    try (FileSystem fs = newFs(CephTestCluster.baseConf())) {
      int before = objectsIn(CephTestCluster.ecPool());
      Path file = new Path(dir, "data.bin");
      byte[] data = randomBytes(9 * 1024 * 1024, 1);
      write(fs, file, data);
      assertThat(poolOf(fs, file)).isEqualTo(CephTestCluster.ecPool());
      assertThat(fs.getFileStatus(file).getReplication()).as("k+m of the 2+1 pool").isEqualTo((short) 3);
      assertThat(objectsIn(CephTestCluster.ecPool()) - before).as("4 MiB objects of 9 MiB")
          .isGreaterThanOrEqualTo(3);
      assertThat(read(fs, file)).isEqualTo(data);
    }
  }

  @Test
  public void anExplicitPoolOverridesTheDirectoryLayout() throws IOException {
    String dir = CephTestCluster.createLaidOutDir(base + "/ec-explicit", "ec");
    Configuration conf = CephTestCluster.baseConf();
    conf.set(CephFsConfig.DATA_POOLS, CephTestCluster.replicatedPool());
    try (FileSystem fs = newFs(conf)) {
      Path file = new Path(dir, "data.bin");
      write(fs, file, randomBytes(1024, 2));
      assertThat(poolOf(fs, file)).isEqualTo(CephTestCluster.replicatedPool());
      assertThat(fs.getFileStatus(file).getReplication()).isEqualTo((short) 2);
    }
  }

  @Test
  public void severalPoolsAreChosenByReplication() throws IOException {
    Configuration conf = CephTestCluster.baseConf();
    conf.set(CephFsConfig.DATA_POOLS, CephTestCluster.replicatedPool() + "," + CephTestCluster.ecPool());
    try (FileSystem fs = newFs(conf)) {
      Path three = new Path(base + "/by-replication/three");
      try (FSDataOutputStream out = fs.create(three, true, 4096, (short) 3, 1 << 20)) {
        out.write(1);
      }
      Path two = new Path(base + "/by-replication/two");
      try (FSDataOutputStream out = fs.create(two, true, 4096, (short) 2, 1 << 20)) {
        out.write(1);
      }
      assertThat(poolOf(fs, three)).isEqualTo(CephTestCluster.ecPool());
      assertThat(poolOf(fs, two)).isEqualTo(CephTestCluster.replicatedPool());
    }
  }

  @Test
  public void objectSizeSetsTheLayoutOfNewFiles() throws IOException {
    Configuration conf = CephTestCluster.baseConf();
    conf.set(CephFsConfig.OBJECT_SIZE, "1m");
    try (FileSystem fs = newFs(conf)) {
      Path file = new Path(base + "/object-size.bin");
      write(fs, file, randomBytes(3 * 1024 * 1024, 3));
      String size = new String(fs.getXAttr(file, "ceph.file.layout.object_size"), StandardCharsets.UTF_8);
      assertThat(size).isEqualTo("1048576");
      assertThat(fs.getFileStatus(file).getBlockSize()).isEqualTo(1048576L);
    }
  }

  /**
   * An overwrite makes a new file: it takes the layout its create asks for, and a client
   * that wrote and read the old file past 4 MiB can write the new one (truncating in
   * place left libcephfs 16 waiting for a larger max_size it never requested).
   */
  @Test(timeout = 120_000)
  public void anOverwriteReplacesTheFileWithTheLayoutAskedFor() throws IOException {
    Path file = new Path(base + "/overwritten.bin");
    byte[] first = randomBytes(5 * 1024 * 1024 + 17, 11);
    byte[] second = randomBytes(6 * 1024 * 1024 + 5, 12);
    Configuration small = CephTestCluster.baseConf();
    small.set(CephFsConfig.OBJECT_SIZE, "1m");
    try (FileSystem fs = newFs(small)) {
      write(fs, file, first);
      assertThat(read(fs, file)).isEqualTo(first);
      write(fs, file, second);
      assertThat(read(fs, file)).isEqualTo(second);
    }
    Configuration large = CephTestCluster.baseConf();
    large.set(CephFsConfig.OBJECT_SIZE, "4m");
    try (FileSystem fs = newFs(large)) {
      write(fs, file, first);
      String size = new String(fs.getXAttr(file, "ceph.file.layout.object_size"), StandardCharsets.UTF_8);
      assertThat(size).isEqualTo("4194304");
      assertThat(read(fs, file)).isEqualTo(first);
    }
  }

  @Test
  public void blockLocationsNameTheOsdHosts() throws IOException {
    Configuration conf = CephTestCluster.baseConf();
    conf.set(CephFsConfig.BLOCK_SIZE, "4m");
    try (FileSystem fs = newFs(conf)) {
      Path file = new Path(base + "/located.bin");
      write(fs, file, randomBytes(10 * 1024 * 1024, 4));
      FileStatus st = fs.getFileStatus(file);
      BlockLocation[] blocks = fs.getFileBlockLocations(st, 0, st.getLen());
      assertThat(blocks).hasSize(3);
      long covered = 0;
      String crushHost = CephAdmin.ceph("osd", "find", "0", "--format", "json");
      for (BlockLocation b : blocks) {
        assertThat(b.getOffset()).isEqualTo(covered);
        covered += b.getLength();
        assertThat(b.getHosts()).isNotEmpty();
        assertThat(b.getTopologyPaths()).allMatch(t -> t.startsWith("/"));
        for (String host : b.getHosts()) {
          assertThat(crushHost).contains("\"host\":\"" + host + "\"");
        }
      }
      assertThat(covered).isEqualTo(st.getLen());
      assertThat(fs.getFileBlockLocations(st, st.getLen() + 1, 10)).isEmpty();
    }
  }

  @Test
  public void statusComesFromStatfs() throws IOException {
    try (FileSystem fs = newFs(CephTestCluster.baseConf())) {
      FsStatus status = fs.getStatus();
      assertThat(status.getCapacity()).isGreaterThan(0);
      assertThat(status.getRemaining()).isGreaterThan(0).isLessThanOrEqualTo(status.getCapacity());
      assertThat(status.getUsed()).isEqualTo(status.getCapacity() - status.getRemaining());
    }
  }

  @Test
  public void recursiveStatisticsConvergeToTheExactSummary() throws Exception {
    Configuration conf = CephTestCluster.baseConf();
    conf.setBoolean(CephFsConfig.RSTATS_CONTENT_SUMMARY, true);
    try (FileSystem rstats = newFs(conf); FileSystem exact = newFs(CephTestCluster.baseConf())) {
      Path dir = new Path(base + "/summary");
      for (int i = 0; i < 3; i++) {
        write(exact, new Path(dir, "d" + i + "/f"), randomBytes(1000 + i, i));
      }
      ContentSummary expected = exact.getContentSummary(dir);
      assertThat(expected.getFileCount()).isEqualTo(3);
      assertThat(expected.getDirectoryCount()).isEqualTo(4);
      assertThat(expected.getLength()).isEqualTo(3003);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      ContentSummary fast = rstats.getContentSummary(dir);
      while (!sameCounts(expected, fast) && System.nanoTime() < deadline) {
        Thread.sleep(500);
        fast = rstats.getContentSummary(dir);
      }
      assertThat(fast.toString()).isEqualTo(expected.toString());
    }
  }

  private static boolean sameCounts(ContentSummary a, ContentSummary b) {
    return a.getLength() == b.getLength() && a.getFileCount() == b.getFileCount()
        && a.getDirectoryCount() == b.getDirectoryCount();
  }

  @Test
  public void anAuthorityNamesTheMonitors() throws IOException {
    String mon = System.getProperty("test.ceph.mon", "127.0.0.1:16789");
    Configuration conf = CephTestCluster.baseConf();
    try (FileSystem fs = FileSystem.newInstance(URI.create("ceph://" + mon + "/"), conf)) {
      assertThat(fs.getUri()).isEqualTo(URI.create("ceph://" + mon + "/"));
      Path file = new Path("ceph://" + mon + base + "/authority.txt");
      write(fs, file, "hello".getBytes(StandardCharsets.UTF_8));
      assertThat(fs.getFileStatus(file).getPath().toUri().getAuthority()).isEqualTo(mon);
    }
    Configuration wrongMon = CephTestCluster.baseConf();
    wrongMon.set("ceph.conf.options", "client_mount_timeout=5");
    try (FileSystem fs = FileSystem.newInstance(URI.create("ceph://127.0.0.1:1/"), wrongMon)) {
      throw new AssertionError("mounted through a monitor address that has no monitor: " + fs.getUri());
    } catch (IOException expected) {
      assertThat(expected).hasMessageContaining("cannot mount");
    }
  }

  @Test
  public void theAbstractFileSystemBindingWorks() throws IOException {
    FileContext fc = FileContext.getFileContext(URI.create("ceph:///"), CephTestCluster.baseConf());
    Path file = new Path(base + "/filecontext.txt");
    try (FSDataOutputStream out = fc.create(file, EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE),
        Options.CreateOpts.createParent())) {
      out.write("through FileContext".getBytes(StandardCharsets.UTF_8));
    }
    try (FSDataInputStream in = fc.open(file)) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("through FileContext");
    }
    assertThat(fc.getFileStatus(file).getLen()).isEqualTo(19);
    fc.rename(file, new Path(base + "/filecontext-renamed.txt"));
    assertThat(fc.util().exists(file)).isFalse();
  }

  @Test
  public void hflushedDataIsVisibleToAnotherClient() throws IOException {
    try (FileSystem writerFs = newFs(CephTestCluster.baseConf());
         FileSystem readerFs = newFs(CephTestCluster.baseConf())) {
      Path file = new Path(base + "/hflush.bin");
      byte[] data = randomBytes(100_000, 5);
      try (FSDataOutputStream out = writerFs.create(file, true)) {
        assertThat(out.hasCapability(StreamCapabilities.HFLUSH)).isTrue();
        assertThat(out.hasCapability(StreamCapabilities.HSYNC)).isTrue();
        out.write(data);
        out.hflush();
        assertThat(readerFs.getFileStatus(file).getLen()).isEqualTo(data.length);
        assertThat(read(readerFs, file)).isEqualTo(data);
        out.write(data);
        out.hsync();
        assertThat(readerFs.getFileStatus(file).getLen()).isEqualTo(2L * data.length);
      }
    }
  }

  /** The JNI loader's banner must not reach stdout, where `hadoop fs -cat` writes data. */
  @Test
  public void catPrintsOnlyTheFileContent() throws Exception {
    Path file = new Path(base + "/cat.txt");
    byte[] data = "line one\nline two\n".getBytes(StandardCharsets.UTF_8);
    try (FileSystem fs = newFs(CephTestCluster.baseConf())) {
      write(fs, file, data);
    }
    java.nio.file.Path confDir = Files.createTempDirectory("core-site");
    Configuration site = new Configuration(false);
    for (Map.Entry<String, String> e : CephTestCluster.baseConf()) {
      if (e.getKey().startsWith("ceph.") || e.getKey().startsWith("fs.ceph.")
          || e.getKey().startsWith("fs.AbstractFileSystem.ceph.")) {
        site.set(e.getKey(), e.getValue());
      }
    }
    try (OutputStream out = Files.newOutputStream(confDir.resolve("core-site.xml"))) {
      site.writeXml(out);
    }
    // As in a Hadoop distribution, logs go to stderr; stdout carries only data.
    Files.writeString(confDir.resolve("log4j.properties"), "log4j.rootLogger=WARN,console\n"
        + "log4j.appender.console=org.apache.log4j.ConsoleAppender\n"
        + "log4j.appender.console.target=System.err\n"
        + "log4j.appender.console.layout=org.apache.log4j.PatternLayout\n");
    List<String> cmd = new ArrayList<>(List.of(
        new File(System.getProperty("java.home"), "bin/java").getPath(),
        "-cp", confDir + File.pathSeparator + System.getProperty("java.class.path"),
        "org.apache.hadoop.fs.FsShell"));
    cmd.addAll(List.of("-cat", "ceph://" + file.toUri().getPath()));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    try (InputStream in = p.getInputStream()) {
      IOUtils.copyBytes(in, stdout, 4096, false);
    }
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
    assertThat(stdout.toString(StandardCharsets.UTF_8)).isEqualTo(new String(data, StandardCharsets.UTF_8));
  }

  @Test
  public void closeUnmountsAndFurtherCallsFail() throws IOException {
    FileSystem fs = newFs(CephTestCluster.baseConf());
    String id = ((CephFileSystem) fs).getClientInstanceId();
    assertThat(CephAdmin.ceph("tell", "mds.a", "session", "ls")).contains(id);
    fs.close();
    assertThat(CephAdmin.ceph("tell", "mds.a", "session", "ls")).doesNotContain(id);
  }
}
