package io.hadoopceph.fs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link CephLocalityHosts} of a file that changes while the process runs: in
 * Kubernetes a ConfigMap volume, which the kubelet updates by swapping a symbolic link to
 * a new directory. The path is looked at again (following the links) at most every
 * {@link #CHECK_INTERVAL_NANOS}, and read again when its modification time or size
 * changed. A missing or unreadable file maps nothing: a job must never fail for want of
 * a location hint.
 */
final class CephLocalityHostsFile implements Supplier<CephLocalityHosts> {

  static final long CHECK_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(5);
  private static final Logger LOG = LoggerFactory.getLogger(CephLocalityHostsFile.class);

  private final Path path;
  private final LongSupplier nanoClock;

  private boolean checked;
  private long checkedAt;
  private FileTime modified;
  private long size;
  private CephLocalityHosts hosts = CephLocalityHosts.NONE;

  CephLocalityHostsFile(Path path) {
    this(path, System::nanoTime);
  }

  CephLocalityHostsFile(Path path, LongSupplier nanoClock) {
    this.path = path;
    this.nanoClock = nanoClock;
  }

  @Override
  public synchronized CephLocalityHosts get() {
    long now = nanoClock.getAsLong();
    if (checked && now - checkedAt < CHECK_INTERVAL_NANOS) {
      return hosts;
    }
    checked = true;
    checkedAt = now;
    BasicFileAttributes attrs;
    try {
      attrs = Files.readAttributes(path, BasicFileAttributes.class);
    } catch (IOException e) {
      forget(e);
      return hosts;
    }
    if (attrs.lastModifiedTime().equals(modified) && attrs.size() == size) {
      return hosts;
    }
    try {
      hosts = CephLocalityHosts.parse(new String(Files.readAllBytes(path), StandardCharsets.UTF_8));
      modified = attrs.lastModifiedTime();
      size = attrs.size();
      LOG.debug("Block locations name NodeManagers as {} maps them", path);
    } catch (IOException e) {
      forget(e);
    }
    return hosts;
  }

  private void forget(IOException e) {
    if (modified != null) {
      LOG.debug("Block locations name only CRUSH hosts: {} cannot be read", path, e);
    }
    hosts = CephLocalityHosts.NONE;
    modified = null;
  }
}
