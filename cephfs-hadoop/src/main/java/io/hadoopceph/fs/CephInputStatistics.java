package io.hadoopceph.fs;

import static io.hadoopceph.fs.CephStatisticNames.CEPH_READ;
import static io.hadoopceph.fs.CephStatisticNames.STREAM_READ_BUFFER_FILLS;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.SEEK_IN_BUFFER;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_BYTES;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_CLOSE_OPERATIONS;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_EXCEPTIONS;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_OPERATIONS;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_OPERATIONS_INCOMPLETE;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_SEEK_BACKWARD_OPERATIONS;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_SEEK_BYTES_BACKWARDS;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_SEEK_BYTES_SKIPPED;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_SEEK_FORWARD_OPERATIONS;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_SEEK_OPERATIONS;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_SKIP_BYTES;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_SKIP_OPERATIONS;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_TOTAL_BYTES;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_UNBUFFERED;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_VECTORED_INCOMING_RANGES;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_VECTORED_OPERATIONS;
import static org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding.iostatisticsStore;
import static org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding.trackDuration;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsAggregator;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;
import org.apache.hadoop.util.functional.CallableRaisingIOE;

/**
 * The IOStatistics of one {@link CephInputStream}. {@code stream_read_bytes} are the
 * bytes handed to the caller and {@code stream_read_total_bytes} those libcephfs
 * returned, so the difference shows what buffer fills fetched and nobody read. On close
 * the stream's statistics are added to its file system's, once.
 */
final class CephInputStatistics implements IOStatisticsSource {

  static final String[] COUNTERS = {
      STREAM_READ_BYTES,
      STREAM_READ_TOTAL_BYTES,
      STREAM_READ_OPERATIONS,
      STREAM_READ_OPERATIONS_INCOMPLETE,
      STREAM_READ_EXCEPTIONS,
      STREAM_READ_BUFFER_FILLS,
      STREAM_READ_SEEK_OPERATIONS,
      STREAM_READ_SEEK_FORWARD_OPERATIONS,
      STREAM_READ_SEEK_BACKWARD_OPERATIONS,
      STREAM_READ_SEEK_BYTES_SKIPPED,
      STREAM_READ_SEEK_BYTES_BACKWARDS,
      SEEK_IN_BUFFER,
      STREAM_READ_SKIP_OPERATIONS,
      STREAM_READ_SKIP_BYTES,
      STREAM_READ_VECTORED_OPERATIONS,
      STREAM_READ_VECTORED_INCOMING_RANGES,
      STREAM_READ_UNBUFFERED,
      STREAM_READ_CLOSE_OPERATIONS,
  };

  static final String[] DURATIONS = {CEPH_READ};

  private final IOStatisticsStore store = iostatisticsStore()
      .withCounters(COUNTERS)
      .withDurationTracking(DURATIONS)
      .build();
  private final IOStatisticsAggregator closedStreams;
  private final AtomicBoolean closed = new AtomicBoolean();
  // Held rather than looked up by name: read() of a single byte updates them on every call.
  private final AtomicLong bytesRead = store.getCounterReference(STREAM_READ_BYTES);
  private final AtomicLong readOperations = store.getCounterReference(STREAM_READ_OPERATIONS);
  private final AtomicLong incompleteReads = store.getCounterReference(STREAM_READ_OPERATIONS_INCOMPLETE);

  /** @param closedStreams where the statistics go when the stream closes */
  CephInputStatistics(IOStatisticsAggregator closedStreams) {
    this.closedStreams = closedStreams;
  }

  /**
   * A read call that asked for {@code requested} bytes and returned {@code returned}
   * ({@code -1} at the end of the file). Calls for zero bytes never reach the file and
   * are not counted.
   */
  void readCompleted(int requested, int returned) {
    readOperations.incrementAndGet();
    if (returned > 0) {
      bytesRead.addAndGet(returned);
    }
    if (returned < requested) {
      incompleteReads.incrementAndGet();
    }
  }

  /** Runs one libcephfs read, which returns the bytes it read or throws. */
  long cephRead(CallableRaisingIOE<Long> read) throws IOException {
    try {
      long n = trackDuration(store, CEPH_READ, read);
      store.incrementCounter(STREAM_READ_TOTAL_BYTES, Math.max(0, n));
      return n;
    } catch (IOException | RuntimeException e) {
      store.incrementCounter(STREAM_READ_EXCEPTIONS);
      throw e;
    }
  }

  void bufferFilled() {
    store.incrementCounter(STREAM_READ_BUFFER_FILLS);
  }

  /**
   * A seek from {@code from} to {@code to}; {@code inBuffer} when the next read at
   * {@code to} is served from the stream's buffer without a call into libcephfs.
   */
  void seeked(long from, long to, boolean inBuffer) {
    store.incrementCounter(STREAM_READ_SEEK_OPERATIONS);
    if (to > from) {
      store.incrementCounter(STREAM_READ_SEEK_FORWARD_OPERATIONS);
      store.incrementCounter(STREAM_READ_SEEK_BYTES_SKIPPED, to - from);
    } else if (to < from) {
      store.incrementCounter(STREAM_READ_SEEK_BACKWARD_OPERATIONS);
      store.incrementCounter(STREAM_READ_SEEK_BYTES_BACKWARDS, from - to);
    }
    if (inBuffer) {
      store.incrementCounter(SEEK_IN_BUFFER);
    }
  }

  void skipped(long bytes) {
    store.incrementCounter(STREAM_READ_SKIP_OPERATIONS);
    store.incrementCounter(STREAM_READ_SKIP_BYTES, bytes);
  }

  void vectoredRead(int ranges) {
    store.incrementCounter(STREAM_READ_VECTORED_OPERATIONS);
    store.incrementCounter(STREAM_READ_VECTORED_INCOMING_RANGES, ranges);
  }

  void unbuffered() {
    store.incrementCounter(STREAM_READ_UNBUFFERED);
  }

  /** Counts the close and hands the statistics to the file system; later calls do nothing. */
  void closed() {
    if (closed.compareAndSet(false, true)) {
      store.incrementCounter(STREAM_READ_CLOSE_OPERATIONS);
      closedStreams.aggregate(store);
    }
  }

  @Override
  public IOStatistics getIOStatistics() {
    return store;
  }
}
