package io.hadoopceph.fs;

import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_APPEND;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_CREATE;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_CREATE_NON_RECURSIVE;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_DELETE;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_GET_FILE_STATUS;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_LIST_STATUS;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_MKDIRS;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_OPEN;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_RENAME;
import static org.apache.hadoop.fs.statistics.IOStatisticsLogging.ioStatisticsToPrettyString;
import static org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding.iostatisticsStore;
import static org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding.trackDuration;

import java.io.IOException;
import java.util.Locale;

import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;
import org.apache.hadoop.util.functional.CallableRaisingIOE;
import org.slf4j.Logger;

/**
 * The IOStatistics of one {@link CephFileSystem}: the count and duration of its
 * operations, and the sum of the statistics of its closed streams. A store aggregates
 * only the keys it was built with, so it is built with every key the streams publish.
 */
final class CephFileSystemStatistics implements IOStatisticsSource {

  static final String[] OPERATIONS = {
      OP_OPEN,
      OP_CREATE,
      OP_CREATE_NON_RECURSIVE,
      OP_APPEND,
      OP_DELETE,
      OP_RENAME,
      OP_MKDIRS,
      OP_LIST_STATUS,
      OP_GET_FILE_STATUS,
  };

  private final IOStatisticsStore store = iostatisticsStore()
      .withDurationTracking(OPERATIONS)
      .withCounters(CephInputStatistics.COUNTERS)
      .withDurationTracking(CephInputStatistics.DURATIONS)
      .withCounters(CephOutputStatistics.COUNTERS)
      .withDurationTracking(CephOutputStatistics.DURATIONS)
      .build();

  /** Runs one file system operation, counting it and, when it throws, its failure. */
  <T> T track(String operation, CallableRaisingIOE<T> call) throws IOException {
    return trackDuration(store, operation, call);
  }

  CephInputStatistics newInputStream() {
    return new CephInputStatistics(store);
  }

  CephOutputStatistics newOutputStream() {
    return new CephOutputStatistics(store);
  }

  /**
   * Logs the statistics at {@code level} (fs.iostatistics.logging.level: debug, info,
   * warn or error) through {@code log}. Hadoop's IOStatisticsLogging.logIOStatisticsAtLevel
   * logs every level but debug through its own logger, so a user who raised the level for
   * this connector's logger would not see the summary; this one keeps to the given logger.
   */
  void log(Logger log, String level) {
    switch (level.toLowerCase(Locale.ROOT)) {
      case "info":
        log.info("IOStatistics: {}", ioStatisticsToPrettyString(store));
        break;
      case "warn":
        log.warn("IOStatistics: {}", ioStatisticsToPrettyString(store));
        break;
      case "error":
        log.error("IOStatistics: {}", ioStatisticsToPrettyString(store));
        break;
      default:
        if (log.isDebugEnabled()) {
          log.debug("IOStatistics: {}", ioStatisticsToPrettyString(store));
        }
    }
  }

  @Override
  public IOStatistics getIOStatistics() {
    return store;
  }
}
