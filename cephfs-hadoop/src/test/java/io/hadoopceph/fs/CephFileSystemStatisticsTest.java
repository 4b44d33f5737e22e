package io.hadoopceph.fs;

import static org.apache.hadoop.fs.statistics.IOStatisticAssertions.verifyStatisticCounterValue;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_GET_FILE_STATUS;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_OPEN;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.SUFFIX_FAILURES;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_BYTES;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_WRITE_BYTES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.io.IOException;

import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.test.GenericTestUtils.LogCapturer;
import org.junit.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public class CephFileSystemStatisticsTest {

  private final CephFileSystemStatistics fs = new CephFileSystemStatistics();
  private final IOStatistics published = fs.getIOStatistics();

  @Test
  public void operationsCountCallsAndFailures() throws IOException {
    assertThat(fs.track(OP_OPEN, () -> "stream")).isEqualTo("stream");
    assertThatThrownBy(() -> fs.track(OP_GET_FILE_STATUS, () -> {
      throw new FileNotFoundException("/missing");
    })).isInstanceOf(FileNotFoundException.class);
    verifyStatisticCounterValue(published, OP_OPEN, 1);
    verifyStatisticCounterValue(published, OP_OPEN + SUFFIX_FAILURES, 0);
    verifyStatisticCounterValue(published, OP_GET_FILE_STATUS, 1);
    verifyStatisticCounterValue(published, OP_GET_FILE_STATUS + SUFFIX_FAILURES, 1);
  }

  /** A key the file system's store was not built with would be dropped when streams merge. */
  @Test
  public void holdsEveryStatisticOfItsStreams() {
    IOStatistics input = fs.newInputStream().getIOStatistics();
    IOStatistics output = fs.newOutputStream().getIOStatistics();
    for (IOStatistics stream : new IOStatistics[] {input, output}) {
      assertThat(published.counters()).containsKeys(stream.counters().keySet().toArray(new String[0]));
      assertThat(published.minimums()).containsKeys(stream.minimums().keySet().toArray(new String[0]));
      assertThat(published.maximums()).containsKeys(stream.maximums().keySet().toArray(new String[0]));
      assertThat(published.meanStatistics()).containsKeys(stream.meanStatistics().keySet().toArray(new String[0]));
    }
    assertThat(published.counters()).containsKeys(CephFileSystemStatistics.OPERATIONS);
  }

  @Test
  public void closedStreamsAddUp() {
    for (int i = 1; i <= 3; i++) {
      CephInputStatistics in = fs.newInputStream();
      in.readCompleted(100, 100);
      in.closed();
      CephOutputStatistics out = fs.newOutputStream();
      out.accepted(i);
      out.closed();
    }
    CephInputStatistics open = fs.newInputStream();
    open.readCompleted(5, 5);
    verifyStatisticCounterValue(published, STREAM_READ_BYTES, 300);
    verifyStatisticCounterValue(published, STREAM_WRITE_BYTES, 6);
  }

  /** The summary goes to the connector's own logger at the level asked for, not to Hadoop's. */
  @Test
  public void logsThroughTheGivenLoggerAtTheGivenLevel() throws IOException {
    Logger log = LoggerFactory.getLogger("io.hadoopceph.fs.statistics-test");
    fs.track(OP_OPEN, () -> null);
    LogCapturer logs = LogCapturer.captureLogs(log);
    try {
      fs.log(log, "debug");
      assertThat(logs.getOutput()).as("debug, with the logger at info").isEmpty();
      fs.log(log, "WARN");
      assertThat(logs.getOutput()).contains("IOStatistics").contains(OP_OPEN + "=1");
    } finally {
      logs.stopCapturing();
    }
  }
}
