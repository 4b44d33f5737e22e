package io.hadoopceph.fs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.CachedDNSToSwitchMapping;
import org.apache.hadoop.net.DNSToSwitchMapping;
import org.apache.hadoop.net.NetworkTopology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A rack mapping ({@code net.topology.node.switch.mapping.impl}) that reads the table of
 * host to rack the operator keeps in a ConfigMap (format: {@link RackTable}).
 *
 * <p>Where the pod's service account can read {@link CephFsConfig#TOPOLOGY_RACKS_CONFIGMAP}
 * the table comes from the Kubernetes API: the ResourceManager fixes a NodeManager's rack
 * when it registers, seconds after its pod was scheduled, long before the kubelet
 * refreshes a mounted ConfigMap. Elsewhere (MapReduce ApplicationMasters) it comes from
 * the file {@link CephFsConfig#TOPOLOGY_RACKS_FILE}. With neither every host is in
 * {@link NetworkTopology#DEFAULT_RACK}: a job must never fail for want of a rack.
 *
 * <p>YARN's RackResolver wraps a mapping in a cache that keeps every answer forever, the
 * default rack too; being a {@link CachedDNSToSwitchMapping} this class is not wrapped,
 * and caches only the hosts it found, so a host missing now is looked up again later.
 */
public class KubernetesRackMapping extends CachedDNSToSwitchMapping implements Configurable {

  /** The least time between two reads of the ConfigMap. */
  static final long REFETCH_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
  static final String RACKS_KEY = "racks";

  private static final Logger LOG = LoggerFactory.getLogger(KubernetesRackMapping.class);

  /** Sleeps; tests pass one that moves their clock instead. */
  interface Sleeper {
    void sleep(long nanos) throws InterruptedException;
  }

  private final Tables tables;
  private final Map<String, String> cache = new ConcurrentHashMap<>();

  public KubernetesRackMapping() {
    this(System::nanoTime, TimeUnit.NANOSECONDS::sleep, System.getenv());
  }

  KubernetesRackMapping(LongSupplier nanoClock, Sleeper sleeper, Map<String, String> env) {
    this(new Tables(nanoClock, sleeper, env));
  }

  private KubernetesRackMapping(Tables tables) {
    super(tables);
    this.tables = tables;
  }

  @Override
  public void setConf(Configuration conf) {
    super.setConf(conf);
    tables.configure(conf);
    cache.clear();
  }

  @Override
  public List<String> resolve(List<String> names) {
    String[] racks = new String[names.size()];
    Set<String> misses = new LinkedHashSet<>();
    for (int i = 0; i < racks.length; i++) {
      String name = names.get(i);
      if (name != null) {
        racks[i] = cache.get(name);
        if (racks[i] == null) {
          misses.add(name);
        }
      }
    }
    Map<String, String> found = misses.isEmpty() ? Collections.emptyMap() : tables.lookup(misses);
    cache.putAll(found);
    List<String> result = new ArrayList<>(racks.length);
    for (int i = 0; i < racks.length; i++) {
      String rack = racks[i] != null ? racks[i] : found.get(names.get(i));
      if (rack == null) {
        LOG.debug("{} is in no rack of the table yet: {}", names.get(i), NetworkTopology.DEFAULT_RACK);
        rack = NetworkTopology.DEFAULT_RACK;
      }
      result.add(rack);
    }
    return result;
  }

  @Override
  public Map<String, String> getSwitchMap() {
    return new HashMap<>(cache);
  }

  @Override
  public void reloadCachedMappings() {
    cache.clear();
    tables.reloadCachedMappings();
  }

  @Override
  public void reloadCachedMappings(List<String> names) {
    for (String name : names) {
      if (name != null) {
        cache.remove(name);
      }
    }
    tables.reloadCachedMappings(names);
  }

  @Override
  public String toString() {
    return "Kubernetes rack mapping of " + tables.source + ", " + cache.size() + " hosts cached";
  }

  /** Where the table comes from. */
  private interface Source {
    /** The racks of those names the table has, by name. */
    Map<String, String> lookup(Set<String> names);

    /** The next lookup reads the table again. */
    default void invalidate() {
    }
  }

  private static final Source NONE = new Source() {
    @Override
    public Map<String, String> lookup(Set<String> names) {
      return Collections.emptyMap();
    }

    @Override
    public String toString() {
      return "no table";
    }
  };

  /**
   * The mapping without the cache, which the superclass wants; it answers the default rack
   * for a host the table does not have.
   */
  private static final class Tables implements DNSToSwitchMapping {

    private final LongSupplier nanoClock;
    private final Sleeper sleeper;
    private final Map<String, String> env;
    private volatile Source source = NONE;

    Tables(LongSupplier nanoClock, Sleeper sleeper, Map<String, String> env) {
      this.nanoClock = nanoClock;
      this.sleeper = sleeper;
      this.env = env;
    }

    void configure(Configuration conf) {
      if (conf == null) {
        source = NONE;
        return;
      }
      Source api = apiSource(conf);
      String file = conf.getTrimmed(CephFsConfig.TOPOLOGY_RACKS_FILE, "");
      if (api != null) {
        source = api;
      } else if (!file.isEmpty()) {
        source = new FileSource(new WatchedFile<>(Paths.get(file), RackTable::parse, RackTable.EMPTY, nanoClock));
      } else {
        source = NONE;
      }
      LOG.info("Racks of hosts come from {}", source);
    }

    /** Null where the API cannot be used, the reason logged. */
    private Source apiSource(Configuration conf) {
      String configMap = conf.getTrimmed(CephFsConfig.TOPOLOGY_RACKS_CONFIGMAP, "");
      if (configMap.isEmpty()) {
        return null;
      }
      String[] parts = configMap.split("/", -1);
      if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
        LOG.warn("{} must be <namespace>/<name>, got '{}'", CephFsConfig.TOPOLOGY_RACKS_CONFIGMAP, configMap);
        return null;
      }
      Path tokenDir = Paths.get(conf.getTrimmed(CephFsConfig.TOPOLOGY_RACKS_API_TOKEN_DIR,
          CephFsConfig.DEFAULT_TOPOLOGY_RACKS_API_TOKEN_DIR));
      if (!Files.isRegularFile(tokenDir.resolve("token"))) {
        LOG.info("No service account token in {}: ConfigMap {} is not read through the API", tokenDir, configMap);
        return null;
      }
      String server = conf.getTrimmed(CephFsConfig.TOPOLOGY_RACKS_API_SERVER, "");
      if (server.isEmpty()) {
        server = KubernetesConfigMapReader.serverFromEnv(env);
      }
      if (server == null) {
        LOG.warn("KUBERNETES_SERVICE_HOST is not set: ConfigMap {} is not read through the API", configMap);
        return null;
      }
      long waitMs = Math.max(0, conf.getLong(CephFsConfig.TOPOLOGY_RACKS_WAIT_MS,
          CephFsConfig.DEFAULT_TOPOLOGY_RACKS_WAIT_MS));
      try {
        return new ApiSource(new KubernetesConfigMapReader(server, parts[0], parts[1], tokenDir),
            TimeUnit.MILLISECONDS.toNanos(waitMs), nanoClock, sleeper);
      } catch (IllegalArgumentException e) {
        LOG.warn("Cannot read ConfigMap {} from {}: {}", configMap, server, e.getMessage());
        return null;
      }
    }

    Map<String, String> lookup(Set<String> names) {
      return source.lookup(names);
    }

    @Override
    public List<String> resolve(List<String> names) {
      Set<String> distinct = new LinkedHashSet<>(names);
      distinct.remove(null);
      Map<String, String> found = lookup(distinct);
      List<String> racks = new ArrayList<>(names.size());
      for (String name : names) {
        racks.add(found.getOrDefault(name, NetworkTopology.DEFAULT_RACK));
      }
      return racks;
    }

    @Override
    public void reloadCachedMappings() {
      source.invalidate();
    }

    @Override
    public void reloadCachedMappings(List<String> names) {
      source.invalidate();
    }

    @Override
    public String toString() {
      return source.toString();
    }
  }

  /** The table in a file; never waited for, since the file changes only a minute or so late. */
  private static final class FileSource implements Source {
    private final WatchedFile<RackTable> file;

    FileSource(WatchedFile<RackTable> file) {
      this.file = file;
    }

    @Override
    public Map<String, String> lookup(Set<String> names) {
      return file.get().racksOf(names);
    }

    @Override
    public String toString() {
      return "file " + file.path();
    }
  }

  /**
   * The table in a ConfigMap, read through the API on first use and again on a miss. A
   * host missing from a table that has hosts is waited for: the operator adds a pod
   * moments after the scheduler placed it, and a NodeManager that registers before that
   * would stay in the default rack for the ResourceManager's life. An empty table means a
   * cluster without racks, so nothing is waited for.
   */
  private static final class ApiSource implements Source {
    private final KubernetesConfigMapReader reader;
    private final long waitNanos;
    private final LongSupplier nanoClock;
    private final Sleeper sleeper;

    private RackTable table = RackTable.EMPTY;
    private boolean fresh;
    private long fetchedAt;
    // Failures logged since the last good read, so that each is logged once.
    private final Set<String> failures = new HashSet<>();

    ApiSource(KubernetesConfigMapReader reader, long waitNanos, LongSupplier nanoClock, Sleeper sleeper) {
      this.reader = reader;
      this.waitNanos = waitNanos;
      this.nanoClock = nanoClock;
      this.sleeper = sleeper;
    }

    @Override
    public Map<String, String> lookup(Set<String> names) {
      long deadline = nanoClock.getAsLong() + waitNanos;
      RackTable current = table(false);
      Map<String, String> found = current.racksOf(names);
      if (found.size() == names.size()) {
        return found;
      }
      current = table(true);
      found = current.racksOf(names);
      // Sleeping outside the lock lets other callers use the table meanwhile.
      while (found.size() < names.size() && !current.isEmpty()) {
        long now = nanoClock.getAsLong();
        long next = Math.max(now, fetchedAt() + REFETCH_INTERVAL_NANOS);
        if (next - deadline > 0) {
          break;
        }
        try {
          sleeper.sleep(next - now);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
        current = table(true);
        found = current.racksOf(names);
      }
      return found;
    }

    /**
     * The table, read again if never read or invalidated, or on a miss if it is old
     * enough. Null from fetch means the read failed.
     */
    private synchronized RackTable table(boolean miss) {
      if (!fresh || (miss && nanoClock.getAsLong() - fetchedAt >= REFETCH_INTERVAL_NANOS)) {
        // A failed read keeps the last table: an API server that restarts must not move
        // the NodeManagers that register meanwhile out of their racks.
        RackTable fetched = fetch();
        if (fetched != null) {
          table = fetched;
        }
        fresh = true;
        fetchedAt = nanoClock.getAsLong();
      }
      return table;
    }

    private synchronized long fetchedAt() {
      return fetchedAt;
    }

    @Override
    public synchronized void invalidate() {
      fresh = false;
    }

    private RackTable fetch() {
      try {
        RackTable fetched = RackTable.parse(reader.read(RACKS_KEY));
        if (!failures.isEmpty()) {
          LOG.info("Read {} again: {} hosts", reader.uri(), fetched.size());
          failures.clear();
        }
        return fetched;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      } catch (Exception e) {
        // Any failure: the last table stands, or none, and a job runs.
        String failure = describe(e);
        if (failures.size() > 100) {
          failures.clear();
        }
        if (failures.add(failure)) {
          LOG.warn("No racks from {}: {}; the last table read stands, and hosts not in it are in {}",
              reader.uri(), failure, NetworkTopology.DEFAULT_RACK);
        }
        return null;
      }
    }

    /** The reader's IOExceptions say it all; HttpClient's may carry their message in a cause only. */
    private static String describe(Exception e) {
      if (e instanceof IOException && e.getMessage() != null) {
        return e.getMessage();
      }
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t.getMessage() != null) {
          return t.toString();
        }
      }
      return e.toString();
    }

    @Override
    public String toString() {
      return "ConfigMap " + reader.uri() + " key " + RACKS_KEY;
    }
  }
}
