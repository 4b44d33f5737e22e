package io.hadoopceph.fs;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The racks of hosts, as the operator writes them for {@link KubernetesRackMapping}: one
 * line per host, {@code <host> <rack>}, separated by blanks; {@code #} starts a comment.
 * A host is a name, an FQDN or an IP address; a rack is a path such as {@code /rack-a}.
 * When a host appears twice the later line wins.
 */
final class RackTable {

  static final RackTable EMPTY = new RackTable(Collections.emptyMap());

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  private final Map<String, String> racks;

  private RackTable(Map<String, String> racks) {
    this.racks = racks;
  }

  /** Never fails: a line it cannot use is skipped, since a rack is only a hint. */
  static RackTable parse(String text) {
    Map<String, String> racks = new HashMap<>();
    for (String line : text.split("\n")) {
      int comment = line.indexOf('#');
      if (comment >= 0) {
        line = line.substring(0, comment);
      }
      String[] fields = line.trim().split("\\s+");
      if (fields.length != 2) {
        continue;
      }
      String key = key(fields[0]);
      String rack = rack(fields[1]);
      if (key != null && rack != null) {
        racks.put(key, rack);
      }
    }
    return racks.isEmpty() ? EMPTY : new RackTable(Collections.unmodifiableMap(racks));
  }

  boolean isEmpty() {
    return racks.isEmpty();
  }

  int size() {
    return racks.size();
  }

  /**
   * The rack of name, or null. The name as given first; then, for a dotted host name, its
   * first label, because YARN knows a NodeManager by its pod's FQDN while the table may
   * name just the pod. An IP address is never cut short.
   */
  String rackOf(String name) {
    String key = name == null ? null : key(name);
    if (key == null) {
      return null;
    }
    String rack = racks.get(key);
    if (rack != null || isIpLiteral(key)) {
      return rack;
    }
    int dot = key.indexOf('.');
    return dot > 0 ? racks.get(key.substring(0, dot)) : null;
  }

  /** The racks of those names that have one, by name. */
  Map<String, String> racksOf(Collection<String> names) {
    Map<String, String> found = new LinkedHashMap<>();
    for (String name : names) {
      String rack = rackOf(name);
      if (rack != null) {
        found.put(name, rack);
      }
    }
    return found;
  }

  /**
   * Host names compare without case and without a final dot; IPv6 addresses in one
   * spelling, so that {@code fd00::1} and {@code FD00:0::1} are the same host.
   */
  static String key(String host) {
    String key = host.trim();
    if (key.length() > 2 && key.startsWith("[") && key.endsWith("]")) {
      key = key.substring(1, key.length() - 1);
    }
    if (key.endsWith(".")) {
      key = key.substring(0, key.length() - 1);
    }
    if (key.isEmpty()) {
      return null;
    }
    if (key.indexOf(':') >= 0) {
      try {
        // The brackets make InetAddress parse a literal and never ask DNS.
        return InetAddress.getByName("[" + key + "]").getHostAddress();
      } catch (UnknownHostException e) {
        return key.toLowerCase(Locale.ROOT);
      }
    }
    return key.toLowerCase(Locale.ROOT);
  }

  private static boolean isIpLiteral(String key) {
    return key.indexOf(':') >= 0 || IPV4.matcher(key).matches();
  }

  /** An absolute path without a final slash; null for the root, which is no rack. */
  private static String rack(String rack) {
    String path = rack.startsWith("/") ? rack : "/" + rack;
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    return path.isEmpty() ? null : path;
  }
}
