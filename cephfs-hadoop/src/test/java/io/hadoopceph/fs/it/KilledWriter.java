package io.hadoopceph.fs.it;

import java.net.URI;
import java.util.Arrays;

import io.hadoopceph.fs.CephFileSystem;
import io.hadoopceph.fs.CephTestCluster;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A client that writes until it is killed: chunk i is CHUNK bytes of value i % 251, so a
 * reader can tell written data from damage. Prints "READY <session id>" once data is out.
 */
public final class KilledWriter {

  static final int CHUNK = 64 * 1024;

  private KilledWriter() {
  }

  static byte[] chunk(long i) {
    byte[] b = new byte[CHUNK];
    Arrays.fill(b, (byte) (i % 251));
    return b;
  }

  public static void main(String[] args) throws Exception {
    Configuration conf = CephTestCluster.baseConf();
    conf.set("ceph.root.dir", args[0]);
    conf.setBoolean("fs.ceph.impl.disable.cache", true);
    FileSystem fs = FileSystem.get(URI.create("ceph:///"), conf);
    FSDataOutputStream out = fs.create(new Path(args[1]), true);
    for (long i = 0; ; i++) {
      out.write(chunk(i));
      out.hflush();
      if (i == 16) {
        System.out.println("READY " + ((CephFileSystem) fs).getClientInstanceId());
        System.out.flush();
      }
      Thread.sleep(5);
    }
  }
}
