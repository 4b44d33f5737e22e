package io.hadoopceph.fs.contract;

import static io.hadoopceph.fs.CephStatisticNames.CEPH_FSYNC;
import static io.hadoopceph.fs.CephStatisticNames.CEPH_READ;
import static io.hadoopceph.fs.CephStatisticNames.CEPH_WRITE;
import static io.hadoopceph.fs.CephStatisticNames.STREAM_READ_BUFFER_FILLS;
import static io.hadoopceph.fs.CephStatisticNames.STREAM_WRITE_CLOSE_OPERATIONS;
import static org.apache.hadoop.fs.CommonConfigurationKeys.IOSTATISTICS_LOGGING_LEVEL;
import static org.apache.hadoop.fs.CommonConfigurationKeys.IOSTATISTICS_LOGGING_LEVEL_INFO;
import static org.apache.hadoop.fs.statistics.IOStatisticAssertions.extractStatistics;
import static org.apache.hadoop.fs.statistics.IOStatisticAssertions.verifyStatisticCounterValue;
import static org.apache.hadoop.fs.statistics.IOStatisticsSupport.retrieveIOStatistics;
import static org.apache.hadoop.fs.statistics.IOStatisticsSupport.snapshotIOStatistics;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_CREATE;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_DELETE;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_GET_FILE_STATUS;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_HFLUSH;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_HSYNC;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_LIST_STATUS;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_MKDIRS;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_OPEN;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_RENAME;
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
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_WRITE_BYTES;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_WRITE_EXCEPTIONS;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.WRITE_CURRENT_BUFFER_OPERATIONS;

import java.net.URI;
import java.util.List;
import java.util.Map;

import io.hadoopceph.fs.CephFileSystem;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.contract.AbstractContractStreamIOStatisticsTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.apache.hadoop.fs.contract.ContractTestUtils;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.test.GenericTestUtils.LogCapturer;
import org.assertj.core.api.Assertions;
import org.junit.Test;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's stream IOStatistics suite, plus what it leaves out: the counts of seeks,
 * buffer fills and libcephfs calls of a real stream, and the file system's totals.
 * {@code stream_read_bytes} counts the bytes handed to the caller, not the buffer fills,
 * so the suite's {@code readBufferSize()} stays 0; writes are counted as the caller
 * makes them, so {@code streamWritesInBlocks()} stays false.
 */
public class CephContractStreamIOStatisticsIT extends AbstractContractStreamIOStatisticsTest {

  private static final int FILE_LENGTH = 1024;

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new CephContract(conf);
  }

  @Override
  public List<String> outputStreamStatisticKeys() {
    return List.of(STREAM_WRITE_BYTES, WRITE_CURRENT_BUFFER_OPERATIONS, STREAM_WRITE_EXCEPTIONS,
        OP_HFLUSH, OP_HSYNC, STREAM_WRITE_CLOSE_OPERATIONS, CEPH_WRITE, CEPH_FSYNC);
  }

  @Override
  public List<String> inputStreamStatisticKeys() {
    return List.of(STREAM_READ_BYTES, STREAM_READ_TOTAL_BYTES, STREAM_READ_OPERATIONS,
        STREAM_READ_OPERATIONS_INCOMPLETE, STREAM_READ_EXCEPTIONS, STREAM_READ_BUFFER_FILLS,
        STREAM_READ_SEEK_OPERATIONS, STREAM_READ_SEEK_FORWARD_OPERATIONS,
        STREAM_READ_SEEK_BACKWARD_OPERATIONS, STREAM_READ_SEEK_BYTES_SKIPPED,
        STREAM_READ_SEEK_BYTES_BACKWARDS, SEEK_IN_BUFFER, STREAM_READ_SKIP_OPERATIONS,
        STREAM_READ_SKIP_BYTES, STREAM_READ_VECTORED_OPERATIONS,
        STREAM_READ_VECTORED_INCOMING_RANGES, STREAM_READ_UNBUFFERED,
        STREAM_READ_CLOSE_OPERATIONS, CEPH_READ);
  }

  @Test
  public void testStreamsAdvertiseIOStatistics() throws Throwable {
    Path path = methodPath();
    FileSystem fs = getFileSystem();
    try (FSDataOutputStream out = fs.create(path, true)) {
      Assertions.assertThat(out.hasCapability(StreamCapabilities.IOSTATISTICS)).isTrue();
    }
    try (FSDataInputStream in = fs.open(path)) {
      Assertions.assertThat(in.hasCapability(StreamCapabilities.IOSTATISTICS)).isTrue();
    }
    Assertions.assertThat(retrieveIOStatistics(fs)).as("the file system's statistics").isNotNull();
  }

  @Test
  public void testInputStreamCountsSeeksBufferFillsAndLibcephfsReads() throws Throwable {
    Path path = methodPath();
    FileSystem fs = getFileSystem();
    ContractTestUtils.writeDataset(fs, path, ContractTestUtils.dataset(FILE_LENGTH, 'a', 26),
        FILE_LENGTH, 8_000, true);
    byte[] buf128 = new byte[128];
    IOStatistics statistics;
    try (FSDataInputStream in = fs.open(path)) {
      statistics = extractStatistics(in);
      in.read();
      verifyStatisticCounterValue(statistics, STREAM_READ_BUFFER_FILLS, 1);
      verifyStatisticCounterValue(statistics, CEPH_READ, 1);
      verifyStatisticCounterValue(statistics, STREAM_READ_TOTAL_BYTES, FILE_LENGTH);

      in.seek(512);
      in.seek(0);
      verifyStatisticCounterValue(statistics, STREAM_READ_SEEK_OPERATIONS, 2);
      verifyStatisticCounterValue(statistics, STREAM_READ_SEEK_FORWARD_OPERATIONS, 1);
      verifyStatisticCounterValue(statistics, STREAM_READ_SEEK_BYTES_SKIPPED, 511);
      verifyStatisticCounterValue(statistics, STREAM_READ_SEEK_BACKWARD_OPERATIONS, 1);
      verifyStatisticCounterValue(statistics, STREAM_READ_SEEK_BYTES_BACKWARDS, 512);
      verifyStatisticCounterValue(statistics, SEEK_IN_BUFFER, 2);

      // Positioned reads bypass the buffer.
      in.readFully(0, buf128);
      verifyStatisticCounterValue(statistics, CEPH_READ, 2);
      verifyStatisticCounterValue(statistics, STREAM_READ_TOTAL_BYTES, FILE_LENGTH + 128);

      in.skip(100);
      in.unbuffer();
      in.read();
      verifyStatisticCounterValue(statistics, STREAM_READ_SKIP_OPERATIONS, 1);
      verifyStatisticCounterValue(statistics, STREAM_READ_SKIP_BYTES, 100);
      verifyStatisticCounterValue(statistics, STREAM_READ_UNBUFFERED, 1);
      verifyStatisticCounterValue(statistics, STREAM_READ_BUFFER_FILLS, 2);
      verifyStatisticCounterValue(statistics, STREAM_READ_TOTAL_BYTES, 2L * FILE_LENGTH + 128 - 100);

      in.seek(FILE_LENGTH);
      Assertions.assertThat(in.read()).isEqualTo(-1);
      verifyStatisticCounterValue(statistics, SEEK_IN_BUFFER, 2);
      verifyStatisticCounterValue(statistics, STREAM_READ_OPERATIONS, 4);
      verifyStatisticCounterValue(statistics, STREAM_READ_OPERATIONS_INCOMPLETE, 1);
      verifyStatisticCounterValue(statistics, STREAM_READ_BYTES, 130);
      verifyStatisticCounterValue(statistics, STREAM_READ_EXCEPTIONS, 0);
      verifyStatisticCounterValue(statistics, CEPH_READ + ".failures", 0);
    } finally {
      fs.delete(path, false);
    }
    verifyStatisticCounterValue(statistics, STREAM_READ_CLOSE_OPERATIONS, 1);
  }

  @Test
  public void testOutputStreamCountsLibcephfsWritesAndSyncs() throws Throwable {
    Path path = methodPath();
    FileSystem fs = getFileSystem();
    IOStatistics statistics;
    try (FSDataOutputStream out = fs.create(path, true)) {
      statistics = extractStatistics(out);
      out.write(new byte[100]);
      verifyStatisticCounterValue(statistics, STREAM_WRITE_BYTES, 100);
      verifyStatisticCounterValue(statistics, CEPH_WRITE, 0);
      out.hflush();
      out.hsync();
      verifyStatisticCounterValue(statistics, OP_HFLUSH, 1);
      verifyStatisticCounterValue(statistics, OP_HSYNC, 1);
      verifyStatisticCounterValue(statistics, CEPH_WRITE, 1);
      verifyStatisticCounterValue(statistics, WRITE_CURRENT_BUFFER_OPERATIONS, 1);
      verifyStatisticCounterValue(statistics, CEPH_FSYNC, 1);
      out.write(1);
    } finally {
      fs.delete(path, false);
    }
    verifyStatisticCounterValue(statistics, STREAM_WRITE_BYTES, 101);
    verifyStatisticCounterValue(statistics, CEPH_WRITE, 2);
    verifyStatisticCounterValue(statistics, STREAM_WRITE_EXCEPTIONS, 0);
    verifyStatisticCounterValue(statistics, STREAM_WRITE_CLOSE_OPERATIONS, 1);
  }

  @Test
  public void testFileSystemCountsOperationsAndClosedStreams() throws Throwable {
    Path dir = methodPath();
    Path file = new Path(dir, "file");
    FileSystem fs = getFileSystem();
    Map<String, Long> before = snapshotIOStatistics(retrieveIOStatistics(fs)).counters();

    fs.mkdirs(dir);
    try (FSDataOutputStream out = fs.create(file, true)) {
      out.write(new byte[10]);
    }
    fs.getFileStatus(file);
    fs.listStatus(dir);
    FSDataInputStream in = fs.open(file);
    in.readFully(new byte[10]);
    Map<String, Long> whileOpen = snapshotIOStatistics(retrieveIOStatistics(fs)).counters();
    in.close();
    fs.rename(file, new Path(dir, "renamed"));
    fs.delete(dir, true);

    Map<String, Long> after = snapshotIOStatistics(retrieveIOStatistics(fs)).counters();
    for (String op : List.of(OP_MKDIRS, OP_CREATE, OP_GET_FILE_STATUS, OP_LIST_STATUS, OP_OPEN, OP_RENAME,
        OP_DELETE)) {
      Assertions.assertThat(delta(before, after, op)).as(op).isEqualTo(1);
    }
    Assertions.assertThat(delta(before, after, STREAM_WRITE_BYTES)).isEqualTo(10);
    Assertions.assertThat(delta(before, after, STREAM_WRITE_CLOSE_OPERATIONS)).isEqualTo(1);
    Assertions.assertThat(delta(before, whileOpen, STREAM_READ_BYTES))
        .as("a stream's statistics join the file system's when it closes").isZero();
    Assertions.assertThat(delta(before, after, STREAM_READ_BYTES)).isEqualTo(10);
    Assertions.assertThat(delta(before, after, STREAM_READ_CLOSE_OPERATIONS)).isEqualTo(1);
  }

  private static long delta(Map<String, Long> before, Map<String, Long> after, String key) {
    return after.get(key) - before.get(key);
  }

  @Test
  public void testCloseLogsTheStatisticsAtTheConfiguredLevel() throws Throwable {
    Configuration conf = new Configuration(getFileSystem().getConf());
    conf.set(IOSTATISTICS_LOGGING_LEVEL, IOSTATISTICS_LOGGING_LEVEL_INFO);
    CephFileSystem fs = new CephFileSystem();
    fs.initialize(URI.create("ceph:///"), conf);
    LogCapturer logs = LogCapturer.captureLogs(LoggerFactory.getLogger(CephFileSystem.class));
    try {
      fs.getFileStatus(new Path("/"));
      fs.close();
      Assertions.assertThat(logs.getOutput()).contains("IOStatistics").contains(OP_GET_FILE_STATUS + "=1");
    } finally {
      logs.stopCapturing();
    }
  }
}
