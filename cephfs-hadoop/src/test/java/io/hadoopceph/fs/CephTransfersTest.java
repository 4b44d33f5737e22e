package io.hadoopceph.fs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.Test;

public class CephTransfersTest {

  private static final int MIB = 1024 * 1024;

  @Test
  public void readsGoStraightIntoExactArraysOfAtLeastHalfABuffer() {
    assertThat(CephTransfers.readsDirectly(new byte[1_000_000], 0, 1_000_000, MIB))
        .as("TestDFSIO's 1,000,000-byte reads").isTrue();
    assertThat(CephTransfers.readsDirectly(new byte[4 * MIB], 0, 4 * MIB, MIB)).isTrue();
    assertThat(CephTransfers.readsDirectly(new byte[MIB / 2], 0, MIB / 2, MIB)).isTrue();
  }

  @Test
  public void readsThatWouldCopyMoreThanTheyMoveUseTheBuffer() {
    assertThat(CephTransfers.readsDirectly(new byte[8 * MIB], 0, 2 * MIB, MIB))
        .as("array longer than the read").isFalse();
    assertThat(CephTransfers.readsDirectly(new byte[2 * MIB], 1, 2 * MIB - 1, MIB))
        .as("offset into the array").isFalse();
    assertThat(CephTransfers.readsDirectly(new byte[4096], 0, 4096, MIB))
        .as("small read").isFalse();
  }

  @Test
  public void readBufferShrinksToTheRestOfASmallFile() {
    assertThat(CephTransfers.readBufferSize(MIB, 10L * MIB, 0)).isEqualTo(MIB);
    assertThat(CephTransfers.readBufferSize(MIB, 10L * MIB, 10L * MIB - 300_000)).isEqualTo(300_000);
    assertThat(CephTransfers.readBufferSize(MIB, 200_000, 0)).isEqualTo(200_000);
    assertThat(CephTransfers.readBufferSize(MIB, 100, 0)).isEqualTo(CephTransfers.MIN_READ_BUFFER);
    assertThat(CephTransfers.readBufferSize(MIB, 0, 0))
        .as("an empty file may grow while it is read").isEqualTo(CephTransfers.MIN_READ_BUFFER);
    assertThat(CephTransfers.readBufferSize(MIB, 100, 5000)).as("past the known end").isEqualTo(CephTransfers.MIN_READ_BUFFER);
    assertThat(CephTransfers.readBufferSize(16 * 1024, 10L * MIB, 0)).as("never above the configured size").isEqualTo(16 * 1024);
  }

  @Test
  public void mostlyEmptyArraysAreCopiedToTheirLength() {
    assertThat(CephTransfers.copiesExactly(8 * MIB, 100)).as("hflush of a few bytes").isTrue();
    assertThat(CephTransfers.copiesExactly(8 * MIB, 3 * MIB)).isTrue();
    assertThat(CephTransfers.copiesExactly(8 * MIB, 4 * MIB)).isFalse();
    assertThat(CephTransfers.copiesExactly(8 * MIB, 8 * MIB)).as("a full buffer").isFalse();
  }
}
