package io.hadoopceph.fs;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.DelegateToFileSystem;

/**
 * The AbstractFileSystem binding of scheme {@code ceph} (fs.AbstractFileSystem.ceph.impl),
 * which YARN uses for staging, localisation and log aggregation.
 */
public class CephFs extends DelegateToFileSystem {

  public CephFs(URI uri, Configuration conf) throws IOException, URISyntaxException {
    super(uri, new CephFileSystem(), conf, CephFileSystem.SCHEME, false);
  }

  @Override
  public int getUriDefaultPort() {
    return -1;
  }
}
