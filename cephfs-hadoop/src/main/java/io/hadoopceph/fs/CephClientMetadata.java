package io.hadoopceph.fs;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The metadata a client attaches to its MDS session. An operator (or a test) can evict a
 * dead client by it, e.g. {@code ceph tell mds.0 client evict client_metadata.pod_uid=x},
 * instead of waiting for the session to time out. The pod's UID tells a pod from its
 * replacement, which a StatefulSet gives the same name.
 */
final class CephClientMetadata {

  static final String INSTANCE_KEY = "hadoop_instance";
  static final String POD_NAME_KEY = "pod_name";
  static final String POD_NAMESPACE_KEY = "pod_namespace";
  static final String POD_UID_KEY = "pod_uid";

  private CephClientMetadata() {
  }

  static String newInstanceId() {
    return UUID.randomUUID().toString();
  }

  /**
   * Builds libcephfs's {@code client_metadata} value. Ceph splits it on commas and the
   * first '=', so those characters are replaced in values.
   */
  static String render(String instanceId, Map<String, String> env, Map<String, String> extra) {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put(INSTANCE_KEY, instanceId);
    putIfPresent(tags, POD_NAME_KEY, env.get("POD_NAME"));
    putIfPresent(tags, POD_NAMESPACE_KEY, env.get("POD_NAMESPACE"));
    putIfPresent(tags, POD_UID_KEY, env.get("POD_UID"));
    tags.putAll(extra);
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, String> e : tags.entrySet()) {
      if (out.length() > 0) {
        out.append(',');
      }
      out.append(sanitise(e.getKey())).append('=').append(sanitise(e.getValue()));
    }
    return out.toString();
  }

  private static void putIfPresent(Map<String, String> tags, String key, String value) {
    if (value != null && !value.isEmpty()) {
      tags.put(key, value);
    }
  }

  private static String sanitise(String s) {
    return s.replace(',', '_').replace('=', '_');
  }
}
