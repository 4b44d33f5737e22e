package io.hadoopceph.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import org.junit.Test;

public class CephPoolSelectorTest {

  private static final Map<String, Integer> SIZES = Map.of("rep2", 2, "rep3", 3, "ec21", 3);

  private static CephPoolSelector selector(String... pools) {
    return new CephPoolSelector(List.of(pools), pool -> {
      Integer size = SIZES.get(pool);
      if (size == null) {
        throw new IOException("no pool " + pool);
      }
      return size;
    });
  }

  @Test
  public void noConfiguredPoolInheritsTheDirectoryLayout() throws IOException {
    assertThat(selector().select((short) 3)).isEmpty();
  }

  @Test
  public void aSinglePoolIsAlwaysChosen() throws IOException {
    assertThat(selector("ec21").select((short) 1)).contains("ec21");
  }

  @Test
  public void severalPoolsMatchTheRequestedReplication() throws IOException {
    assertThat(selector("rep2", "rep3").select((short) 3)).contains("rep3");
    assertThat(selector("rep2", "rep3").select((short) 2)).contains("rep2");
  }

  @Test
  public void firstMatchWinsAndNoMatchFallsBackToTheFirstPool() throws IOException {
    assertThat(selector("ec21", "rep3").select((short) 3)).contains("ec21");
    assertThat(selector("rep3", "rep2").select((short) 5)).contains("rep3");
  }
}
