package io.hadoopceph.fs;

import static io.hadoopceph.fs.CephStatisticNames.CEPH_FSYNC;
import static io.hadoopceph.fs.CephStatisticNames.CEPH_WRITE;
import static io.hadoopceph.fs.CephStatisticNames.STREAM_WRITE_CLOSE_OPERATIONS;
import static org.apache.hadoop.fs.statistics.IOStatisticAssertions.verifyStatisticCounterValue;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_HFLUSH;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_HSYNC;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.SUFFIX_FAILURES;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_WRITE_BYTES;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_WRITE_EXCEPTIONS;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.WRITE_CURRENT_BUFFER_OPERATIONS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;

import org.apache.hadoop.fs.statistics.IOStatistics;
import org.junit.Test;

public class CephOutputStatisticsTest {

  private final CephFileSystemStatistics fs = new CephFileSystemStatistics();
  private final IOStatistics fileSystem = fs.getIOStatistics();
  private final CephOutputStatistics stats = fs.newOutputStream();
  private final IOStatistics published = stats.getIOStatistics();

  @Test
  public void everyCounterStartsAtZero() {
    assertThat(published.counters()).containsKeys(CephOutputStatistics.COUNTERS)
        .containsKeys(CEPH_WRITE, CEPH_FSYNC);
    assertThat(published.counters().values()).containsOnly(0L);
  }

  @Test
  public void bytesCountWhenAcceptedAndWritesWhenTheyReachLibcephfs() throws IOException {
    stats.accepted(1);
    stats.accepted(4096);
    verifyStatisticCounterValue(published, STREAM_WRITE_BYTES, 4097);
    verifyStatisticCounterValue(published, CEPH_WRITE, 0);
    stats.cephWrite(() -> 4097L);
    stats.bufferWritten();
    stats.cephWrite(() -> 8L << 20);
    verifyStatisticCounterValue(published, CEPH_WRITE, 2);
    verifyStatisticCounterValue(published, WRITE_CURRENT_BUFFER_OPERATIONS, 1);
    verifyStatisticCounterValue(published, STREAM_WRITE_BYTES, 4097);
  }

  @Test
  public void failedWritesAndFsyncsAreExceptions() {
    assertThatThrownBy(() -> stats.cephWrite(() -> {
      throw new IOException("short write");
    })).hasMessage("short write");
    assertThatThrownBy(() -> stats.cephFsync(() -> {
      throw new IOException("fsync failed");
    })).hasMessage("fsync failed");
    verifyStatisticCounterValue(published, STREAM_WRITE_EXCEPTIONS, 2);
    verifyStatisticCounterValue(published, CEPH_WRITE + SUFFIX_FAILURES, 1);
    verifyStatisticCounterValue(published, CEPH_FSYNC + SUFFIX_FAILURES, 1);
  }

  @Test
  public void hflushAndHsyncAreCounted() throws IOException {
    stats.hflushed();
    stats.cephFsync(() -> { });
    stats.hsynced();
    verifyStatisticCounterValue(published, OP_HFLUSH, 1);
    verifyStatisticCounterValue(published, OP_HSYNC, 1);
    verifyStatisticCounterValue(published, CEPH_FSYNC, 1);
  }

  @Test
  public void closeCountsOnceAndMergesIntoTheFileSystemOnce() throws IOException {
    stats.accepted(22);
    stats.cephWrite(() -> 22L);
    stats.closed();
    stats.closed();
    verifyStatisticCounterValue(published, STREAM_WRITE_CLOSE_OPERATIONS, 1);
    verifyStatisticCounterValue(fileSystem, STREAM_WRITE_CLOSE_OPERATIONS, 1);
    verifyStatisticCounterValue(fileSystem, STREAM_WRITE_BYTES, 22);
    verifyStatisticCounterValue(fileSystem, CEPH_WRITE, 1);
  }
}
