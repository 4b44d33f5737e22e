package io.hadoopceph.fs;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs Ceph's own command-line tools with the admin key, to check what the connector did. */
public final class CephAdmin {

  private CephAdmin() {
  }

  private static String adminKeyring() {
    return new File(new File(CephTestCluster.confFile()).getParentFile(), "ceph.client.admin.keyring").getPath();
  }

  public static String ceph(String... args) throws IOException {
    return run("ceph", args);
  }

  public static String rados(String... args) throws IOException {
    return run("rados", args);
  }

  private static String run(String tool, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(tool, "--conf", CephTestCluster.confFile(),
        "--name", "client.admin", "--keyring", adminKeyring()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    byte[] out = p.getInputStream().readAllBytes();
    try {
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException(cmd + " timed out");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    if (p.exitValue() != 0) {
      throw new IOException(cmd + " exited " + p.exitValue());
    }
    return new String(out, StandardCharsets.UTF_8);
  }
}
