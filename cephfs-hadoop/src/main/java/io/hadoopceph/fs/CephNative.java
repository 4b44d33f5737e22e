package io.hadoopceph.fs;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads libcephfs-jni without letting its loader's banner reach standard output, where
 * it would corrupt the data of {@code hadoop fs -cat} and of streaming jobs.
 */
final class CephNative {

  private static final Logger LOG = LoggerFactory.getLogger(CephNative.class);
  private static boolean loaded;

  private CephNative() {
  }

  static synchronized void load() {
    if (loaded) {
      return;
    }
    PrintStream stdout = System.out;
    ByteArrayOutputStream banner = new ByteArrayOutputStream();
    try (PrintStream capture = new PrintStream(banner, true, StandardCharsets.UTF_8)) {
      System.setOut(capture);
      Class.forName("com.ceph.fs.CephMount", true, CephNative.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("libcephfs.jar is not on the classpath", e);
    } finally {
      System.setOut(stdout);
    }
    LOG.debug("libcephfs-jni: {}", banner.toString(StandardCharsets.UTF_8).trim());
    loaded = true;
  }
}
