package io.hadoopceph.fs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import io.hadoopceph.fs.CephAdmin;
import io.hadoopceph.fs.CephTestCluster;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * A writer JVM killed with SIGKILL leaves its MDS session and capabilities behind. Other
 * clients must get the file back within the file system's session timeout, or at once
 * when the dead client is evicted by its metadata tag, and no other file may suffer.
 */
public class SessionKillIT {

  private static final int BYSTANDERS = 4;
  private static final int BYSTANDER_SIZE = 3 * 1024 * 1024;
  private static String root;
  private static FileSystem fs;

  @BeforeClass
  public static void setUp() throws IOException {
    Configuration conf = CephTestCluster.conf();
    root = conf.get("ceph.root.dir");
    fs = FileSystem.newInstance(URI.create("ceph:///"), conf);
    for (int i = 0; i < BYSTANDERS; i++) {
      try (FSDataOutputStream out = fs.create(new Path("/kill/bystander-" + i), true)) {
        out.write(bystander(i));
      }
    }
  }

  @AfterClass
  public static void tearDown() throws IOException {
    if (fs != null) {
      fs.close();
    }
  }

  private static byte[] bystander(int i) {
    byte[] data = new byte[BYSTANDER_SIZE];
    new Random(i).nextBytes(data);
    return data;
  }

  private static int sessionTimeoutSeconds() throws IOException {
    String json = CephAdmin.ceph("fs", "get", "cephfs", "--format", "json");
    int at = json.indexOf("\"session_timeout\":");
    return Integer.parseInt(json.substring(at + 18).split("[,}]")[0].trim());
  }

  /** Starts a writer, waits until it has written, kills it with SIGKILL; returns its session id. */
  private static String startAndKillWriter(String file) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(
        new File(System.getProperty("java.home"), "bin/java").getPath(),
        "-Dtest.ceph.conf=" + CephTestCluster.confFile(), "-Dtest.ceph.keyring=" + CephTestCluster.keyring(),
        "-cp", System.getProperty("java.class.path"), KilledWriter.class.getName(), root, file));
    Process writer = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    BufferedReader out = new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8));
    String line;
    String id = null;
    while ((line = out.readLine()) != null) {
      if (line.startsWith("READY ")) {
        id = line.substring(6).trim();
        break;
      }
    }
    assertThat(id).as("the writer reported its session").isNotNull();
    Thread.sleep(500);
    writer.destroyForcibly();
    assertThat(writer.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(writer.exitValue()).as("killed by SIGKILL").isEqualTo(137);
    return id;
  }

  /** What another client does with the dead writer's file; returns the seconds it took. */
  private static double takeOver(String file) throws IOException {
    long start = System.nanoTime();
    Path path = new Path(file);
    try (FSDataOutputStream out = fs.append(path)) {
      out.write(KilledWriter.chunk(7));
    }
    long len = fs.getFileStatus(path).getLen();
    assertThat(len).isGreaterThanOrEqualTo(KilledWriter.CHUNK);
    double seconds = (System.nanoTime() - start) / 1e9;
    try (FSDataInputStream in = fs.open(path)) {
      byte[] chunk = new byte[KilledWriter.CHUNK];
      long full = (len / KilledWriter.CHUNK) - 1;
      for (long i = 0; i < full; i++) {
        in.readFully(chunk);
        byte expected = KilledWriter.chunk(i)[0];
        for (byte b : chunk) {
          if (b != expected && b != 0) {
            throw new AssertionError("chunk " + i + " of " + file + " holds foreign data");
          }
        }
      }
    }
    return seconds;
  }

  private static void assertBystandersIntact() throws IOException {
    for (int i = 0; i < BYSTANDERS; i++) {
      try (FSDataInputStream in = fs.open(new Path("/kill/bystander-" + i))) {
        assertThat(in.readAllBytes()).as("bystander " + i).isEqualTo(bystander(i));
      }
    }
  }

  @Test
  public void accessReturnsWithinTheSessionTimeout() throws Exception {
    int timeout = sessionTimeoutSeconds();
    startAndKillWriter("/kill/timeout.bin");
    double seconds = takeOver("/kill/timeout.bin");
    System.err.printf("take-over after SIGKILL without eviction: %.1f s (session_timeout %d s)%n", seconds, timeout);
    assertThat(seconds).isLessThanOrEqualTo(timeout + 20.0);
    assertBystandersIntact();
  }

  @Test
  public void evictionByMetadataFreesTheFileAtOnce() throws Exception {
    String id = startAndKillWriter("/kill/evict.bin");
    CephAdmin.ceph("tell", "mds.a", "client", "evict", "client_metadata.hadoop_instance=" + id);
    double seconds = takeOver("/kill/evict.bin");
    System.err.printf("take-over after SIGKILL and eviction: %.1f s%n", seconds);
    assertThat(seconds).isLessThan(10.0);
    assertBystandersIntact();
  }
}
