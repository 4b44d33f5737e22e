package io.hadoopceph.fs;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;

/**
 * The connector's settings, read once per file system instance. The {@code ceph.*} keys
 * are the ones the historical cephfs-hadoop plugin read, so an existing core-site.xml
 * keeps its meaning; the {@code fs.ceph.*} keys are this connector's own.
 */
public final class CephFsConfig {

  public static final String CONF_FILE = "ceph.conf.file";
  public static final String CONF_OPTIONS = "ceph.conf.options";
  public static final String MON_ADDRESS = "ceph.mon.address";
  public static final String AUTH_ID = "ceph.auth.id";
  public static final String AUTH_KEYRING = "ceph.auth.keyring";
  public static final String AUTH_KEYFILE = "ceph.auth.keyfile";
  public static final String ROOT_DIR = "ceph.root.dir";
  public static final String DATA_POOLS = "ceph.data.pools";
  public static final String OBJECT_SIZE = "ceph.object.size";
  public static final String REPLICATION = "ceph.replication";
  public static final String LOCALIZE_READS = "ceph.localize.reads";

  public static final String BLOCK_SIZE = "fs.ceph.block.size";
  public static final String READ_BUFFER_SIZE = "fs.ceph.read.buffer.size";
  public static final String WRITE_BUFFER_SIZE = "fs.ceph.write.buffer.size";
  public static final String CLIENT_METADATA = "fs.ceph.client.metadata";
  public static final String SYNC_ON_CLOSE = "fs.ceph.sync.on.close";
  public static final String RSTATS_CONTENT_SUMMARY = "fs.ceph.content.summary.rstats";
  public static final String LOCALITY_HOSTS_FILE = "fs.ceph.locality.hosts.file";

  // Read by KubernetesRackMapping, not by the file system.
  /** The host to rack table as a file, such as a mounted ConfigMap. */
  public static final String TOPOLOGY_RACKS_FILE = "fs.ceph.topology.racks.file";
  /** {@code <namespace>/<name>} of the ConfigMap whose data key {@code racks} is the table, read through the API. */
  public static final String TOPOLOGY_RACKS_CONFIGMAP = "fs.ceph.topology.racks.configmap";
  /** How long a host missing from a non-empty table is waited for when read through the API. */
  public static final String TOPOLOGY_RACKS_WAIT_MS = "fs.ceph.topology.racks.wait.ms";
  /** The API server's base URL, for tests and unusual setups; by default the pod's kubernetes Service. */
  public static final String TOPOLOGY_RACKS_API_SERVER = "fs.ceph.topology.racks.api.server";
  /** The directory of the service account's token and ca.crt, for tests and unusual setups. */
  public static final String TOPOLOGY_RACKS_API_TOKEN_DIR = "fs.ceph.topology.racks.api.tokendir";

  public static final short DEFAULT_REPLICATION = 3;
  public static final long DEFAULT_BLOCK_SIZE = 128L * 1024 * 1024;
  public static final int DEFAULT_READ_BUFFER_SIZE = 1024 * 1024;
  public static final int DEFAULT_WRITE_BUFFER_SIZE = 8 * 1024 * 1024;
  public static final long DEFAULT_TOPOLOGY_RACKS_WAIT_MS = 3000;
  public static final String DEFAULT_TOPOLOGY_RACKS_API_TOKEN_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";

  private final String confFile;
  private final Map<String, String> confOptions;
  private final String monAddress;
  private final String authId;
  private final String keyring;
  private final String keyfile;
  private final String rootDir;
  private final List<String> dataPools;
  private final long objectSize;
  private final short replication;
  private final boolean localizeReads;
  private final long blockSize;
  private final int readBufferSize;
  private final int writeBufferSize;
  private final Map<String, String> clientMetadata;
  private final boolean syncOnClose;
  private final boolean rstatsContentSummary;
  private final String localityHostsFile;

  private CephFsConfig(URI uri, Configuration conf) {
    confFile = trimToNull(conf.get(CONF_FILE));
    confOptions = parseKeyValues(conf.get(CONF_OPTIONS), CONF_OPTIONS);
    monAddress = firstNonNull(trimToNull(conf.get(MON_ADDRESS)), authorityAsMonitors(uri));
    authId = trimToNull(conf.get(AUTH_ID));
    keyring = trimToNull(conf.get(AUTH_KEYRING));
    keyfile = trimToNull(conf.get(AUTH_KEYFILE));
    rootDir = normaliseRoot(conf.get(ROOT_DIR, "/"));
    dataPools = parseList(conf.get(DATA_POOLS));
    objectSize = positive(conf.getLongBytes(OBJECT_SIZE, 0), OBJECT_SIZE, true);
    replication = (short) positive(conf.getInt(REPLICATION, DEFAULT_REPLICATION), REPLICATION, false);
    localizeReads = conf.getBoolean(LOCALIZE_READS, false);
    long defaultBlock = objectSize > 0 ? objectSize : DEFAULT_BLOCK_SIZE;
    blockSize = positive(conf.getLongBytes(BLOCK_SIZE, defaultBlock), BLOCK_SIZE, false);
    readBufferSize = (int) positive(conf.getLongBytes(READ_BUFFER_SIZE, DEFAULT_READ_BUFFER_SIZE),
        READ_BUFFER_SIZE, false);
    writeBufferSize = (int) positive(conf.getLongBytes(WRITE_BUFFER_SIZE, DEFAULT_WRITE_BUFFER_SIZE),
        WRITE_BUFFER_SIZE, false);
    clientMetadata = parseKeyValues(conf.get(CLIENT_METADATA), CLIENT_METADATA);
    syncOnClose = conf.getBoolean(SYNC_ON_CLOSE, true);
    rstatsContentSummary = conf.getBoolean(RSTATS_CONTENT_SUMMARY, false);
    localityHostsFile = trimToNull(conf.get(LOCALITY_HOSTS_FILE));
  }

  public static CephFsConfig from(URI uri, Configuration conf) {
    return new CephFsConfig(uri, conf);
  }

  /**
   * An authority names the monitors ({@code ceph://mon1:6789,mon2:6789/}); without one
   * the monitors come from ceph.conf, which is how {@code ceph:///} works.
   */
  static String authorityAsMonitors(URI uri) {
    if (uri == null) {
      return null;
    }
    String authority = trimToNull(uri.getAuthority());
    if (authority == null || "null".equals(authority)) {
      return null;
    }
    return authority.replace(';', ',');
  }

  static Map<String, String> parseKeyValues(String value, String key) {
    Map<String, String> result = new LinkedHashMap<>();
    for (String item : parseList(value)) {
      int eq = item.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(key + ": expected key=value, got '" + item + "'");
      }
      result.put(item.substring(0, eq).trim(), item.substring(eq + 1).trim());
    }
    return Collections.unmodifiableMap(result);
  }

  static List<String> parseList(String value) {
    List<String> result = new ArrayList<>();
    if (value == null) {
      return result;
    }
    for (String item : value.split(",")) {
      String trimmed = item.trim();
      if (!trimmed.isEmpty()) {
        result.add(trimmed);
      }
    }
    return Collections.unmodifiableList(result);
  }

  static String normaliseRoot(String root) {
    String trimmed = trimToNull(root);
    if (trimmed == null) {
      return "/";
    }
    if (!trimmed.startsWith("/")) {
      throw new IllegalArgumentException(ROOT_DIR + " must be an absolute path, got '" + root + "'");
    }
    String collapsed = trimmed.replaceAll("/+", "/");
    if (collapsed.length() > 1 && collapsed.endsWith("/")) {
      collapsed = collapsed.substring(0, collapsed.length() - 1);
    }
    return collapsed;
  }

  private static long positive(long value, String key, boolean zeroAllowed) {
    if (value < 0 || (value == 0 && !zeroAllowed)) {
      throw new IllegalArgumentException(key + " must be positive, got " + value);
    }
    if (value > Integer.MAX_VALUE && (key.equals(READ_BUFFER_SIZE) || key.equals(WRITE_BUFFER_SIZE))) {
      throw new IllegalArgumentException(key + " must fit in an int, got " + value);
    }
    return value;
  }

  private static String trimToNull(String value) {
    if (value == null) {
      return null;
    }
    String trimmed = value.trim();
    return trimmed.isEmpty() ? null : trimmed;
  }

  private static String firstNonNull(String a, String b) {
    return a != null ? a : b;
  }

  public String confFile() {
    return confFile;
  }

  public Map<String, String> confOptions() {
    return confOptions;
  }

  public String monAddress() {
    return monAddress;
  }

  public String authId() {
    return authId;
  }

  public String keyring() {
    return keyring;
  }

  public String keyfile() {
    return keyfile;
  }

  public String rootDir() {
    return rootDir;
  }

  public List<String> dataPools() {
    return dataPools;
  }

  /** Object size for new files; 0 keeps the directory layout's. */
  public long objectSize() {
    return objectSize;
  }

  public short replication() {
    return replication;
  }

  public boolean localizeReads() {
    return localizeReads;
  }

  public long blockSize() {
    return blockSize;
  }

  public int readBufferSize() {
    return readBufferSize;
  }

  public int writeBufferSize() {
    return writeBufferSize;
  }

  public Map<String, String> clientMetadata() {
    return clientMetadata;
  }

  public boolean syncOnClose() {
    return syncOnClose;
  }

  public boolean rstatsContentSummary() {
    return rstatsContentSummary;
  }

  /** The file that maps OSD hosts to NodeManagers' YARN hosts; null maps none. */
  public String localityHostsFile() {
    return localityHostsFile;
  }
}
