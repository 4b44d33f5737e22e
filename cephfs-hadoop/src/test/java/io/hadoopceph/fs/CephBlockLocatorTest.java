package io.hadoopceph.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileNotFoundException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.Map;

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
 * three calls the locator makes, as libcephfs did there; it is never mounted.
 */
public class CephBlockLocatorTest {

  private static final long MIB = 1024 * 1024;

  /** A mount that knows addresses and CRUSH hosts of some OSDs and puts every byte on 0, 1, 2. */
  private static final class Maps extends CephMount {
    final Map<Integer, String> addresses = new HashMap<>();
    final Map<Integer, String> hosts = new HashMap<>();

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
      return host == null ? new Bucket[0] : new Bucket[] {new Bucket("host", host), new Bucket("root", "default")};
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
    CephBlockLocator locator = new CephBlockLocator(maps);

    BlockLocation[] blocks = locator.locate(3, 8 * MIB, 0, 8 * MIB, 4 * MIB);

    assertThat(blocks).hasSize(2);
    for (BlockLocation b : blocks) {
      assertThat(b.getHosts()).containsExactly("node-a", "node-b");
      assertThat(b.getNames()).containsExactly("10.0.0.1", "node-b");
      assertThat(b.getTopologyPaths()).containsExactly("/default-rack/node-a", "/default-rack/node-b");
    }
  }

  @Test
  public void anOsdThatComesBackIsLookedUpAgain() throws Exception {
    Maps maps = new Maps();
    maps.hosts.put(0, "node-a");
    CephBlockLocator locator = new CephBlockLocator(maps);
    assertThat(locator.locate(3, 4 * MIB, 0, 4 * MIB, 4 * MIB)[0].getNames()).containsExactly("node-a");

    maps.addresses.put(0, "10.0.0.1");
    assertThat(locator.locate(3, 4 * MIB, 0, 4 * MIB, 4 * MIB)[0].getNames()).containsExactly("10.0.0.1");
  }

  @Test
  public void withoutAnyPlaceABlockHasNoHosts() throws Exception {
    CephBlockLocator locator = new CephBlockLocator(new Maps());
    BlockLocation[] blocks = locator.locate(3, 4 * MIB, 0, 4 * MIB, 4 * MIB);
    assertThat(blocks).hasSize(1);
    assertThat(blocks[0].getHosts()).isEmpty();
    assertThat(blocks[0].getLength()).isEqualTo(4 * MIB);
  }
}
