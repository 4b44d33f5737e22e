package io.hadoopceph.fs;

import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * The {@link CephLocalityHosts} of a file that changes while the process runs (see
 * {@link WatchedFile}). A missing or unreadable file maps nothing, so block locations
 * then name only CRUSH hosts.
 */
final class CephLocalityHostsFile extends WatchedFile<CephLocalityHosts> {

  static final long CHECK_INTERVAL_NANOS = WatchedFile.CHECK_INTERVAL_NANOS;

  CephLocalityHostsFile(Path path) {
    this(path, System::nanoTime);
  }

  CephLocalityHostsFile(Path path, LongSupplier nanoClock) {
    super(path, CephLocalityHosts::parse, CephLocalityHosts.NONE, nanoClock);
  }
}
