package io.hadoopceph.fs;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.UUID;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;

/**
 * Connection settings for the Ceph started by hack/ceph/up.sh, and a private directory
 * per test JVM (laid out on the pool under test) that serves as the connector's root,
 * so suites that wipe "/" only wipe their own subtree.
 */
public final class CephTestCluster {

  public static final String LAYOUT = System.getProperty("test.ceph.layout", "replicated");
  private static String runRoot;

  private CephTestCluster() {
  }

  public static String confFile() {
    return System.getProperty("test.ceph.conf",
        System.getProperty("user.home") + "/.cache/hadoop-ceph-operator/ceph/ceph.conf");
  }

  public static String keyring() {
    return System.getProperty("test.ceph.keyring",
        System.getProperty("user.home") + "/.cache/hadoop-ceph-operator/ceph/ceph.client.hadoop.keyring");
  }

  public static String ecPool() {
    return System.getProperty("test.ceph.ec.pool", "cephfs_data_ec");
  }

  public static String replicatedPool() {
    return System.getProperty("test.ceph.replicated.pool", "cephfs_data");
  }

  public static String poolOf(String layout) {
    return "ec".equals(layout) ? ecPool() : replicatedPool();
  }

  /** Client settings with the whole file system as root. */
  public static Configuration baseConf() {
    Configuration conf = new Configuration();
    conf.set("fs.ceph.impl", CephFileSystem.class.getName());
    conf.set("fs.AbstractFileSystem.ceph.impl", CephFs.class.getName());
    conf.set(CephFsConfig.CONF_FILE, confFile());
    conf.set(CephFsConfig.AUTH_ID, "hadoop");
    conf.set(CephFsConfig.AUTH_KEYRING, keyring());
    return conf;
  }

  /** Settings whose root is this JVM's private directory on the pool under test. */
  public static synchronized Configuration conf() throws IOException {
    if (runRoot == null) {
      runRoot = createLaidOutDir("/hco-tests/" + LAYOUT + "-" + UUID.randomUUID(), LAYOUT);
    }
    Configuration conf = baseConf();
    conf.set(CephFsConfig.ROOT_DIR, runRoot);
    return conf;
  }

  /** Creates a directory whose new files land on the given layout's pool. */
  public static String createLaidOutDir(String dir, String layout) throws IOException {
    Configuration conf = baseConf();
    try (CephFileSystem fs = new CephFileSystem()) {
      fs.initialize(URI.create("ceph:///"), conf);
      Path path = new Path(dir);
      fs.mkdirs(path);
      fs.setXAttr(path, "ceph.dir.layout.pool", poolOf(layout).getBytes(StandardCharsets.UTF_8),
          EnumSet.of(XAttrSetFlag.CREATE, XAttrSetFlag.REPLACE));
    }
    return dir;
  }
}
