package com.ceph.fs;

/** Makes the extents libcephfs returns, whose constructor only its own package sees. */
public final class Extents {

  private Extents() {
  }

  public static CephFileExtent of(long offset, long length, int... osds) {
    return new CephFileExtent(offset, length, osds);
  }
}
