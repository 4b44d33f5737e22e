package io.hadoopceph.fs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.UUID;

import io.hadoopceph.fs.CephTestCluster;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Every path capability the connector answers is checked against the operation it
 * stands for: what it claims works, what it denies is refused.
 */
public class CephCapabilitiesIT {

  private static FileSystem fs;
  private static Path file;

  @BeforeClass
  public static void setUp() throws IOException {
    fs = FileSystem.newInstance(URI.create("ceph:///"), CephTestCluster.baseConf());
    file = new Path("/hco-tests/capabilities-" + UUID.randomUUID() + "/file");
    try (FSDataOutputStream out = fs.create(file)) {
      out.write(1);
    }
  }

  @AfterClass
  public static void tearDown() throws IOException {
    fs.delete(file.getParent(), true);
    fs.close();
  }

  private static boolean has(String capability) throws IOException {
    return fs.hasPathCapability(file, capability);
  }

  @Test
  public void whatItClaimsWorks() throws IOException {
    assertThat(has(CommonPathCapabilities.FS_APPEND)).isTrue();
    try (FSDataOutputStream out = fs.append(file)) {
      out.write(2);
    }
    assertThat(fs.getFileStatus(file).getLen()).isEqualTo(2);

    assertThat(has(CommonPathCapabilities.FS_PERMISSIONS)).isTrue();
    fs.setPermission(file, new FsPermission((short) 0640));
    assertThat(fs.getFileStatus(file).getPermission().toShort()).isEqualTo((short) 0640);

    assertThat(has(CommonPathCapabilities.FS_XATTRS)).isTrue();
    fs.setXAttr(file, "user.owner", "team".getBytes(StandardCharsets.UTF_8), EnumSet.of(XAttrSetFlag.CREATE));
    assertThat(fs.getXAttr(file, "user.owner")).isEqualTo("team".getBytes(StandardCharsets.UTF_8));

    assertThat(has(CommonPathCapabilities.BULK_DELETE)).isTrue();
    Path gone = new Path(file.getParent(), "bulk");
    fs.create(gone).close();
    try (org.apache.hadoop.fs.BulkDelete bulk = fs.createBulkDelete(file.getParent())) {
      assertThat(bulk.bulkDelete(java.util.Collections.singletonList(gone))).isEmpty();
    }
    assertThat(fs.exists(gone)).isFalse();
  }

  @Test
  public void whatItDeniesIsRefused() throws IOException {
    FileStatus st = fs.getFileStatus(file);
    assertThat(has(CommonPathCapabilities.FS_TRUNCATE)).isFalse();
    assertThatThrownBy(() -> fs.truncate(file, 0)).isInstanceOf(UnsupportedOperationException.class);
    assertThat(has(CommonPathCapabilities.FS_PATHHANDLES)).isFalse();
    assertThatThrownBy(() -> fs.getPathHandle(st, Options.HandleOpt.exact())).isInstanceOf(UnsupportedOperationException.class);
    assertThat(has(CommonPathCapabilities.FS_CONCAT)).isFalse();
    assertThatThrownBy(() -> fs.concat(file, new Path[] {file})).isInstanceOf(UnsupportedOperationException.class);
    assertThat(has(CommonPathCapabilities.FS_SNAPSHOTS)).isFalse();
    assertThatThrownBy(() -> fs.createSnapshot(file.getParent(), "s")).isInstanceOf(UnsupportedOperationException.class);
    assertThat(has(CommonPathCapabilities.FS_ACLS)).isFalse();
    assertThatThrownBy(() -> fs.getAclStatus(file)).isInstanceOf(UnsupportedOperationException.class);
    assertThat(has(CommonPathCapabilities.FS_STORAGEPOLICY)).isFalse();
    assertThatThrownBy(() -> fs.getStoragePolicy(file)).isInstanceOf(UnsupportedOperationException.class);
    assertThat(has(CommonPathCapabilities.FS_SYMLINKS)).isFalse();
    assertThatThrownBy(() -> fs.createSymlink(file, new Path(file.getParent(), "link"), false))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(has(CommonPathCapabilities.FS_MULTIPART_UPLOADER)).isFalse();
    assertThatThrownBy(() -> fs.createMultipartUploader(file.getParent())).isInstanceOf(UnsupportedOperationException.class);
    for (String none : new String[] {
        CommonPathCapabilities.FS_LIST_CORRUPT_FILE_BLOCKS, CommonPathCapabilities.FS_READ_ONLY_CONNECTOR,
        CommonPathCapabilities.FS_EXPERIMENTAL_BATCH_LISTING, CommonPathCapabilities.ABORTABLE_STREAM,
        CommonPathCapabilities.ETAGS_AVAILABLE, CommonPathCapabilities.ETAGS_PRESERVED_IN_RENAME,
        CommonPathCapabilities.LEASE_RECOVERABLE, CommonPathCapabilities.DIRECTORY_LISTING_INCONSISTENT,
        CommonPathCapabilities.VIRTUAL_BLOCK_LOCATIONS}) {
      assertThat(has(none)).as(none).isFalse();
    }
  }
}
