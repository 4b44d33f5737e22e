package io.hadoopceph.fs;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.ceph.fs.CephMount;
import org.apache.hadoop.util.ShutdownHookManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One libcephfs mount and its MDS session. A session left open by an exiting JVM keeps
 * its capabilities until the MDS times it out, blocking other clients on the same
 * inodes, so every live session is unmounted by close() or, failing that, at shutdown.
 */
final class CephSession {

  private static final Logger LOG = LoggerFactory.getLogger(CephSession.class);
  /** Runs after Hadoop's FileSystem cache hook (priority 10) has closed cached instances. */
  private static final int SHUTDOWN_PRIORITY = 5;
  private static final String DEFAULT_CONF = "/etc/ceph/ceph.conf";
  private static final Set<CephSession> LIVE = ConcurrentHashMap.newKeySet();

  static {
    ShutdownHookManager.get().addShutdownHook(CephSession::unmountAll, SHUTDOWN_PRIORITY);
  }

  private final CephMount mount;
  private final String instanceId;
  private boolean mounted;

  private CephSession(CephMount mount, String instanceId) {
    this.mount = mount;
    this.instanceId = instanceId;
  }

  static CephSession open(CephFsConfig config, Map<String, String> env) throws IOException {
    CephNative.load();
    CephMount mount = config.authId() == null ? new CephMount() : new CephMount(config.authId());
    String instanceId = CephClientMetadata.newInstanceId();
    try {
      String confFile = confFileOf(config, env);
      if (confFile != null) {
        mount.conf_read_file(confFile);
      }
      if (config.monAddress() != null) {
        mount.conf_set("mon_host", config.monAddress());
      }
      if (config.keyring() != null) {
        mount.conf_set("keyring", config.keyring());
      }
      if (config.keyfile() != null) {
        mount.conf_set("keyfile", config.keyfile());
      }
      for (Map.Entry<String, String> option : config.confOptions().entrySet()) {
        mount.conf_set(option.getKey(), option.getValue());
      }
      mount.conf_set("client_metadata",
          CephClientMetadata.render(instanceId, env, config.clientMetadata()));
      mount.mount(config.rootDir());
      mount.localize_reads(config.localizeReads());
    } catch (FileNotFoundException e) {
      throw new FileNotFoundException("cannot mount CephFS at " + config.rootDir() + ": " + e.getMessage());
    } catch (IOException | RuntimeException e) {
      throw new IOException("cannot mount CephFS at " + config.rootDir() + ": " + e.getMessage(), e);
    }
    CephSession session = new CephSession(mount, instanceId);
    session.mounted = true;
    LIVE.add(session);
    return session;
  }

  /**
   * libcephfs-java cannot ask for Ceph's default search, so it is repeated here:
   * the explicit key, then $CEPH_CONF, then /etc/ceph/ceph.conf when it exists.
   */
  static String confFileOf(CephFsConfig config, Map<String, String> env) {
    if (config.confFile() != null) {
      return config.confFile();
    }
    String fromEnv = env.get("CEPH_CONF");
    if (fromEnv != null && !fromEnv.isEmpty()) {
      return fromEnv;
    }
    return new File(DEFAULT_CONF).isFile() ? DEFAULT_CONF : null;
  }

  CephMount mount() {
    return mount;
  }

  String instanceId() {
    return instanceId;
  }

  synchronized void unmount() {
    if (!mounted) {
      return;
    }
    mounted = false;
    LIVE.remove(this);
    try {
      mount.unmount();
    } catch (RuntimeException e) {
      LOG.warn("unmount of CephFS session {} failed: {}", instanceId, e.toString());
    }
  }

  private static void unmountAll() {
    for (CephSession session : LIVE) {
      session.unmount();
    }
  }
}
