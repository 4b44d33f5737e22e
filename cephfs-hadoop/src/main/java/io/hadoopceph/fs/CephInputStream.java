package io.hadoopceph.fs;

import java.io.EOFException;
import java.io.IOException;
import java.util.Locale;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.IntFunction;

import com.ceph.fs.CephMount;
import com.ceph.fs.CephStat;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.VectoredReadUtils;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;

/**
 * A read stream over one open CephFS file. All reads are positioned (pread), so the
 * stream's position lives here and positioned reads never disturb it. The buffer exists
 * to amortise the JNI crossing; libcephfs does its own readahead underneath. Arrays
 * handed to libcephfs are sized to the transfer (see {@link CephTransfers}). What the
 * stream does is counted in its {@link CephInputStatistics}.
 */
final class CephInputStream extends FSInputStream
    implements CanUnbuffer, StreamCapabilities, IOStatisticsSource {

  private final CephMount mount;
  private final int fd;
  private final String path;
  private final int bufferSize;
  private final FileSystem.Statistics statistics;
  private final CephInputStatistics ioStatistics;
  private byte[] buffer;
  private long bufferStart;
  private int bufferLength;
  private long pos;
  private long length;
  private boolean closed;

  CephInputStream(CephMount mount, int fd, String path, long length, int bufferSize,
      FileSystem.Statistics statistics, CephInputStatistics ioStatistics) {
    this.mount = mount;
    this.fd = fd;
    this.path = path;
    this.length = length;
    this.bufferSize = bufferSize;
    this.statistics = statistics;
    this.ioStatistics = ioStatistics;
  }

  @Override
  public synchronized int read() throws IOException {
    checkOpen();
    if (pos < bufferStart || pos >= bufferStart + bufferLength) {
      fill();
      if (bufferLength == 0) {
        ioStatistics.readCompleted(1, -1);
        return -1;
      }
    }
    int b = buffer[(int) (pos - bufferStart)] & 0xff;
    pos++;
    ioStatistics.readCompleted(1, 1);
    if (statistics != null) {
      statistics.incrementBytesRead(1);
    }
    return b;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    checkOpen();
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    int n;
    if (pos >= bufferStart && pos < bufferStart + bufferLength) {
      n = copyFromBuffer(b, off, len);
    } else if (CephTransfers.readsDirectly(b, off, len, bufferSize)) {
      n = (int) cephRead(b, len, pos);
    } else {
      fill();
      n = bufferLength == 0 ? -1 : copyFromBuffer(b, off, len);
    }
    if (n <= 0) {
      ioStatistics.readCompleted(len, -1);
      return -1;
    }
    pos += n;
    ioStatistics.readCompleted(len, n);
    if (statistics != null) {
      statistics.incrementBytesRead(n);
    }
    return n;
  }

  private int copyFromBuffer(byte[] b, int off, int len) {
    int start = (int) (pos - bufferStart);
    int n = Math.min(len, bufferLength - start);
    System.arraycopy(buffer, start, b, off, n);
    return n;
  }

  private void fill() throws IOException {
    int wanted = CephTransfers.readBufferSize(bufferSize, length, pos);
    if (buffer == null || buffer.length < wanted) {
      buffer = new byte[wanted];
    }
    bufferStart = pos;
    bufferLength = 0;
    long n = cephRead(buffer, buffer.length, pos);
    bufferLength = (int) Math.max(0, n);
    ioStatistics.bufferFilled();
  }

  private long cephRead(byte[] into, int len, long offset) throws IOException {
    return ioStatistics.cephRead(() -> {
      long n = mount.read(fd, into, len, offset);
      if (n < 0) {
        throw new IOException(String.format(Locale.ROOT, "read of %s at %d failed: %d", path, offset, n));
      }
      return n;
    });
  }

  @Override
  public int read(long position, byte[] b, int off, int len) throws IOException {
    validatePositionedReadArgs(position, b, off, len);
    synchronized (this) {
      checkOpen();
    }
    if (len == 0) {
      return 0;
    }
    long n;
    if (off == 0 && b.length == len) {
      n = cephRead(b, len, position);
    } else {
      byte[] tmp = new byte[len];
      n = cephRead(tmp, len, position);
      if (n > 0) {
        System.arraycopy(tmp, 0, b, off, (int) n);
      }
    }
    if (n <= 0) {
      ioStatistics.readCompleted(len, -1);
      return -1;
    }
    ioStatistics.readCompleted(len, (int) n);
    if (statistics != null) {
      statistics.incrementBytesRead(n);
    }
    return (int) n;
  }

  /** Ranges past the end fail at once, as they do on HDFS, rather than in their futures. */
  @Override
  public void readVectored(List<? extends FileRange> ranges, IntFunction<ByteBuffer> allocate)
      throws IOException {
    readVectored(ranges, allocate, buffer -> { });
  }

  @Override
  public void readVectored(List<? extends FileRange> ranges, IntFunction<ByteBuffer> allocate,
      Consumer<ByteBuffer> release) throws IOException {
    Objects.requireNonNull(allocate, "allocate");
    Objects.requireNonNull(release, "release");
    long currentLength;
    synchronized (this) {
      checkOpen();
      currentLength = currentLength();
    }
    VectoredReadUtils.validateAndSortRanges(ranges, Optional.of(currentLength));
    ioStatistics.vectoredRead(ranges.size());
    VectoredReadUtils.readVectored(this, ranges, allocate, release);
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    checkOpen();
    if (target < 0) {
      throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK + ": " + target);
    }
    if (target > length) {
      length = currentLength();
      if (target > length) {
        throw new EOFException(FSExceptionMessages.CANNOT_SEEK_PAST_EOF + ": " + target + " > " + length);
      }
    }
    ioStatistics.seeked(pos, target, target >= bufferStart && target < bufferStart + bufferLength);
    pos = target;
  }

  @Override
  public synchronized long skip(long n) throws IOException {
    checkOpen();
    if (n <= 0) {
      ioStatistics.skipped(0);
      return 0;
    }
    long target = Math.min(pos + n, Math.max(pos, currentLength()));
    long skipped = target - pos;
    pos = target;
    ioStatistics.skipped(skipped);
    return skipped;
  }

  private long currentLength() {
    CephStat st = new CephStat();
    mount.fstat(fd, st);
    length = st.size;
    return length;
  }

  @Override
  public synchronized long getPos() throws IOException {
    return pos;
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false;
  }

  @Override
  public synchronized int available() throws IOException {
    checkOpen();
    long remaining = Math.max(0, length - pos);
    return (int) Math.min(Integer.MAX_VALUE, remaining);
  }

  @Override
  public synchronized void unbuffer() {
    // Callers may unbuffer a stream they have closed; there is nothing left to release.
    if (!closed) {
      ioStatistics.unbuffered();
    }
    buffer = null;
    bufferLength = 0;
  }

  @Override
  public boolean hasCapability(String capability) {
    switch (capability.toLowerCase(Locale.ROOT)) {
      case StreamCapabilities.UNBUFFER:
      case StreamCapabilities.READAHEAD:
      case StreamCapabilities.VECTOREDIO:
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
    buffer = null;
    ioStatistics.closed();
    mount.close(fd);
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
