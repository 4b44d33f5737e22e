package io.hadoopceph.fs;

import static io.hadoopceph.fs.CephStatisticNames.CEPH_FSYNC;
import static io.hadoopceph.fs.CephStatisticNames.CEPH_WRITE;
import static io.hadoopceph.fs.CephStatisticNames.STREAM_WRITE_CLOSE_OPERATIONS;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_HFLUSH;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_HSYNC;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_WRITE_BYTES;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_WRITE_EXCEPTIONS;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.WRITE_CURRENT_BUFFER_OPERATIONS;
import static org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding.iostatisticsStore;
import static org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding.trackDuration;
import static org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding.trackDurationOfInvocation;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsAggregator;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;
import org.apache.hadoop.util.functional.CallableRaisingIOE;
import org.apache.hadoop.util.functional.InvocationRaisingIOE;

/**
 * The IOStatistics of one {@link CephOutputStream}. {@code stream_write_bytes} counts
 * bytes as the caller hands them over, buffered or not, so it leads what libcephfs has
 * seen by up to a buffer. On close the stream's statistics are added to its file
 * system's, once.
 */
final class CephOutputStatistics implements IOStatisticsSource {

  static final String[] COUNTERS = {
      STREAM_WRITE_BYTES,
      WRITE_CURRENT_BUFFER_OPERATIONS,
      STREAM_WRITE_EXCEPTIONS,
      OP_HFLUSH,
      OP_HSYNC,
      STREAM_WRITE_CLOSE_OPERATIONS,
  };

  static final String[] DURATIONS = {CEPH_WRITE, CEPH_FSYNC};

  private final IOStatisticsStore store = iostatisticsStore()
      .withCounters(COUNTERS)
      .withDurationTracking(DURATIONS)
      .build();
  private final IOStatisticsAggregator closedStreams;
  private final AtomicBoolean closed = new AtomicBoolean();
  // Held rather than looked up by name: write() of a single byte updates it on every call.
  private final AtomicLong bytesWritten = store.getCounterReference(STREAM_WRITE_BYTES);

  /** @param closedStreams where the statistics go when the stream closes */
  CephOutputStatistics(IOStatisticsAggregator closedStreams) {
    this.closedStreams = closedStreams;
  }

  void accepted(long bytes) {
    bytesWritten.addAndGet(bytes);
  }

  /** Runs one libcephfs write, which throws unless it wrote everything. */
  void cephWrite(CallableRaisingIOE<Long> write) throws IOException {
    try {
      trackDuration(store, CEPH_WRITE, write);
    } catch (IOException | RuntimeException e) {
      store.incrementCounter(STREAM_WRITE_EXCEPTIONS);
      throw e;
    }
  }

  void cephFsync(InvocationRaisingIOE fsync) throws IOException {
    try {
      trackDurationOfInvocation(store, CEPH_FSYNC, fsync);
    } catch (IOException | RuntimeException e) {
      store.incrementCounter(STREAM_WRITE_EXCEPTIONS);
      throw e;
    }
  }

  /** The buffer's contents went to libcephfs; writes large enough to bypass it are not counted. */
  void bufferWritten() {
    store.incrementCounter(WRITE_CURRENT_BUFFER_OPERATIONS);
  }

  void hflushed() {
    store.incrementCounter(OP_HFLUSH);
  }

  void hsynced() {
    store.incrementCounter(OP_HSYNC);
  }

  /** Counts the close and hands the statistics to the file system; later calls do nothing. */
  void closed() {
    if (closed.compareAndSet(false, true)) {
      store.incrementCounter(STREAM_WRITE_CLOSE_OPERATIONS);
      closedStreams.aggregate(store);
    }
  }

  @Override
  public IOStatistics getIOStatistics() {
    return store;
  }
}
