package io.hadoopceph.fs;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import com.ceph.crush.Bucket;
import com.ceph.fs.CephFileExtent;
import com.ceph.fs.CephMount;
import org.apache.hadoop.fs.BlockLocation;

/**
 * Maps a file's byte ranges to the OSD hosts holding them, so schedulers can run a task
 * next to its data. A Hadoop block usually spans several RADOS objects; its hosts are
 * those OSDs ordered by how many of the block's bytes they hold. An OSD host whose
 * NodeManagers YARN knows by other names (see {@link CephLocalityHosts}) is preceded by
 * those names.
 */
final class CephBlockLocator {

  private final CephMount mount;
  private final Supplier<CephLocalityHosts> yarnHosts;
  private final Map<Integer, OsdPlace> places = new ConcurrentHashMap<>();

  CephBlockLocator(CephMount mount, Supplier<CephLocalityHosts> yarnHosts) {
    this.mount = mount;
    this.yarnHosts = yarnHosts;
  }

  private static final class OsdPlace {
    final String host;
    final String name;
    final String topology;
    /** Whether the OSD's address is known; a place without one is not kept. */
    final boolean addressed;

    OsdPlace(String host, String name, String topology, boolean addressed) {
      this.host = host;
      this.name = name;
      this.topology = topology;
      this.addressed = addressed;
    }
  }

  BlockLocation[] locate(int fd, long fileLength, long start, long len, long blockSize) {
    List<BlockLocation> result = new ArrayList<>();
    long end = Math.min(fileLength, start + len);
    long blockStart = (start / blockSize) * blockSize;
    CephLocalityHosts nodes = yarnHosts.get();
    for (; blockStart < end; blockStart += blockSize) {
      long blockEnd = Math.min(fileLength, blockStart + blockSize);
      result.add(locateBlock(fd, blockStart, blockEnd, nodes));
    }
    return result.toArray(new BlockLocation[0]);
  }

  private BlockLocation locateBlock(int fd, long blockStart, long blockEnd, CephLocalityHosts nodes) {
    Map<Integer, Long> bytesByOsd = new LinkedHashMap<>();
    long offset = blockStart;
    while (offset < blockEnd) {
      CephFileExtent extent = mount.get_file_extent(fd, offset);
      long extentEnd = extent.getOffset() + Math.max(1, extent.getLength());
      long covered = Math.min(blockEnd, extentEnd) - offset;
      if (covered <= 0) {
        break;
      }
      for (int osd : extent.getOSDs()) {
        bytesByOsd.merge(osd, covered, Long::sum);
      }
      offset += covered;
    }
    List<Map.Entry<Integer, Long>> ranked = new ArrayList<>(bytesByOsd.entrySet());
    ranked.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
    List<OsdPlace> ordered = new ArrayList<>();
    for (Map.Entry<Integer, Long> e : ranked) {
      OsdPlace place = places.get(e.getKey());
      if (place == null) {
        place = placeOf(e.getKey());
        if (place == null) {
          continue;
        }
        if (place.addressed) {
          places.put(e.getKey(), place);
        }
      }
      ordered.add(place);
    }
    Hosts hosts = new Hosts();
    // YARN's names before every CRUSH host: a job client keeps only a split's first
    // mapreduce.job.max.split.locations hosts, and those must be the ones a scheduler
    // can match.
    for (OsdPlace place : ordered) {
      String rack = place.topology.substring(0, place.topology.lastIndexOf('/') + 1);
      for (String yarnHost : nodes.yarnHosts(place.host)) {
        hosts.add(yarnHost, yarnHost, rack + yarnHost);
      }
    }
    for (OsdPlace place : ordered) {
      hosts.add(place.host, place.name, place.topology);
    }
    return new BlockLocation(hosts.names.toArray(new String[0]), hosts.hosts.toArray(new String[0]),
        hosts.topology.toArray(new String[0]), blockStart, blockEnd - blockStart);
  }

  /** A block's hosts, each once, with its name and topology path at the same index. */
  private static final class Hosts {
    final List<String> hosts = new ArrayList<>();
    final List<String> names = new ArrayList<>();
    final List<String> topology = new ArrayList<>();

    void add(String host, String name, String path) {
      if (!hosts.contains(host)) {
        hosts.add(host);
        names.add(name);
        topology.add(path);
      }
    }
  }

  /**
   * Where an OSD is: its CRUSH host, which Rook names after the Kubernetes node, and its
   * address, the fallback host. libcephfs knows no address for an OSD that is down (ENOENT), as
   * during a restart or an upgrade; its CRUSH host stands for it then, and the place is
   * looked up again next time. Null when neither is known: the block's location is a
   * hint, and a job must not fail for the want of it.
   */
  private OsdPlace placeOf(int osd) {
    String crushHost = crushHost(osd);
    String ip;
    try {
      InetAddress address = mount.get_osd_address(osd);
      ip = address.getHostAddress();
    } catch (Exception e) {
      // libcephfs throws FileNotFoundException (ENOENT) for an OSD that is not up.
      return crushHost == null ? null : new OsdPlace(crushHost, crushHost, topologyOf(osd, crushHost), false);
    }
    String host = crushHost == null ? ip : crushHost;
    return new OsdPlace(host, ip, topologyOf(osd, host), true);
  }

  private String crushHost(int osd) {
    for (Bucket b : crushLocation(osd)) {
      if ("host".equals(b.getType())) {
        return b.getName();
      }
    }
    return null;
  }

  /**
   * The OSD's rack and host as a topology path. The rack is its CRUSH rack, else its
   * zone: the buckets Rook builds from the node labels the operator gives YARN's racks
   * from, so that both name one rack alike.
   */
  private String topologyOf(int osd, String host) {
    Bucket[] location = crushLocation(osd);
    for (String type : new String[] {"rack", "zone"}) {
      for (Bucket b : location) {
        if (type.equals(b.getType())) {
          return "/" + b.getName() + "/" + host;
        }
      }
    }
    return "/default-rack/" + host;
  }

  private Bucket[] crushLocation(int osd) {
    try {
      Bucket[] buckets = mount.get_osd_crush_location(osd);
      return buckets == null ? new Bucket[0] : buckets;
    } catch (Exception e) {
      // An OSD the client's maps do not have yet has no location.
      return new Bucket[0];
    }
  }
}
