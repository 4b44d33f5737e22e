package io.hadoopceph.fs;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

import com.ceph.fs.CephMount;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.Syncable;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;

/**
 * A write stream over one open CephFS file. libcephfs-java can only write from the start
 * of an array, so small writes are gathered here and large ones pass straight through.
 * hflush hands the data to libcephfs, whose capabilities make it visible to every other
 * client; hsync and close also wait until the OSDs and the MDS have it. Arrays handed
 * to libcephfs are sized to the transfer (see {@link CephTransfers}). What the stream
 * does is counted in its {@link CephOutputStatistics}.
 */
final class CephOutputStream extends OutputStream
    implements Syncable, StreamCapabilities, IOStatisticsSource {

  /** Most files Hadoop writes are small (job files, markers); the buffer grows for big ones. */
  private static final int INITIAL_BUFFER = 64 * 1024;

  private final CephMount mount;
  private final int fd;
  private final String path;
  private final boolean syncOnClose;
  private final int maxBuffer;
  private final CephOutputStatistics ioStatistics;
  private byte[] buffer;
  private int count;
  private boolean closed;

  CephOutputStream(CephMount mount, int fd, String path, int bufferSize, boolean syncOnClose,
      CephOutputStatistics ioStatistics) {
    this.mount = mount;
    this.fd = fd;
    this.path = path;
    this.syncOnClose = syncOnClose;
    this.maxBuffer = bufferSize;
    this.ioStatistics = ioStatistics;
    this.buffer = new byte[Math.min(bufferSize, INITIAL_BUFFER)];
  }

  @Override
  public synchronized void write(int b) throws IOException {
    checkOpen();
    if (count == buffer.length) {
      makeRoom();
    }
    buffer[count++] = (byte) b;
    ioStatistics.accepted(1);
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    checkOpen();
    Objects.checkFromIndexSize(off, len, b.length);
    if (off == 0 && len >= maxBuffer) {
      flushBuffer();
      cephWrite(b, len);
      ioStatistics.accepted(len);
      return;
    }
    while (len > 0) {
      if (count == buffer.length) {
        makeRoom();
      }
      int n = Math.min(len, buffer.length - count);
      System.arraycopy(b, off, buffer, count, n);
      count += n;
      off += n;
      len -= n;
      ioStatistics.accepted(n);
    }
  }

  /** Doubles a full buffer up to its maximum, and writes it out once it is that big. */
  private void makeRoom() throws IOException {
    if (buffer.length < maxBuffer) {
      buffer = Arrays.copyOf(buffer, (int) Math.min((long) buffer.length * 2, maxBuffer));
    } else {
      flushBuffer();
    }
  }

  private void flushBuffer() throws IOException {
    if (count > 0) {
      cephWrite(buffer, count);
      count = 0;
      ioStatistics.bufferWritten();
    }
  }

  private void cephWrite(byte[] data, int len) throws IOException {
    byte[] transfer = CephTransfers.copiesExactly(data.length, len) ? Arrays.copyOf(data, len) : data;
    ioStatistics.cephWrite(() -> {
      long n = mount.write(fd, transfer, len, -1);
      if (n != len) {
        throw new IOException(String.format(Locale.ROOT, "short write to %s: %d of %d bytes", path, n, len));
      }
      return n;
    });
  }

  @Override
  public synchronized void flush() throws IOException {
    checkOpen();
    flushBuffer();
  }

  @Override
  public synchronized void hflush() throws IOException {
    flush();
    ioStatistics.hflushed();
  }

  @Override
  public synchronized void hsync() throws IOException {
    flush();
    cephFsync();
    ioStatistics.hsynced();
  }

  private void cephFsync() throws IOException {
    ioStatistics.cephFsync(() -> mount.fsync(fd, false));
  }

  @Override
  public boolean hasCapability(String capability) {
    switch (capability.toLowerCase(Locale.ROOT)) {
      case StreamCapabilities.HFLUSH:
      case StreamCapabilities.HSYNC:
      case StreamCapabilities.IOSTATISTICS:
        return true;
      default:
        return false;
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      flushBuffer();
      if (syncOnClose) {
        cephFsync();
      }
    } finally {
      ioStatistics.closed();
      mount.close(fd);
    }
  }

  /** Valid after close, when it also holds the close. */
  @Override
  public IOStatistics getIOStatistics() {
    return ioStatistics.getIOStatistics();
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + ": " + path);
    }
  }
}
