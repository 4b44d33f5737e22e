package io.hadoopceph.fs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The names YARN knows the NodeManagers of each node by. An OSD's CRUSH host is its
 * node's name, but a NodeManager registers under another name (its pod's FQDN, or the
 * address of a data interface), and schedulers match a split's hosts to those names
 * exactly: without this mapping no map task is ever data-local.
 *
 * <p>The text has one line per node, {@code <node> <yarn host> [<yarn host>...]}, fields
 * separated by blanks; {@code #} starts a comment. Lines of one node add up.
 */
final class CephLocalityHosts {

  static final CephLocalityHosts NONE = new CephLocalityHosts(Collections.emptyMap());

  private final Map<String, List<String>> byNode;

  private CephLocalityHosts(Map<String, List<String>> byNode) {
    this.byNode = byNode;
  }

  /** Never fails: a line it cannot use is skipped, since a location is only a hint. */
  static CephLocalityHosts parse(String text) {
    Map<String, List<String>> byNode = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      int comment = line.indexOf('#');
      if (comment >= 0) {
        line = line.substring(0, comment);
      }
      String[] fields = line.trim().split("\\s+");
      if (fields.length < 2) {
        continue;
      }
      List<String> hosts = byNode.computeIfAbsent(fields[0], node -> new ArrayList<>());
      for (int i = 1; i < fields.length; i++) {
        if (!hosts.contains(fields[i])) {
          hosts.add(fields[i]);
        }
      }
    }
    byNode.replaceAll((node, hosts) -> Collections.unmodifiableList(hosts));
    return new CephLocalityHosts(Collections.unmodifiableMap(byNode));
  }

  /** The YARN hosts of node's NodeManagers, in the order given; empty for a node not listed. */
  List<String> yarnHosts(String node) {
    return byNode.getOrDefault(node, Collections.emptyList());
  }
}
