package io.hadoopceph.fs;

import static io.hadoopceph.fs.CephStatisticNames.CEPH_READ;
import static io.hadoopceph.fs.CephStatisticNames.STREAM_READ_BUFFER_FILLS;
import static org.apache.hadoop.fs.statistics.IOStatisticAssertions.verifyStatisticCounterValue;
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
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.SUFFIX_FAILURES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;

import org.apache.hadoop.fs.statistics.IOStatistics;
import org.junit.Test;

public class CephInputStatisticsTest {

  private final CephFileSystemStatistics fs = new CephFileSystemStatistics();
  private final IOStatistics fileSystem = fs.getIOStatistics();
  private final CephInputStatistics stats = fs.newInputStream();
  private final IOStatistics published = stats.getIOStatistics();

  @Test
  public void everyCounterStartsAtZero() {
    assertThat(published.counters()).containsKeys(CephInputStatistics.COUNTERS).containsKey(CEPH_READ);
    assertThat(published.counters().values()).containsOnly(0L);
  }

  @Test
  public void bytesReadAreThoseReturnedAndShortReadsAreIncomplete() {
    stats.readCompleted(1, 1);
    stats.readCompleted(128, 128);
    stats.readCompleted(128, 32);
    stats.readCompleted(128, -1);
    verifyStatisticCounterValue(published, STREAM_READ_OPERATIONS, 4);
    verifyStatisticCounterValue(published, STREAM_READ_BYTES, 161);
    verifyStatisticCounterValue(published, STREAM_READ_OPERATIONS_INCOMPLETE, 2);
  }

  @Test
  public void libcephfsReadsCountTheirBytesAndDurations() throws IOException {
    assertThat(stats.cephRead(() -> 65536L)).isEqualTo(65536L);
    assertThat(stats.cephRead(() -> 0L)).as("at the end of the file").isZero();
    verifyStatisticCounterValue(published, STREAM_READ_TOTAL_BYTES, 65536);
    verifyStatisticCounterValue(published, CEPH_READ, 2);
    verifyStatisticCounterValue(published, CEPH_READ + SUFFIX_FAILURES, 0);
    verifyStatisticCounterValue(published, STREAM_READ_EXCEPTIONS, 0);
    assertThat(published.meanStatistics()).containsKey(CEPH_READ + ".mean");
    assertThat(published.meanStatistics().get(CEPH_READ + ".mean").getSamples()).isEqualTo(2);
  }

  @Test
  public void failedLibcephfsReadsAreExceptions() {
    assertThatThrownBy(() -> stats.cephRead(() -> {
      throw new IOException("read failed: -5");
    })).hasMessageContaining("-5");
    assertThatThrownBy(() -> stats.cephRead(() -> {
      throw new IllegalStateException("not mounted");
    })).isInstanceOf(IllegalStateException.class);
    verifyStatisticCounterValue(published, STREAM_READ_EXCEPTIONS, 2);
    verifyStatisticCounterValue(published, CEPH_READ + SUFFIX_FAILURES, 2);
    verifyStatisticCounterValue(published, STREAM_READ_TOTAL_BYTES, 0);
  }

  @Test
  public void seeksAreForwardBackwardOrInPlace() {
    stats.seeked(0, 1000, false);
    stats.seeked(1000, 1500, true);
    stats.seeked(1500, 200, false);
    stats.seeked(200, 200, true);
    verifyStatisticCounterValue(published, STREAM_READ_SEEK_OPERATIONS, 4);
    verifyStatisticCounterValue(published, STREAM_READ_SEEK_FORWARD_OPERATIONS, 2);
    verifyStatisticCounterValue(published, STREAM_READ_SEEK_BYTES_SKIPPED, 1500);
    verifyStatisticCounterValue(published, STREAM_READ_SEEK_BACKWARD_OPERATIONS, 1);
    verifyStatisticCounterValue(published, STREAM_READ_SEEK_BYTES_BACKWARDS, 1300);
    verifyStatisticCounterValue(published, SEEK_IN_BUFFER, 2);
  }

  @Test
  public void skipsBufferFillsVectoredReadsAndUnbuffersAreCounted() {
    stats.skipped(100);
    stats.skipped(0);
    stats.bufferFilled();
    stats.vectoredRead(3);
    stats.vectoredRead(2);
    stats.unbuffered();
    verifyStatisticCounterValue(published, STREAM_READ_SKIP_OPERATIONS, 2);
    verifyStatisticCounterValue(published, STREAM_READ_SKIP_BYTES, 100);
    verifyStatisticCounterValue(published, STREAM_READ_BUFFER_FILLS, 1);
    verifyStatisticCounterValue(published, STREAM_READ_VECTORED_OPERATIONS, 2);
    verifyStatisticCounterValue(published, STREAM_READ_VECTORED_INCOMING_RANGES, 5);
    verifyStatisticCounterValue(published, STREAM_READ_UNBUFFERED, 1);
  }

  @Test
  public void closeCountsOnceAndMergesIntoTheFileSystemOnce() throws IOException {
    stats.readCompleted(10, 10);
    stats.cephRead(() -> 10L);
    verifyStatisticCounterValue(fileSystem, STREAM_READ_BYTES, 0);
    stats.closed();
    stats.closed();
    verifyStatisticCounterValue(published, STREAM_READ_CLOSE_OPERATIONS, 1);
    verifyStatisticCounterValue(fileSystem, STREAM_READ_CLOSE_OPERATIONS, 1);
    verifyStatisticCounterValue(fileSystem, STREAM_READ_BYTES, 10);
    verifyStatisticCounterValue(fileSystem, CEPH_READ, 1);
    assertThat(fileSystem.meanStatistics().get(CEPH_READ + ".mean").getSamples()).isEqualTo(1);
  }
}
