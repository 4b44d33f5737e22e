package io.hadoopceph.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileNotFoundException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import com.ceph.crush.Bucket;
import com.ceph.fs.CephFileExtent;
import com.ceph.fs.CephMount;
import com.ceph.fs.Extents;
import org.apache.hadoop.fs.BlockLocation;
import org.junit.Test;

/**
 * What block locations make of OSDs libcephfs has no address for: it answers ENOENT
 * (FileNotFoundException) for them, which was seen while Rook restarted its OSDs one by
 * one, and TeraSort's split computation failed on it. The mount below answers the
 * three calls the locator makes, as libcephfs did there; it is never mounted. And how
 * the NodeManagers' YARN hosts of an OSD's node join its CRUSH host.
 */
public class CephBlockLocatorTest {

  private static final long MIB = 1024 * 1024;

  /** A mount that knows addresses and CRUSH hosts of some OSDs and puts every byte on 0, 1, 2. */
  private static final class Maps extends CephMount {
    final Map<Integer, String> addresses = new HashMap<>();
    final Map<Integer, String> hosts = new HashMap<>();
    final Map<Integer, String> racks = new HashMap<>();
    final Map<Integer, String> zones = new HashMap<>();

    Maps() {
      super("admin");
    }

    @Override
    public CephFileExtent get_file_extent(int fd, long offset) {
      long object = offset / (4 * MIB);
      return Extents.of(object * 4 * MIB, 4 * MIB, 0, 1, 2);
    }

    @Override
    public InetAddress get_osd_address(int osd) {
      String ip = addresses.get(osd);
      if (ip == null) {
        sneakyThrow(new FileNotFoundException());
      }
      try {
        return InetAddress.getByName(ip);
      } catch (UnknownHostException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public Bucket[] get_osd_crush_location(int osd) {
      String host = hosts.get(osd);
      if (host == null) {
        return new Bucket[0];
      }
      List<Bucket> location = new ArrayList<>();
      location.add(new Bucket("host", host));
      if (racks.containsKey(osd)) {
        location.add(new Bucket("rack", racks.get(osd)));
      }
      if (zones.containsKey(osd)) {
        location.add(new Bucket("zone", zones.get(osd)));
      }
      location.add(new Bucket("root", "default"));
      return location.toArray(new Bucket[0]);
    }
  }

  /** libcephfs's JNI throws checked exceptions that CephMount does not declare. */
  @SuppressWarnings("unchecked")
  private static <E extends Throwable> void sneakyThrow(Throwable e) throws E {
    throw (E) e;
  }

  @Test
  public void anOsdWithoutAnAddressStandsAsItsCrushHostAndOneWithoutEitherIsLeftOut() throws Exception {
    Maps maps = new Maps();
    maps.addresses.put(0, "10.0.0.1");
    maps.hosts.put(0, "node-a");
    maps.hosts.put(1, "node-b");
    CephBlockLocator locator = new CephBlockLocator(maps, () -> CephLocalityHosts.NONE);

    BlockLocation[] blocks = locator.locate(3, 8 * MIB, 0, 8 * MIB, 4 * MIB);

    assertThat(blocks).hasSize(2);
    for (BlockLocation b : blocks) {
      assertThat(b.getHosts()).containsExactly("node-a", "node-b");
      assertThat(b.getNames()).containsExactly("10.0.0.1", "node-b");
      assertThat(b.getTopologyPaths()).containsExactly("/default-rack/node-a", "/default-rack/node-b");
    }
  }

  /** Rook's buckets above a host: a rack when the node has one, else its zone. */
  @Test
  public void theRackIsTheCrushRackElseTheZone() throws Exception {
    Maps maps = new Maps();
    maps.hosts.put(0, "node-a");
    maps.racks.put(0, "rack-1");
    maps.zones.put(0, "zone-x");
    maps.hosts.put(1, "node-b");
    maps.zones.put(1, "zone-y");
    maps.hosts.put(2, "node-c");
    CephBlockLocator locator = new CephBlockLocator(maps, () -> CephLocalityHosts.NONE);

    BlockLocation block = locator.locate(3, 4 * MIB, 0, 4 * MIB, 4 * MIB)[0];

    assertThat(block.getTopologyPaths()).containsExactly("/rack-1/node-a", "/zone-y/node-b", "/default-rack/node-c");
  }

  @Test
  public void anOsdThatComesBackIsLookedUpAgain() throws Exception {
    Maps maps = new Maps();
    maps.hosts.put(0, "node-a");
    CephBlockLocator locator = new CephBlockLocator(maps, () -> CephLocalityHosts.NONE);
    assertThat(locator.locate(3, 4 * MIB, 0, 4 * MIB, 4 * MIB)[0].getNames()).containsExactly("node-a");

    maps.addresses.put(0, "10.0.0.1");
    assertThat(locator.locate(3, 4 * MIB, 0, 4 * MIB, 4 * MIB)[0].getNames()).containsExactly("10.0.0.1");
  }

  @Test
  public void withoutAnyPlaceABlockHasNoHosts() throws Exception {
    CephBlockLocator locator = new CephBlockLocator(new Maps(), () -> CephLocalityHosts.NONE);
    BlockLocation[] blocks = locator.locate(3, 4 * MIB, 0, 4 * MIB, 4 * MIB);
    assertThat(blocks).hasSize(1);
    assertThat(blocks[0].getHosts()).isEmpty();
    assertThat(blocks[0].getLength()).isEqualTo(4 * MIB);
  }

  @Test
  public void theYarnHostsOfEachOsdsNodeComeFirstThenTheCrushHosts() throws Exception {
    Maps maps = new Maps();
    maps.addresses.put(0, "10.0.0.1");
    maps.hosts.put(0, "node-a");
    maps.racks.put(0, "rack-1");
    maps.addresses.put(1, "10.0.0.2");
    maps.hosts.put(1, "node-b");
    maps.addresses.put(2, "10.0.0.3");
    maps.hosts.put(2, "node-c");
    CephLocalityHosts yarn = CephLocalityHosts.parse("node-a nm-1.nm nm-0.nm\nnode-c nm-0.nm nm-2.nm\n");
    CephBlockLocator locator = new CephBlockLocator(maps, () -> yarn);

    BlockLocation block = locator.locate(3, 4 * MIB, 0, 4 * MIB, 4 * MIB)[0];

    assertThat(block.getHosts()).containsExactly("nm-1.nm", "nm-0.nm", "nm-2.nm", "node-a", "node-b", "node-c");
    assertThat(block.getNames()).containsExactly("nm-1.nm", "nm-0.nm", "nm-2.nm", "10.0.0.1", "10.0.0.2", "10.0.0.3");
    assertThat(block.getTopologyPaths()).containsExactly("/rack-1/nm-1.nm", "/rack-1/nm-0.nm", "/default-rack/nm-2.nm",
        "/rack-1/node-a", "/default-rack/node-b", "/default-rack/node-c");
  }

  @Test
  public void eachCallReadsTheMappingAsItIsThen() throws Exception {
    Maps maps = new Maps();
    maps.hosts.put(0, "node-a");
    AtomicReference<CephLocalityHosts> yarn = new AtomicReference<>(CephLocalityHosts.NONE);
    CephBlockLocator locator = new CephBlockLocator(maps, yarn::get);
    assertThat(locator.locate(3, 4 * MIB, 0, 4 * MIB, 4 * MIB)[0].getHosts()).containsExactly("node-a");

    yarn.set(CephLocalityHosts.parse("node-a nm-0.nm\n"));
    assertThat(locator.locate(3, 4 * MIB, 0, 4 * MIB, 4 * MIB)[0].getHosts()).containsExactly("nm-0.nm", "node-a");
  }
}
