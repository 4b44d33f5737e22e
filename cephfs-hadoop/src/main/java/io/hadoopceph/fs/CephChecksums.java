package io.hadoopceph.fs;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.zip.CRC32C;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CompositeCrcFileChecksum;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.util.DataChecksum;

/**
 * File checksums that compare equal with HDFS's in its COMPOSITE_CRC mode, so that
 * DistCp can verify a copy between HDFS and CephFS and {@code -update} can skip
 * identical files.
 *
 * <p>HDFS composes the CRC32C of every chunk of every block into one CRC, which by the
 * algebra of CRCs is the CRC32C of the whole byte stream: it does not depend on the block
 * size, the bytes per checksum or, here, the object size and pool. CephFS stores no
 * checksums a client can read, so this one is computed by reading the file. That costs a
 * full read, which is why it is off unless {@code dfs.checksum.combine.mode} is
 * {@code COMPOSITE_CRC}: the key DistCp users already set for HDFS, whose default mode
 * (MD5MD5CRC) no other store can match.
 */
final class CephChecksums {

  /** HDFS's key for the checksum mode (HdfsClientConfigKeys.DFS_CHECKSUM_COMBINE_MODE_KEY). */
  static final String COMBINE_MODE_KEY = "dfs.checksum.combine.mode";
  /** HDFS's bytes per CRC; carried in the checksum's options, not in its value. */
  static final String BYTES_PER_CHECKSUM_KEY = "dfs.bytes-per-checksum";
  static final String COMPOSITE_CRC = "COMPOSITE_CRC";

  private static final int READ_SIZE = 4 << 20;

  private final boolean enabled;
  private final int bytesPerCrc;

  private CephChecksums(boolean enabled, int bytesPerCrc) {
    this.enabled = enabled;
    this.bytesPerCrc = bytesPerCrc;
  }

  static CephChecksums from(Configuration conf) {
    String mode = conf.getTrimmed(COMBINE_MODE_KEY, "MD5MD5CRC").toUpperCase(Locale.ROOT);
    return new CephChecksums(COMPOSITE_CRC.equals(mode), conf.getInt(BYTES_PER_CHECKSUM_KEY, 512));
  }

  boolean enabled() {
    return enabled;
  }

  /** The composite CRC32C of the first {@code length} bytes of {@code in}, or all of them. */
  FileChecksum compute(InputStream in, long length) throws IOException {
    CRC32C crc = new CRC32C();
    byte[] buf = new byte[READ_SIZE];
    long left = length;
    while (left > 0) {
      int n = in.read(buf, 0, (int) Math.min(buf.length, left));
      if (n < 0) {
        break;
      }
      crc.update(buf, 0, n);
      left -= n;
    }
    return new CompositeCrcFileChecksum((int) crc.getValue(), DataChecksum.Type.CRC32C, bytesPerCrc);
  }
}
