package io.hadoopceph.fs.contract;

import java.io.IOException;
import java.net.URI;
import java.util.Map;

import io.hadoopceph.fs.CephTestCluster;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Binds Hadoop's contract suites to the connector on the Ceph of hack/ceph/up.sh. */
public class CephContract extends AbstractFSContract {

  public static final String OPTIONS = "contract/ceph.xml";
  private FileSystem fs;

  public CephContract(Configuration conf) {
    super(conf);
    addConfResource(OPTIONS);
  }

  @Override
  public void init() throws IOException {
    super.init();
    Configuration cluster = CephTestCluster.conf();
    for (Map.Entry<String, String> e : cluster) {
      if (e.getKey().startsWith("ceph.") || e.getKey().startsWith("fs.ceph.")
          || e.getKey().startsWith("fs.AbstractFileSystem.ceph.")) {
        getConf().set(e.getKey(), e.getValue());
      }
    }
    fs = FileSystem.get(URI.create("ceph:///"), getConf());
  }

  @Override
  public FileSystem getTestFileSystem() {
    return fs;
  }

  @Override
  public String getScheme() {
    return "ceph";
  }

  @Override
  public Path getTestPath() {
    return new Path("/test");
  }
}
