package io.hadoopceph.fs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.Test;

public class CephLocalityHostsTest {

  @Test
  public void eachNodeMapsToItsHostsInTheirOrder() {
    CephLocalityHosts hosts = CephLocalityHosts.parse(
        "node-a nm-1.nm.ns.svc.cluster.local nm-0.nm.ns.svc.cluster.local\n"
            + "node-b\t10.1.0.7\n");

    assertThat(hosts.yarnHosts("node-a")).containsExactly("nm-1.nm.ns.svc.cluster.local", "nm-0.nm.ns.svc.cluster.local");
    assertThat(hosts.yarnHosts("node-b")).containsExactly("10.1.0.7");
  }

  @Test
  public void blankLinesCommentsAndSurroundingBlanksAreIgnored() {
    CephLocalityHosts hosts = CephLocalityHosts.parse(
        "# Rendered by hadoop-ceph-operator\n"
            + "\n"
            + "   \n"
            + "  node-a   nm-0   # the first NodeManager\n"
            + "#node-b nm-1\n");

    assertThat(hosts.yarnHosts("node-a")).containsExactly("nm-0");
    assertThat(hosts.yarnHosts("node-b")).isEmpty();
    assertThat(hosts.yarnHosts("#node-b")).isEmpty();
  }

  @Test
  public void anUnknownNodeOrOneWithoutHostsMapsToNothing() {
    CephLocalityHosts hosts = CephLocalityHosts.parse("node-a\nnode-b nm-1\n");

    assertThat(hosts.yarnHosts("node-a")).isEmpty();
    assertThat(hosts.yarnHosts("node-c")).isEmpty();
    assertThat(CephLocalityHosts.NONE.yarnHosts("node-b")).isEmpty();
  }

  @Test
  public void linesOfOneNodeAddUpWithoutRepeatingAHost() {
    CephLocalityHosts hosts = CephLocalityHosts.parse("node-a nm-0 nm-0\r\nnode-a nm-1 nm-0\n");

    assertThat(hosts.yarnHosts("node-a")).containsExactly("nm-0", "nm-1");
  }

  @Test
  public void emptyTextMapsNothing() {
    assertThat(CephLocalityHosts.parse("").yarnHosts("node-a")).isEmpty();
  }
}
