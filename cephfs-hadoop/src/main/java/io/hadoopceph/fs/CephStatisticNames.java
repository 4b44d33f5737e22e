package io.hadoopceph.fs;

/**
 * The names of the IOStatistics the connector publishes that Hadoop's
 * {@code StreamStatisticNames} and {@code StoreStatisticNames} have no name for. The
 * libcephfs calls are named after the C functions they end in, so that their durations
 * can be set beside libcephfs's own client performance counters.
 */
public final class CephStatisticNames {

  /** Duration of the libcephfs reads of input streams (buffer fills, direct and positioned reads). */
  public static final String CEPH_READ = "ceph_read";

  /** Duration of the libcephfs writes of output streams (buffer hand-offs and large writes). */
  public static final String CEPH_WRITE = "ceph_write";

  /** Duration of the fsyncs of output streams, by hsync() and by close() with fs.ceph.sync.on.close. */
  public static final String CEPH_FSYNC = "ceph_fsync";

  /** Reads from libcephfs into an input stream's buffer. */
  public static final String STREAM_READ_BUFFER_FILLS = "stream_read_buffer_fills";

  /** Output streams closed, the counterpart of {@code stream_read_close_operations}. */
  public static final String STREAM_WRITE_CLOSE_OPERATIONS = "stream_write_close_operations";

  private CephStatisticNames() {
  }
}
