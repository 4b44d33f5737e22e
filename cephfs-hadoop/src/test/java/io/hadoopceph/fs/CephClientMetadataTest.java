package io.hadoopceph.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.Test;

public class CephClientMetadataTest {

  @Test
  public void tagsTheInstanceAndThePodWhenPresent() {
    String rendered = CephClientMetadata.render("id-1",
        Map.of("POD_NAME", "nm-0", "POD_NAMESPACE", "hadoop", "POD_UID", "0f1e-22"), Map.of());
    assertThat(rendered).isEqualTo("hadoop_instance=id-1,pod_name=nm-0,pod_namespace=hadoop,pod_uid=0f1e-22");
  }

  @Test
  public void outsideKubernetesOnlyTheInstanceIsTagged() {
    assertThat(CephClientMetadata.render("id-2", Map.of(), Map.of())).isEqualTo("hadoop_instance=id-2");
  }

  @Test
  public void separatorsInValuesCannotSplitTheList() {
    String rendered = CephClientMetadata.render("id", Map.of(), Map.of("team", "a,b=c"));
    assertThat(rendered).isEqualTo("hadoop_instance=id,team=a_b_c");
  }

  @Test
  public void instanceIdsAreUnique() {
    assertThat(CephClientMetadata.newInstanceId()).isNotEqualTo(CephClientMetadata.newInstanceId());
  }
}
