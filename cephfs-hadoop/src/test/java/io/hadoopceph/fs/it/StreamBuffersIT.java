package io.hadoopceph.fs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import java.util.Random;
import java.util.UUID;

import io.hadoopceph.fs.CephFileSystem;
import io.hadoopceph.fs.CephFsConfig;
import io.hadoopceph.fs.CephTestCluster;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The streams' buffering, byte for byte: every kind of read and write the streams have
 * (single bytes, small and odd-offset arrays, arrays larger than the buffers, hflush in
 * between, positioned reads) on files around the buffers' sizes, read back by a client
 * with other buffer sizes. One client's buffers are small so that every boundary (and
 * every choice of {@code CephTransfers} between buffering, exact copies and passing an
 * array straight through) is crossed many times.
 */
public class StreamBuffersIT {

  private static final int READ_BUFFER = 64 * 1024;
  private static final int WRITE_BUFFER = 256 * 1024;
  private static final int[] SIZES = {0, 1, READ_BUFFER - 1, READ_BUFFER, WRITE_BUFFER + 1, 3 * WRITE_BUFFER + 12345};

  private static CephFileSystem smallFs;
  private static CephFileSystem defaultFs;
  private static Path base;

  @BeforeClass
  public static void mount() throws IOException {
    Configuration small = CephTestCluster.baseConf();
    small.setInt(CephFsConfig.READ_BUFFER_SIZE, READ_BUFFER);
    small.setInt(CephFsConfig.WRITE_BUFFER_SIZE, WRITE_BUFFER);
    smallFs = newFs(small);
    defaultFs = newFs(CephTestCluster.baseConf());
    base = new Path("/hco-tests/buffers-" + UUID.randomUUID());
    smallFs.mkdirs(base);
  }

  @AfterClass
  public static void unmount() throws IOException {
    if (smallFs != null) {
      smallFs.delete(base, true);
      smallFs.close();
    }
    if (defaultFs != null) {
      defaultFs.close();
    }
  }

  private static CephFileSystem newFs(Configuration conf) throws IOException {
    CephFileSystem fs = new CephFileSystem();
    fs.initialize(URI.create("ceph:///"), conf);
    return fs;
  }

  @Test
  public void defaultBuffersReadWhatSmallBuffersWrote() throws IOException {
    crossCheck(smallFs, defaultFs, "small-to-default");
  }

  @Test
  public void smallBuffersReadWhatDefaultBuffersWrote() throws IOException {
    crossCheck(defaultFs, smallFs, "default-to-small");
  }

  @Test
  public void smallBuffersReadWhatTheyWrote() throws IOException {
    crossCheck(smallFs, smallFs, "small-to-small");
  }

  private static void crossCheck(CephFileSystem writer, CephFileSystem reader, String name) throws IOException {
    for (int size : SIZES) {
      byte[] expected = data(size, size);
      Path p = new Path(base, name + "-" + size);
      writeMixed(writer, p, expected);
      assertThat(reader.getFileStatus(p).getLen()).as("length of %s", p).isEqualTo(size);
      assertThat(readMixed(reader, p, size)).as("sequential reads of %s", p).isEqualTo(expected);
      assertPositionedReads(reader, p, expected);
    }
  }

  private static byte[] data(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }

  /** Single bytes, small pieces at odd offsets, and pieces bigger than the write buffer. */
  private static void writeMixed(CephFileSystem fs, Path p, byte[] data) throws IOException {
    try (FSDataOutputStream out = fs.create(p, true)) {
      int pos = 0;
      int step = 0;
      while (pos < data.length) {
        int kind = step++ % 4;
        if (kind == 0) {
          out.write(data[pos++]);
          continue;
        }
        int len = kind == 1 ? 777 : kind == 2 ? 40000 : WRITE_BUFFER + 4321;
        len = Math.min(len, data.length - pos);
        if (kind == 3) {
          out.write(data, pos, len);
        } else {
          // Not from the array's start: the bytes before must not be written.
          byte[] padded = new byte[len + 13];
          System.arraycopy(data, pos, padded, 13, len);
          out.write(padded, 13, len);
        }
        pos += len;
        if (step % 7 == 0) {
          out.hflush();
        }
      }
    }
  }

  /** Single bytes, odd-offset pieces and whole-array reads larger than the read buffer. */
  private static byte[] readMixed(CephFileSystem fs, Path p, int size) throws IOException {
    byte[] got = new byte[size];
    try (FSDataInputStream in = fs.open(p)) {
      int pos = 0;
      int step = 0;
      while (pos < size) {
        int kind = step++ % 3;
        if (kind == 0) {
          int b = in.read();
          assertThat(b).as("read() at %d of %d", pos, size).isNotNegative();
          got[pos++] = (byte) b;
          continue;
        }
        int len = Math.min(kind == 1 ? 5000 : 3 * READ_BUFFER, size - pos);
        byte[] into = kind == 1 ? new byte[len + 7] : new byte[len];
        int off = kind == 1 ? 7 : 0;
        int n = in.read(into, off, len);
        assertThat(n).as("read of %d at %d of %d", len, pos, size).isPositive();
        System.arraycopy(into, off, got, pos, n);
        pos += n;
      }
      assertThat(in.read()).as("read() at the end").isEqualTo(-1);
      assertThat(in.read(new byte[10], 0, 10)).as("read(byte[]) at the end").isEqualTo(-1);
    }
    return got;
  }

  private static void assertPositionedReads(CephFileSystem fs, Path p, byte[] expected) throws IOException {
    int size = expected.length;
    try (FSDataInputStream in = fs.open(p)) {
      for (int at : new int[] {0, size / 3, Math.max(0, size - 100)}) {
        int len = Math.min(size - at, 70000);
        byte[] into = new byte[len + 5];
        in.readFully(at, into, 5, len);
        assertThat(Arrays.copyOfRange(into, 5, 5 + len)).as("pread of %d at %d", len, at)
            .isEqualTo(Arrays.copyOfRange(expected, at, at + len));
      }
      if (size > 0) {
        assertThatThrownBy(() -> in.readFully(size - 1, new byte[2], 0, 2))
            .isInstanceOf(EOFException.class);
      }
    }
  }
}
