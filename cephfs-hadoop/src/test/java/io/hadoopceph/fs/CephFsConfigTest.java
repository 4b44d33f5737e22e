package io.hadoopceph.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.junit.Test;

public class CephFsConfigTest {

  private static Configuration empty() {
    return new Configuration(false);
  }

  @Test
  public void defaultsMatchTheDocumentedValues() {
    CephFsConfig c = CephFsConfig.from(URI.create("ceph:///"), empty());
    assertThat(c.confFile()).isNull();
    assertThat(c.monAddress()).isNull();
    assertThat(c.authId()).isNull();
    assertThat(c.rootDir()).isEqualTo("/");
    assertThat(c.dataPools()).isEmpty();
    assertThat(c.objectSize()).isZero();
    assertThat(c.replication()).isEqualTo((short) 3);
    assertThat(c.localizeReads()).isFalse();
    assertThat(c.blockSize()).isEqualTo(128L * 1024 * 1024);
    assertThat(c.readBufferSize()).isEqualTo(CephFsConfig.DEFAULT_READ_BUFFER_SIZE);
    assertThat(c.writeBufferSize()).isEqualTo(CephFsConfig.DEFAULT_WRITE_BUFFER_SIZE);
    assertThat(c.syncOnClose()).isTrue();
    assertThat(c.rstatsContentSummary()).isFalse();
    assertThat(c.localityHostsFile()).isNull();
  }

  @Test
  public void localityHostsFileIsTrimmedAndAnEmptyOneIsNone() {
    Configuration conf = empty();
    conf.set(CephFsConfig.LOCALITY_HOSTS_FILE, " /etc/hadoop-ceph/topology/hosts ");
    assertThat(CephFsConfig.from(URI.create("ceph:///"), conf).localityHostsFile()).isEqualTo("/etc/hadoop-ceph/topology/hosts");
    conf.set(CephFsConfig.LOCALITY_HOSTS_FILE, "");
    assertThat(CephFsConfig.from(URI.create("ceph:///"), conf).localityHostsFile()).isNull();
  }

  @Test
  public void historicalKeysAreRead() {
    Configuration conf = empty();
    conf.set("ceph.conf.file", "/etc/ceph/other.conf");
    conf.set("ceph.conf.options", "client_oc_size=1000, debug_client = 5");
    conf.set("ceph.mon.address", "10.0.0.1:6789");
    conf.set("ceph.auth.id", "hadoop");
    conf.set("ceph.auth.keyring", "/k");
    conf.set("ceph.auth.keyfile", "/f");
    conf.set("ceph.root.dir", "//hadoop//data/");
    conf.set("ceph.data.pools", "a, b,,c");
    conf.set("ceph.object.size", "16m");
    conf.set("ceph.replication", "2");
    conf.set("ceph.localize.reads", "true");
    CephFsConfig c = CephFsConfig.from(URI.create("ceph:///"), conf);
    assertThat(c.confFile()).isEqualTo("/etc/ceph/other.conf");
    assertThat(c.confOptions()).containsExactly(Map.entry("client_oc_size", "1000"), Map.entry("debug_client", "5"));
    assertThat(c.monAddress()).isEqualTo("10.0.0.1:6789");
    assertThat(c.authId()).isEqualTo("hadoop");
    assertThat(c.keyring()).isEqualTo("/k");
    assertThat(c.keyfile()).isEqualTo("/f");
    assertThat(c.rootDir()).isEqualTo("/hadoop/data");
    assertThat(c.dataPools()).containsExactly("a", "b", "c");
    assertThat(c.objectSize()).isEqualTo(16L * 1024 * 1024);
    assertThat(c.blockSize()).as("block size follows the object size").isEqualTo(16L * 1024 * 1024);
    assertThat(c.replication()).isEqualTo((short) 2);
    assertThat(c.localizeReads()).isTrue();
  }

  @Test
  public void authorityNamesTheMonitorsUnlessConfigured() {
    assertThat(CephFsConfig.from(URI.create("ceph://10.0.0.1:6789/"), empty()).monAddress())
        .isEqualTo("10.0.0.1:6789");
    assertThat(CephFsConfig.from(URI.create("ceph://m1:6789;m2:6789/"), empty()).monAddress())
        .isEqualTo("m1:6789,m2:6789");
    assertThat(CephFsConfig.from(URI.create("ceph://null/"), empty()).monAddress()).isNull();
    Configuration conf = empty();
    conf.set("ceph.mon.address", "10.9.9.9");
    assertThat(CephFsConfig.from(URI.create("ceph://10.0.0.1:6789/"), conf).monAddress()).isEqualTo("10.9.9.9");
  }

  @Test
  public void malformedValuesAreRejectedWithTheKeyName() {
    Configuration conf = empty();
    conf.set("ceph.conf.options", "novalue");
    assertThatThrownBy(() -> CephFsConfig.from(URI.create("ceph:///"), conf))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ceph.conf.options");
    Configuration relative = empty();
    relative.set("ceph.root.dir", "data");
    assertThatThrownBy(() -> CephFsConfig.from(URI.create("ceph:///"), relative))
        .hasMessageContaining("ceph.root.dir");
    Configuration negative = empty();
    negative.set("ceph.object.size", "-1");
    assertThatThrownBy(() -> CephFsConfig.from(URI.create("ceph:///"), negative))
        .hasMessageContaining("ceph.object.size");
    Configuration zeroReplication = empty();
    zeroReplication.set("ceph.replication", "0");
    assertThatThrownBy(() -> CephFsConfig.from(URI.create("ceph:///"), zeroReplication))
        .hasMessageContaining("ceph.replication");
  }

  @Test
  public void confFileFallsBackToTheEnvironment() {
    CephFsConfig none = CephFsConfig.from(URI.create("ceph:///"), empty());
    assertThat(CephSession.confFileOf(none, Map.of("CEPH_CONF", "/env.conf"))).isEqualTo("/env.conf");
    Configuration conf = empty();
    conf.set("ceph.conf.file", "/explicit.conf");
    CephFsConfig explicit = CephFsConfig.from(URI.create("ceph:///"), conf);
    assertThat(CephSession.confFileOf(explicit, Map.of("CEPH_CONF", "/env.conf"))).isEqualTo("/explicit.conf");
  }
}
