package io.hadoopceph.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.Test;

public class CephOwnersTest {

  private final CephOwners owners = new CephOwners(1000, "alice",
      Map.of(0L, "root", 1000L, "ubuntu", 2000L, "bob"), Map.of(0L, "root", 3000L, "hadoop"));

  @Test
  public void ownUidIsTheHadoopUser() throws IOException {
    assertThat(owners.user(1000)).isEqualTo("alice");
    assertThat(owners.uid("alice")).isEqualTo(1000);
  }

  @Test
  public void otherIdsUseTheTablesThenTheNumber() throws IOException {
    assertThat(owners.user(2000)).isEqualTo("bob");
    assertThat(owners.user(4242)).isEqualTo("4242");
    assertThat(owners.group(3000)).isEqualTo("hadoop");
    assertThat(owners.uid("bob")).isEqualTo(2000);
    assertThat(owners.gid("hadoop")).isEqualTo(3000);
    assertThat(owners.uid("77")).isEqualTo(77);
  }

  @Test
  public void unknownNamesAreRefused() {
    assertThatThrownBy(() -> owners.uid("nobody-here")).isInstanceOf(IOException.class)
        .hasMessageContaining("nobody-here");
  }

  @Test
  public void parsesPasswdFormat() throws IOException {
    Path file = Files.createTempFile("passwd", "");
    Files.writeString(file, "root:x:0:0:root:/root:/bin/bash\nbroken\nhdfs:x:995:990::/:/bin/false\n");
    assertThat(CephOwners.readIdFile(file)).containsEntry(0L, "root").containsEntry(995L, "hdfs").hasSize(2);
    Files.delete(file);
  }
}
