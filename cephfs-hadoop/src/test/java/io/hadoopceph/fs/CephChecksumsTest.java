package io.hadoopceph.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Random;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CompositeCrcFileChecksum;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.util.CrcComposer;
import org.apache.hadoop.util.CrcUtil;
import org.apache.hadoop.util.DataChecksum;
import org.junit.Test;

public class CephChecksumsTest {

  private static CephChecksums composite() {
    Configuration conf = new Configuration(false);
    conf.set(CephChecksums.COMBINE_MODE_KEY, "composite_crc");
    return CephChecksums.from(conf);
  }

  private static byte[] data(int n) {
    byte[] b = new byte[n];
    new Random(42).nextBytes(b);
    return b;
  }

  /**
   * What HDFS computes: a CRC32C per chunk of bytesPerCrc within each block, composed by
   * Hadoop's own CrcComposer, blocks composed in turn.
   */
  private static int hdfsComposite(byte[] b, int blockSize, int bytesPerCrc) throws IOException {
    CrcComposer file = CrcComposer.newCrcComposer(DataChecksum.Type.CRC32C, Long.MAX_VALUE);
    for (int block = 0; block < b.length; block += blockSize) {
      int blockLen = Math.min(blockSize, b.length - block);
      CrcComposer chunks = CrcComposer.newCrcComposer(DataChecksum.Type.CRC32C, Long.MAX_VALUE);
      for (int off = block; off < block + blockLen; off += bytesPerCrc) {
        int len = Math.min(bytesPerCrc, block + blockLen - off);
        DataChecksum sum = DataChecksum.newDataChecksum(DataChecksum.Type.CRC32C, bytesPerCrc);
        sum.update(b, off, len);
        chunks.update((int) sum.getValue(), len);
      }
      file.update(CrcUtil.readInt(chunks.digest(), 0), blockLen);
    }
    return CrcUtil.readInt(file.digest(), 0);
  }

  @Test
  public void offUnlessTheCompositeModeIsAsked() {
    assertThat(CephChecksums.from(new Configuration(false)).enabled()).isFalse();
    Configuration conf = new Configuration(false);
    conf.set(CephChecksums.COMBINE_MODE_KEY, "MD5MD5CRC");
    assertThat(CephChecksums.from(conf).enabled()).isFalse();
    assertThat(composite().enabled()).isTrue();
  }

  @Test
  public void equalsWhatHdfsComposesForAnyBlockSize() throws IOException {
    byte[] b = data(3 * 1024 * 1024 + 777);
    FileChecksum ours = composite().compute(new ByteArrayInputStream(b), Long.MAX_VALUE);
    for (int blockSize : new int[] {1 << 20, 3 << 19, 128 << 20}) {
      for (int bytesPerCrc : new int[] {512, 4096}) {
        FileChecksum hdfs = new CompositeCrcFileChecksum(hdfsComposite(b, blockSize, bytesPerCrc), DataChecksum.Type.CRC32C, bytesPerCrc);
        assertThat(ours).as("block size %d, %d bytes per CRC", blockSize, bytesPerCrc).isEqualTo(hdfs);
      }
    }
  }

  @Test
  public void oneChangedByteChangesIt() throws IOException {
    byte[] b = data(1 << 20);
    FileChecksum before = composite().compute(new ByteArrayInputStream(b), Long.MAX_VALUE);
    b[123456] ^= 1;
    assertThat(composite().compute(new ByteArrayInputStream(b), Long.MAX_VALUE)).isNotEqualTo(before);
  }

  @Test
  public void coversOnlyThePrefixAskedFor() throws IOException {
    byte[] b = data(100000);
    byte[] prefix = java.util.Arrays.copyOf(b, 4096);
    assertThat(composite().compute(new ByteArrayInputStream(b), 4096))
        .isEqualTo(composite().compute(new ByteArrayInputStream(prefix), Long.MAX_VALUE));
  }

  @Test
  public void anEmptyFileHasTheEmptyCrc() throws IOException {
    FileChecksum empty = composite().compute(new ByteArrayInputStream(new byte[0]), Long.MAX_VALUE);
    assertThat(empty.getAlgorithmName()).isEqualTo("COMPOSITE-CRC32C");
    assertThat(empty.getBytes()).containsExactly(0, 0, 0, 0);
  }
}
