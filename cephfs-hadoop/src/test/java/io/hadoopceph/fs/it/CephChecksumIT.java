package io.hadoopceph.fs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.Random;
import java.util.UUID;

import io.hadoopceph.fs.CephFsConfig;
import io.hadoopceph.fs.CephTestCluster;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.tools.DistCp;
import org.apache.hadoop.tools.DistCpOptions;
import org.apache.hadoop.tools.mapred.CopyMapper;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Checksums against a real HDFS (a MiniDFSCluster in this JVM): equal bytes give equal
 * checksums whatever the HDFS block size, the CephFS object size or pool, and DistCp
 * verifies a round trip HDFS -> CephFS -> HDFS and skips identical files on -update.
 */
public class CephChecksumIT {

  private static final int SIZE = 5 * 1024 * 1024 + 4321;
  private static MiniDFSCluster hdfs;
  private static Configuration conf;
  private static String base;

  @BeforeClass
  public static void start() throws IOException {
    conf = CephTestCluster.baseConf();
    conf.set("dfs.checksum.combine.mode", "COMPOSITE_CRC");
    conf.setLong("dfs.blocksize", 1 << 20);
    File dir = Files.createTempDirectory("hco-minidfs").toFile();
    hdfs = new MiniDFSCluster.Builder(conf, dir).numDataNodes(1).build();
    hdfs.waitActive();
    base = "/hco-tests/checksum-" + UUID.randomUUID();
    try (FileSystem ceph = ceph(conf)) {
      ceph.mkdirs(new Path(base));
    }
  }

  @AfterClass
  public static void stop() throws IOException {
    try (FileSystem ceph = ceph(CephTestCluster.baseConf())) {
      ceph.delete(new Path(base), true);
    }
    if (hdfs != null) {
      hdfs.shutdown();
    }
  }

  private static FileSystem ceph(Configuration c) throws IOException {
    return FileSystem.newInstance(URI.create("ceph:///"), c);
  }

  private static byte[] data(long seed) {
    byte[] b = new byte[SIZE];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static void write(FileSystem fs, Path p, byte[] b, long blockSize) throws IOException {
    try (FSDataOutputStream out = fs.create(p, true, 4096, fs.getDefaultReplication(p), blockSize)) {
      out.write(b);
    }
  }

  @Test
  public void equalBytesGiveHdfsChecksumsWhateverTheLayout() throws IOException {
    byte[] b = data(1);
    FileSystem h = hdfs.getFileSystem();
    write(h, new Path("/layouts/1m.bin"), b, 1 << 20);
    write(h, new Path("/layouts/2m.bin"), b, 2 << 20);
    FileChecksum expected = h.getFileChecksum(new Path("/layouts/1m.bin"));
    assertThat(expected.getAlgorithmName()).isEqualTo("COMPOSITE-CRC32C");
    assertThat(h.getFileChecksum(new Path("/layouts/2m.bin"))).isEqualTo(expected);

    for (String layout : new String[] {"replicated", "ec"}) {
      String dir = CephTestCluster.createLaidOutDir(base + "/" + layout, layout);
      for (String objectSize : new String[] {"1m", "4m"}) {
        Configuration c = new Configuration(conf);
        c.set(CephFsConfig.OBJECT_SIZE, objectSize);
        try (FileSystem ceph = ceph(c)) {
          Path p = new Path(dir, objectSize + ".bin");
          write(ceph, p, b, 64 << 20);
          assertThat(ceph.getFileChecksum(p)).as("%s pool, %s objects", layout, objectSize).isEqualTo(expected);
          assertThat(ceph.hasPathCapability(p, CommonPathCapabilities.FS_CHECKSUMS)).isTrue();
        }
      }
    }
  }

  @Test
  public void oneChangedByteChangesIt() throws IOException {
    byte[] b = data(2);
    try (FileSystem ceph = ceph(conf)) {
      Path p = new Path(base + "/changed.bin");
      write(ceph, p, b, 64 << 20);
      FileChecksum before = ceph.getFileChecksum(p);
      b[SIZE / 2] ^= 0x40;
      write(ceph, p, b, 64 << 20);
      assertThat(ceph.getFileChecksum(p)).isNotEqualTo(before);
    }
  }

  /** Prints what a checksum costs, for docs/connector.md; asserts nothing about time. */
  @Test
  public void costPerGigabyteIsAReadOfIt() throws IOException {
    byte[] chunk = data(4);
    int chunks = 256 * 1024 * 1024 / SIZE + 1;
    try (FileSystem ceph = ceph(conf)) {
      Path p = new Path(base + "/cost.bin");
      try (FSDataOutputStream out = ceph.create(p, true)) {
        for (int i = 0; i < chunks; i++) {
          out.write(chunk);
        }
      }
      long bytes = ceph.getFileStatus(p).getLen();
      long start = System.nanoTime();
      FileChecksum sum = ceph.getFileChecksum(p);
      double seconds = (System.nanoTime() - start) / 1e9;
      start = System.nanoTime();
      try (java.io.InputStream in = ceph.open(p)) {
        byte[] buf = new byte[4 << 20];
        while (in.read(buf) >= 0) {
          // the read alone, for comparison
        }
      }
      double readSeconds = (System.nanoTime() - start) / 1e9;
      assertThat(sum).isNotNull();
      System.out.printf("checksum of %d MiB: %.2f s (%.1f s per GiB); reading it alone: %.2f s%n",
          bytes >> 20, seconds, seconds * (1L << 30) / bytes, readSeconds);
    }
  }

  @Test
  public void offByDefault() throws IOException {
    try (FileSystem ceph = ceph(CephTestCluster.baseConf())) {
      Path p = new Path(base + "/default.bin");
      write(ceph, p, data(3), 64 << 20);
      assertThat(ceph.getFileChecksum(p)).isNull();
      assertThat(ceph.hasPathCapability(p, CommonPathCapabilities.FS_CHECKSUMS)).isFalse();
    }
  }

  @Test
  public void aDirectoryHasNone() throws IOException {
    try (FileSystem ceph = ceph(conf)) {
      assertThatThrownBy(() -> ceph.getFileChecksum(new Path(base))).isInstanceOf(java.io.FileNotFoundException.class);
    }
  }

  /**
   * {@code distcp -update SRC DST}: -update copies the contents of SRC into DST whether
   * or not DST exists (without it, an existing DST receives SRC itself as a child), and
   * skips the files whose length and checksum already match.
   */
  private static Job distcpUpdate(Path src, Path dst) throws Exception {
    DistCpOptions options = new DistCpOptions.Builder(java.util.Collections.singletonList(src), dst)
        .withSyncFolder(true)
        .build();
    Job job = new DistCp(new Configuration(conf), options).execute();
    assertThat(job.isSuccessful()).as("DistCp %s -> %s", src, dst).isTrue();
    return job;
  }

  private static long counter(Job job, CopyMapper.Counter counter) throws IOException {
    return job.getCounters().findCounter(counter).getValue();
  }

  @Test
  public void distcpVerifiesARoundTripAndUpdateSkipsIdenticalFiles() throws Exception {
    FileSystem h = hdfs.getFileSystem();
    Path from = new Path(h.getUri() + "/migrate/from");
    for (int i = 0; i < 3; i++) {
      write(h, new Path(from, "part-" + i), data(10 + i), 1 << 20);
    }
    Path onCeph = new Path("ceph://" + base + "/migrated");
    // DistCp compares the source's and the target's checksums after each copy and fails
    // the copy when they differ; a null checksum on either side would skip that check.
    Job first = distcpUpdate(from, onCeph);
    assertThat(counter(first, CopyMapper.Counter.COPY)).as("files copied to CephFS").isEqualTo(3);
    try (FileSystem ceph = ceph(conf)) {
      for (int i = 0; i < 3; i++) {
        assertThat(ceph.getFileChecksum(new Path(onCeph, "part-" + i)))
            .isNotNull()
            .isEqualTo(h.getFileChecksum(new Path(from, "part-" + i)));
      }
    }

    Job again = distcpUpdate(from, onCeph);
    assertThat(counter(again, CopyMapper.Counter.SKIP)).as("files skipped by -update").isEqualTo(3);
    assertThat(counter(again, CopyMapper.Counter.COPY)).as("files copied by -update").isZero();

    Path back = new Path(h.getUri() + "/migrate/back");
    Job home = distcpUpdate(onCeph, back);
    assertThat(counter(home, CopyMapper.Counter.COPY)).as("files copied back to HDFS").isEqualTo(3);
    for (int i = 0; i < 3; i++) {
      assertThat(h.getFileChecksum(new Path(back, "part-" + i))).isEqualTo(h.getFileChecksum(new Path(from, "part-" + i)));
    }
  }
}
