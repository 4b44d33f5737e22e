package io.hadoopceph.fs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Translates CephFS's numeric owners to the names Hadoop compares. The uid this process
 * writes with is reported as the Hadoop user itself, because MapReduce refuses a staging
 * directory whose owner differs from the submitting user, and containers often have no
 * passwd entry for it. Other ids use /etc/passwd and /etc/group, then the number.
 */
final class CephOwners {

  private final long ownUid;
  private final String ownUser;
  private final Map<Long, String> users;
  private final Map<Long, String> groups;

  CephOwners(long ownUid, String ownUser, Map<Long, String> users, Map<Long, String> groups) {
    this.ownUid = ownUid;
    this.ownUser = ownUser;
    this.users = users;
    this.groups = groups;
  }

  static CephOwners forCurrentProcess(String hadoopUser) {
    return new CephOwners(currentUid(), hadoopUser,
        readIdFile(Paths.get("/etc/passwd")), readIdFile(Paths.get("/etc/group")));
  }

  private static long currentUid() {
    try {
      return new com.sun.security.auth.module.UnixSystem().getUid();
    } catch (LinkageError | RuntimeException e) {
      return -1;
    }
  }

  /** name:x:id:... lines, as in passwd and group. */
  static Map<Long, String> readIdFile(Path file) {
    Map<Long, String> byId = new HashMap<>();
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return byId;
    }
    for (String line : lines) {
      String[] f = line.split(":");
      if (f.length >= 3) {
        try {
          byId.putIfAbsent(Long.parseLong(f[2]), f[0]);
        } catch (NumberFormatException ignored) {
          continue;
        }
      }
    }
    return byId;
  }

  String user(long uid) {
    if (uid == ownUid && ownUser != null) {
      return ownUser;
    }
    return users.getOrDefault(uid, Long.toString(uid));
  }

  String group(long gid) {
    return groups.getOrDefault(gid, Long.toString(gid));
  }

  int uid(String user) throws IOException {
    if (user.equals(ownUser) && ownUid >= 0) {
      return (int) ownUid;
    }
    return (int) idOf(user, users, "user");
  }

  int gid(String group) throws IOException {
    return (int) idOf(group, groups, "group");
  }

  private static long idOf(String name, Map<Long, String> byId, String kind) throws IOException {
    for (Map.Entry<Long, String> e : byId.entrySet()) {
      if (e.getValue().equals(name)) {
        return e.getKey();
      }
    }
    try {
      return Long.parseLong(name);
    } catch (NumberFormatException e) {
      throw new IOException("unknown " + kind + " '" + name + "': not in /etc/" + ("user".equals(kind) ? "passwd" : "group") + " and not numeric");
    }
  }
}
