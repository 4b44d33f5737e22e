package io.hadoopceph.fs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A text file that changes while the process runs, parsed: in Kubernetes a ConfigMap
 * volume, which the kubelet updates by swapping a symbolic link to a new directory. The
 * path is looked at again (following the links) at most every {@link #CHECK_INTERVAL_NANOS},
 * and read again when its modification time or size changed. A missing or unreadable
 * file gives the empty value: what these files hold are hints, and a job must never fail
 * for want of one.
 */
class WatchedFile<T> implements Supplier<T> {

  static final long CHECK_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(5);
  private static final Logger LOG = LoggerFactory.getLogger(WatchedFile.class);

  private final Path path;
  private final Function<String, T> parser;
  private final T empty;
  private final LongSupplier nanoClock;

  private boolean checked;
  private long checkedAt;
  private FileTime modified;
  private long size;
  private T value;

  /** parser must not fail: a file is read whenever it changed, whatever it holds. */
  WatchedFile(Path path, Function<String, T> parser, T empty, LongSupplier nanoClock) {
    this.path = path;
    this.parser = parser;
    this.empty = empty;
    this.nanoClock = nanoClock;
    this.value = empty;
  }

  Path path() {
    return path;
  }

  @Override
  public synchronized T get() {
    long now = nanoClock.getAsLong();
    if (checked && now - checkedAt < CHECK_INTERVAL_NANOS) {
      return value;
    }
    checked = true;
    checkedAt = now;
    BasicFileAttributes attrs;
    try {
      attrs = Files.readAttributes(path, BasicFileAttributes.class);
    } catch (IOException e) {
      forget(e);
      return value;
    }
    if (attrs.lastModifiedTime().equals(modified) && attrs.size() == size) {
      return value;
    }
    try {
      value = parser.apply(new String(Files.readAllBytes(path), StandardCharsets.UTF_8));
      modified = attrs.lastModifiedTime();
      size = attrs.size();
      LOG.debug("Read {}", path);
    } catch (IOException e) {
      forget(e);
    }
    return value;
  }

  private void forget(IOException e) {
    if (modified != null) {
      LOG.debug("{} cannot be read any more", path, e);
    }
    value = empty;
    modified = null;
  }
}
