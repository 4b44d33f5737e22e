package io.hadoopceph.fs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The file as the kubelet keeps a ConfigMap volume: {@code hosts} links to
 * {@code ..data/hosts}, and {@code ..data} links to a directory of the current version,
 * which an update replaces by swapping the {@code ..data} link.
 */
public class CephLocalityHostsFileTest {

  private static final long INTERVAL = CephLocalityHostsFile.CHECK_INTERVAL_NANOS;

  @Rule
  public final TemporaryFolder tmp = new TemporaryFolder();

  private long now = 1_000_000_000L;

  private Path volume() throws IOException {
    Path dir = tmp.getRoot().toPath();
    Files.createSymbolicLink(dir.resolve("hosts"), Path.of("..data", "hosts"));
    return dir.resolve("hosts");
  }

  /** Writes a new version of the volume, modified at second, and swaps ..data to it. */
  private void publish(String version, String content, long second) throws IOException {
    Path dir = tmp.getRoot().toPath();
    Path data = Files.createDirectory(dir.resolve(version));
    Path file = Files.writeString(data.resolve("hosts"), content, UTF_8);
    Files.setLastModifiedTime(file, FileTime.from(Instant.ofEpochSecond(second)));
    Path link = Files.createSymbolicLink(dir.resolve("..data_tmp"), Path.of(version));
    Files.move(link, dir.resolve("..data"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  @Test
  public void aMissingFileMapsNothingUntilItAppears() throws IOException {
    Path path = volume();
    CephLocalityHostsFile file = new CephLocalityHostsFile(path, () -> now);
    assertThat(file.get().yarnHosts("node-a")).isEmpty();

    publish("..v1", "node-a nm-0\n", 100);
    assertThat(file.get().yarnHosts("node-a")).as("not looked at again yet").isEmpty();
    now += INTERVAL;
    assertThat(file.get().yarnHosts("node-a")).containsExactly("nm-0");
  }

  @Test
  public void anUpdateIsReadOnceTheIntervalPassed() throws IOException {
    Path path = volume();
    publish("..v1", "node-a nm-0\n", 100);
    CephLocalityHostsFile file = new CephLocalityHostsFile(path, () -> now);
    assertThat(file.get().yarnHosts("node-a")).containsExactly("nm-0");

    publish("..v2", "node-a nm-1\n", 200);
    now += INTERVAL - 1;
    assertThat(file.get().yarnHosts("node-a")).containsExactly("nm-0");
    now += 1;
    assertThat(file.get().yarnHosts("node-a")).containsExactly("nm-1");
  }

  @Test
  public void anUnchangedFileIsNotReadAgain() throws IOException {
    Path path = volume();
    publish("..v1", "node-a nm-0\n", 100);
    CephLocalityHostsFile file = new CephLocalityHostsFile(path, () -> now);
    CephLocalityHosts first = file.get();

    now += INTERVAL;
    assertThat(file.get()).isSameAs(first);
  }

  @Test
  public void aFileThatGoesAwayMapsNothing() throws IOException {
    Path path = volume();
    publish("..v1", "node-a nm-0\n", 100);
    CephLocalityHostsFile file = new CephLocalityHostsFile(path, () -> now);
    assertThat(file.get().yarnHosts("node-a")).containsExactly("nm-0");

    Files.delete(tmp.getRoot().toPath().resolve("..data"));
    now += INTERVAL;
    assertThat(file.get().yarnHosts("node-a")).isEmpty();

    publish("..v2", "node-a nm-0\n", 100);
    now += INTERVAL;
    assertThat(file.get().yarnHosts("node-a")).as("the same file again").containsExactly("nm-0");
  }

  @Test
  public void aDirectoryInPlaceOfTheFileMapsNothing() throws IOException {
    Path dir = tmp.newFolder("hosts").toPath();
    CephLocalityHostsFile file = new CephLocalityHostsFile(dir, () -> now);
    assertThat(file.get().yarnHosts("node-a")).isEmpty();
  }
}
