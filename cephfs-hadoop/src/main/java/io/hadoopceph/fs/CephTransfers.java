package io.hadoopceph.fs;

/**
 * How big the arrays are that cross into libcephfs. The JNI layer of libcephfs-java
 * copies the whole Java array into native memory before every read and write and, for
 * reads, back again afterwards, whatever the requested length. A transfer therefore
 * costs twice its array's length in copying on top of what libcephfs itself copies, so
 * the streams hand it arrays no longer than the bytes they move.
 */
final class CephTransfers {

  /** The smallest read buffer worth allocating, even for an empty or tiny file. */
  static final int MIN_READ_BUFFER = 64 * 1024;

  private CephTransfers() {
  }

  /**
   * Whether a read of {@code len} bytes into {@code b} at {@code off} goes straight into
   * the caller's array instead of through the stream's buffer. Only when the array is
   * exactly the transfer (the JNI layer has no offset and copies the whole array) and
   * the transfer is at least half a buffer, so that the copy out of the buffer it saves
   * outweighs the buffer fills it forgoes for the reads that follow.
   */
  static boolean readsDirectly(byte[] b, int off, int len, int bufferSize) {
    return off == 0 && b.length == len && len >= bufferSize / 2;
  }

  /**
   * The read buffer for a stream positioned at {@code pos} of a file that is
   * {@code length} bytes long: the configured size, or less when the rest of the file
   * is smaller, so opening a small file does not allocate and copy a large array on
   * every fill. A file that grows after the open is still read, a buffer at a time.
   */
  static int readBufferSize(int bufferSize, long length, long pos) {
    long rest = Math.max(0, length - pos);
    return (int) Math.min(bufferSize, Math.max(MIN_READ_BUFFER, rest));
  }

  /**
   * Whether {@code len} bytes at the start of an array of {@code arrayLength} are
   * cheaper to hand over as an exact copy: a copy of {@code len} bytes instead of the
   * JNI layer copying {@code arrayLength - len} bytes nobody reads. True for the tail
   * of a mostly empty buffer (hflush, close), false for a full or nearly full one.
   */
  static boolean copiesExactly(int arrayLength, int len) {
    return arrayLength - len > len;
  }
}
