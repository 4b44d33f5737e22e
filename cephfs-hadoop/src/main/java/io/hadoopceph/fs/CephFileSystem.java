package io.hadoopceph.fs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import com.ceph.fs.CephFileAlreadyExistsException;
import com.ceph.fs.CephMount;
import com.ceph.fs.CephNotDirectoryException;
import com.ceph.fs.CephStat;
import com.ceph.fs.CephStatVFS;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Progressable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.apache.hadoop.fs.CommonConfigurationKeys.IOSTATISTICS_LOGGING_LEVEL;
import static org.apache.hadoop.fs.CommonConfigurationKeys.IOSTATISTICS_LOGGING_LEVEL_DEFAULT;
import static org.apache.hadoop.fs.impl.PathCapabilitiesSupport.validatePathCapabilityArgs;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_APPEND;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_CREATE;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_CREATE_NON_RECURSIVE;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_DELETE;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_GET_FILE_STATUS;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_LIST_STATUS;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_MKDIRS;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_OPEN;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_RENAME;

/**
 * Hadoop's FileSystem for scheme {@code ceph}, over libcephfs. Paths map one to one onto
 * the CephFS tree below {@code ceph.root.dir}; the checks Hadoop's specification asks for
 * (parents that are files, renames onto existing paths, ...) are made here because the
 * POSIX calls underneath answer those cases differently.
 */
public class CephFileSystem extends FileSystem implements IOStatisticsSource {

  public static final String SCHEME = "ceph";
  private static final int MODE_MASK = 07777;
  private static final Logger LOG = LoggerFactory.getLogger(CephFileSystem.class);

  private URI uri;
  private Path workingDir;
  private CephFsConfig config;
  private CephSession session;
  private CephMount mount;
  private CephPoolSelector pools;
  private CephOwners owners;
  private CephBlockLocator locator;
  private CephChecksums checksums;
  private final Map<String, Integer> poolReplication = new ConcurrentHashMap<>();
  private final CephFileSystemStatistics ioStatistics = new CephFileSystemStatistics();

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public URI getUri() {
    return uri;
  }

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    // DelegateToFileSystem and direct construction skip ReflectionUtils, which sets it.
    setConf(conf);
    config = CephFsConfig.from(name, conf);
    uri = URI.create(SCHEME + "://" + (name.getAuthority() == null ? "" : name.getAuthority()) + "/");
    session = CephSession.open(config, System.getenv());
    mount = session.mount();
    pools = new CephPoolSelector(config.dataPools(), this::replicationOfPool);
    owners = CephOwners.forCurrentProcess(UserGroupInformation.getCurrentUser().getShortUserName());
    locator = new CephBlockLocator(mount, config.localityHostsFile() == null
        ? () -> CephLocalityHosts.NONE
        : new CephLocalityHostsFile(Paths.get(config.localityHostsFile())));
    checksums = CephChecksums.from(conf);
    workingDir = getHomeDirectory();
  }

  /** Session id tag of this instance's MDS session (client_metadata.hadoop_instance). */
  public String getClientInstanceId() {
    return session.instanceId();
  }

  @Override
  public void close() throws IOException {
    try {
      super.close();
      // After super.close(), so that the deletes of deleteOnExit are in the summary.
      if (getConf() != null) {
        ioStatistics.log(LOG, getConf().getTrimmed(IOSTATISTICS_LOGGING_LEVEL, IOSTATISTICS_LOGGING_LEVEL_DEFAULT));
      }
    } finally {
      if (session != null) {
        session.unmount();
      }
    }
  }

  @Override
  protected int getDefaultPort() {
    return -1;
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDir;
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    workingDir = makeQualified(dir);
  }

  @Override
  public long getDefaultBlockSize() {
    return config.blockSize();
  }

  @Override
  public short getDefaultReplication() {
    return config.replication();
  }

  private String cephPath(Path path) {
    String p = makeQualified(path).toUri().getPath();
    return p == null || p.isEmpty() ? "/" : p;
  }

  private Path qualified(String cephPath) {
    return makeQualified(new Path(cephPath));
  }

  private CephStat statOrNull(String path) throws IOException {
    CephStat st = new CephStat();
    try {
      mount.lstat(path, st);
      return st;
    } catch (FileNotFoundException | CephNotDirectoryException e) {
      return null;
    } catch (IOException e) {
      if (hasFileAncestor(path)) {
        return null;
      }
      throw e;
    }
  }

  /**
   * A lookup through a regular file fails with EACCES rather than ENOTDIR (the file has
   * no search permission), yet such a path simply does not exist.
   */
  private boolean hasFileAncestor(String path) throws IOException {
    for (String a = parentOf(path); !"/".equals(a); a = parentOf(a)) {
      CephStat st = new CephStat();
      try {
        mount.lstat(a, st);
      } catch (IOException e) {
        continue;
      }
      return !st.isDir();
    }
    return false;
  }

  private CephStat statOrThrow(Path path, String cephPath) throws IOException {
    CephStat st = statOrNull(cephPath);
    if (st == null) {
      throw new FileNotFoundException("File " + path + " does not exist");
    }
    return st;
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) throws IOException {
    return ioStatistics.track(OP_OPEN, () -> innerOpen(path, bufferSize));
  }

  private FSDataInputStream innerOpen(Path path, int bufferSize) throws IOException {
    String p = cephPath(path);
    CephStat st = statOrThrow(path, p);
    if (st.isDir()) {
      throw new FileNotFoundException("Cannot open " + path + ": it is a directory");
    }
    int fd = mount.open(p, CephMount.O_RDONLY, 0);
    int buffer = Math.max(bufferSize, config.readBufferSize());
    return new FSDataInputStream(new CephInputStream(mount, fd, p, st.size, buffer, statistics,
        ioStatistics.newInputStream()));
  }

  @Override
  public FSDataOutputStream create(Path path, FsPermission permission, boolean overwrite,
      int bufferSize, short replication, long blockSize, Progressable progress) throws IOException {
    return ioStatistics.track(OP_CREATE, () -> innerCreate(path, permission, overwrite, replication));
  }

  private FSDataOutputStream innerCreate(Path path, FsPermission permission, boolean overwrite,
      short replication) throws IOException {
    String p = cephPath(path);
    checkCreatable(path, p, overwrite);
    Path parent = path.getParent();
    if (parent != null) {
      innerMkdirs(parent, FsPermission.getDirDefault());
    }
    return createFile(path, p, permission, overwrite, replication);
  }

  @Override
  public FSDataOutputStream createNonRecursive(Path path, FsPermission permission,
      EnumSet<CreateFlag> flags, int bufferSize, short replication, long blockSize,
      Progressable progress) throws IOException {
    return ioStatistics.track(OP_CREATE_NON_RECURSIVE,
        () -> innerCreateNonRecursive(path, permission, flags, replication));
  }

  private FSDataOutputStream innerCreateNonRecursive(Path path, FsPermission permission,
      EnumSet<CreateFlag> flags, short replication) throws IOException {
    String p = cephPath(path);
    boolean overwrite = flags.contains(CreateFlag.OVERWRITE);
    checkCreatable(path, p, overwrite);
    Path parent = path.getParent();
    if (parent != null) {
      CephStat parentStat = statOrNull(cephPath(parent));
      if (parentStat == null) {
        throw new FileNotFoundException("Parent directory of " + path + " does not exist");
      }
      if (!parentStat.isDir()) {
        throw new ParentNotDirectoryException("Parent of " + path + " is not a directory");
      }
    }
    return createFile(path, p, permission, overwrite, replication);
  }

  private void checkCreatable(Path path, String p, boolean overwrite) throws IOException {
    CephStat st = statOrNull(p);
    if (st == null) {
      return;
    }
    if (st.isDir()) {
      throw new FileAlreadyExistsException(path + " is a directory");
    }
    if (!overwrite) {
      throw new FileAlreadyExistsException(path + " already exists");
    }
    // An overwrite replaces the file with a new one, as HDFS does, instead of truncating
    // it in place: the new file gets the layout (pool, object size) this create asks for,
    // and a libcephfs 16 client that truncates and rewrites past 4 MiB a file it wrote
    // and read before waits forever for a larger max_size that it never asks the MDS for.
    try {
      mount.unlink(p);
    } catch (FileNotFoundException e) {
      // Removed meanwhile by another client: the create makes it afresh.
    }
  }

  private FSDataOutputStream createFile(Path path, String p, FsPermission permission,
      boolean overwrite, short replication) throws IOException {
    int flags = CephMount.O_WRONLY | CephMount.O_CREAT | (overwrite ? CephMount.O_TRUNC : CephMount.O_EXCL);
    int mode = applyUMask(permission, FsPermission.getFileDefault()).toShort() & MODE_MASK;
    Optional<String> pool = pools.select(replication);
    long objectSize = config.objectSize();
    int fd;
    try {
      if (pool.isPresent() || objectSize > 0) {
        int unit = (int) objectSize;
        fd = mount.open(p, flags, mode, unit, objectSize > 0 ? 1 : 0, unit, pool.orElse(null));
      } else {
        fd = mount.open(p, flags, mode);
      }
    } catch (IOException e) {
      if (e instanceof CephFileAlreadyExistsException) {
        throw new FileAlreadyExistsException(path + " already exists");
      }
      if (e instanceof CephNotDirectoryException) {
        throw new ParentNotDirectoryException("A parent of " + path + " is not a directory");
      }
      throw e;
    }
    return new FSDataOutputStream(
        new CephOutputStream(mount, fd, p, config.writeBufferSize(), config.syncOnClose(),
            ioStatistics.newOutputStream()), statistics);
  }

  private FsPermission applyUMask(FsPermission permission, FsPermission fallback) {
    FsPermission base = permission == null ? fallback : permission;
    return base.applyUMask(FsPermission.getUMask(getConf()));
  }

  @Override
  public FSDataOutputStream append(Path path, int bufferSize, Progressable progress) throws IOException {
    return ioStatistics.track(OP_APPEND, () -> innerAppend(path));
  }

  private FSDataOutputStream innerAppend(Path path) throws IOException {
    String p = cephPath(path);
    CephStat st = statOrThrow(path, p);
    if (st.isDir()) {
      throw new FileAlreadyExistsException("Cannot append to " + path + ": it is a directory");
    }
    int fd = mount.open(p, CephMount.O_WRONLY | CephMount.O_APPEND, 0);
    return new FSDataOutputStream(
        new CephOutputStream(mount, fd, p, config.writeBufferSize(), config.syncOnClose(),
            ioStatistics.newOutputStream()), statistics, st.size);
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    return ioStatistics.track(OP_RENAME, () -> innerRename(src, dst));
  }

  private boolean innerRename(Path src, Path dst) throws IOException {
    String from = cephPath(src);
    String to = cephPath(dst);
    if ("/".equals(from)) {
      return false;
    }
    CephStat srcStat = statOrNull(from);
    if (srcStat == null) {
      return false;
    }
    if (from.equals(to)) {
      return srcStat.isFile();
    }
    CephStat dstStat = statOrNull(to);
    if (dstStat != null && dstStat.isDir()) {
      to = ("/".equals(to) ? "" : to) + "/" + new Path(from).getName();
      if (from.equals(to)) {
        return true;
      }
      dstStat = statOrNull(to);
    }
    if (dstStat != null) {
      return false;
    }
    if (isAncestor(from, to)) {
      return false;
    }
    String parent = parentOf(to);
    CephStat parentStat = statOrNull(parent);
    if (parentStat == null || !parentStat.isDir()) {
      return false;
    }
    mount.rename(from, to);
    return true;
  }

  private static boolean isAncestor(String ancestor, String path) {
    return path.startsWith(ancestor.endsWith("/") ? ancestor : ancestor + "/");
  }

  private static String parentOf(String path) {
    int slash = path.lastIndexOf('/');
    return slash <= 0 ? "/" : path.substring(0, slash);
  }

  @Override
  public boolean delete(Path path, boolean recursive) throws IOException {
    return ioStatistics.track(OP_DELETE, () -> innerDelete(path, recursive));
  }

  private boolean innerDelete(Path path, boolean recursive) throws IOException {
    String p = cephPath(path);
    CephStat st = statOrNull(p);
    if (st == null) {
      return false;
    }
    if (!st.isDir()) {
      mount.unlink(p);
      return true;
    }
    String[] children = mount.listdir(p);
    if (children.length > 0 && !recursive) {
      throw new PathIsNotEmptyDirectoryException(path.toString());
    }
    for (String child : children) {
      deleteTree(join(p, child));
    }
    if (!"/".equals(p)) {
      mount.rmdir(p);
    }
    return true;
  }

  private void deleteTree(String p) throws IOException {
    CephStat st = statOrNull(p);
    if (st == null) {
      return;
    }
    if (st.isDir()) {
      for (String child : mount.listdir(p)) {
        deleteTree(join(p, child));
      }
      mount.rmdir(p);
    } else {
      mount.unlink(p);
    }
  }

  private static String join(String dir, String child) {
    return "/".equals(dir) ? "/" + child : dir + "/" + child;
  }

  @Override
  public FileStatus[] listStatus(Path path) throws IOException {
    return ioStatistics.track(OP_LIST_STATUS, () -> innerListStatus(path));
  }

  private FileStatus[] innerListStatus(Path path) throws IOException {
    String p = cephPath(path);
    CephStat st = statOrThrow(path, p);
    if (!st.isDir()) {
      return new FileStatus[] {toStatus(st, p)};
    }
    String[] names = mount.listdir(p);
    List<FileStatus> result = new ArrayList<>(names.length);
    for (String name : names) {
      String child = join(p, name);
      CephStat childStat = statOrNull(child);
      if (childStat != null) {
        result.add(toStatus(childStat, child));
      }
    }
    return result.toArray(new FileStatus[0]);
  }

  @Override
  public boolean mkdirs(Path path, FsPermission permission) throws IOException {
    return ioStatistics.track(OP_MKDIRS, () -> innerMkdirs(path, permission));
  }

  /** Called by create directly, so that a create with missing parents counts as one create only. */
  private boolean innerMkdirs(Path path, FsPermission permission) throws IOException {
    String p = cephPath(path);
    CephStat st = statOrNull(p);
    if (st != null) {
      if (st.isDir()) {
        return true;
      }
      throw new FileAlreadyExistsException("Cannot create directory " + path + ": a file exists there");
    }
    for (String ancestor = parentOf(p); !"/".equals(ancestor); ancestor = parentOf(ancestor)) {
      CephStat a = statOrNull(ancestor);
      if (a != null) {
        if (!a.isDir()) {
          throw new ParentNotDirectoryException("Cannot create directory " + path + ": " + ancestor + " is a file");
        }
        break;
      }
    }
    int mode = applyUMask(permission, FsPermission.getDirDefault()).toShort() & MODE_MASK;
    try {
      mount.mkdirs(p, mode);
    } catch (CephFileAlreadyExistsException e) {
      CephStat now = statOrNull(p);
      if (now == null || !now.isDir()) {
        throw new FileAlreadyExistsException("Cannot create directory " + path + ": a file exists there");
      }
    }
    return true;
  }

  @Override
  public FileStatus getFileStatus(Path path) throws IOException {
    return ioStatistics.track(OP_GET_FILE_STATUS, () -> {
      String p = cephPath(path);
      return toStatus(statOrThrow(path, p), p);
    });
  }

  private FileStatus toStatus(CephStat st, String p) throws IOException {
    Path qualified = qualified(p);
    FsPermission permission = new FsPermission((short) (st.mode & MODE_MASK));
    String owner = owners.user(st.uid & 0xffffffffL);
    String group = owners.group(st.gid & 0xffffffffL);
    if (st.isSymlink()) {
      Path target = new Path(mount.readlink(p));
      return new FileStatus(0, false, 1, 0, st.m_time, st.a_time, permission, owner, group, target, qualified);
    }
    if (st.isDir()) {
      return new FileStatus(0, true, 1, 0, st.m_time, st.a_time, permission, owner, group, qualified);
    }
    return new FileStatus(st.size, false, replicationOfFile(p), config.blockSize(), st.m_time, st.a_time,
        permission, owner, group, qualified);
  }

  /** A file's replication is its pool's; EC pools report k+m, as Ceph does. */
  private int replicationOfFile(String p) {
    try {
      String pool = xattrString(p, "ceph.file.layout.pool");
      return pool == null ? config.replication() : replicationOfPool(pool);
    } catch (IOException | RuntimeException e) {
      return config.replication();
    }
  }

  private int replicationOfPool(String pool) throws IOException {
    Integer cached = poolReplication.get(pool);
    if (cached != null) {
      return cached;
    }
    int replication = mount.get_pool_replication(mount.get_pool_id(pool));
    poolReplication.put(pool, replication);
    return replication;
  }

  private String xattrString(String p, String name) throws IOException {
    byte[] value = readXAttr(p, name);
    return value == null ? null : new String(value, StandardCharsets.UTF_8).trim();
  }

  private byte[] readXAttr(String p, String name) throws IOException {
    byte[] buf = new byte[256];
    while (true) {
      long n;
      try {
        n = mount.getxattr(p, name, buf);
      } catch (FileNotFoundException e) {
        throw e;
      } catch (IOException e) {
        return null;
      }
      if (n < 0) {
        return null;
      }
      if (n <= buf.length) {
        byte[] out = new byte[(int) n];
        System.arraycopy(buf, 0, out, 0, (int) n);
        return out;
      }
      buf = new byte[(int) n];
    }
  }

  @Override
  public void setPermission(Path path, FsPermission permission) throws IOException {
    String p = cephPath(path);
    statOrThrow(path, p);
    mount.chmod(p, permission.toShort() & MODE_MASK);
  }

  @Override
  public void setOwner(Path path, String user, String group) throws IOException {
    String p = cephPath(path);
    statOrThrow(path, p);
    CephStat change = new CephStat();
    int mask = 0;
    if (user != null) {
      change.uid = owners.uid(user);
      mask |= CephMount.SETATTR_UID;
    }
    if (group != null) {
      change.gid = owners.gid(group);
      mask |= CephMount.SETATTR_GID;
    }
    if (mask != 0) {
      mount.setattr(p, change, mask);
    }
  }

  @Override
  public void setTimes(Path path, long mtime, long atime) throws IOException {
    String p = cephPath(path);
    statOrThrow(path, p);
    CephStat change = new CephStat();
    int mask = 0;
    if (mtime >= 0) {
      change.m_time = mtime;
      mask |= CephMount.SETATTR_MTIME;
    }
    if (atime >= 0) {
      change.a_time = atime;
      mask |= CephMount.SETATTR_ATIME;
    }
    if (mask != 0) {
      mount.setattr(p, change, mask);
    }
  }

  @Override
  public boolean setReplication(Path path, short replication) throws IOException {
    String p = cephPath(path);
    return statOrThrow(path, p).isFile();
  }

  @Override
  public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len) throws IOException {
    if (file == null) {
      return null;
    }
    if (start < 0 || len < 0) {
      throw new IllegalArgumentException("Invalid start or len parameter");
    }
    if (file.isDirectory() || file.getLen() <= start) {
      return new BlockLocation[0];
    }
    String p = cephPath(file.getPath());
    int fd = mount.open(p, CephMount.O_RDONLY, 0);
    try {
      return locator.locate(fd, file.getLen(), start, len, file.getBlockSize() > 0 ? file.getBlockSize() : config.blockSize());
    } finally {
      mount.close(fd);
    }
  }

  /**
   * Exact by default: a walk of the tree, as HDFS's answer is exact. With
   * fs.ceph.content.summary.rstats the MDS's recursive statistics answer in one call
   * whatever the tree's size, but the MDS folds recent changes into them lazily, so they
   * can lag by a few seconds.
   */
  @Override
  public ContentSummary getContentSummary(Path path) throws IOException {
    String p = cephPath(path);
    CephStat st = statOrThrow(path, p);
    if (!st.isDir()) {
      return new ContentSummary.Builder().length(st.size).fileCount(1).directoryCount(0)
          .spaceConsumed(st.size).build();
    }
    long[] totals = config.rstatsContentSummary() ? recursiveStats(p) : walk(p);
    return new ContentSummary.Builder().length(totals[0]).fileCount(totals[1])
        .directoryCount(totals[2]).spaceConsumed(totals[0]).build();
  }

  /** bytes, files, directories (the directory itself included, as Hadoop counts). */
  private long[] recursiveStats(String dir) throws IOException {
    return new long[] {
        xattrLong(dir, "ceph.dir.rbytes"), xattrLong(dir, "ceph.dir.rfiles"), xattrLong(dir, "ceph.dir.rsubdirs")};
  }

  private long[] walk(String root) throws IOException {
    long[] totals = new long[3];
    Deque<String> dirs = new ArrayDeque<>();
    dirs.push(root);
    while (!dirs.isEmpty()) {
      String dir = dirs.pop();
      totals[2]++;
      for (String name : mount.listdir(dir)) {
        String child = join(dir, name);
        CephStat st = statOrNull(child);
        if (st == null) {
          continue;
        }
        if (st.isDir()) {
          dirs.push(child);
        } else {
          totals[0] += st.size;
          totals[1]++;
        }
      }
    }
    return totals;
  }

  private long xattrLong(String p, String name) throws IOException {
    String value = xattrString(p, name);
    if (value == null) {
      throw new IOException("CephFS did not report " + name + " for " + p);
    }
    return Long.parseLong(value);
  }

  @Override
  public FsStatus getStatus(Path path) throws IOException {
    CephStatVFS vfs = new CephStatVFS();
    mount.statfs(path == null ? "/" : cephPath(path), vfs);
    long capacity = vfs.blocks * vfs.frsize;
    long remaining = vfs.bavail * vfs.frsize;
    return new FsStatus(capacity, capacity - remaining, remaining);
  }

  @Override
  public byte[] getXAttr(Path path, String name) throws IOException {
    String p = cephPath(path);
    statOrThrow(path, p);
    byte[] value = readXAttr(p, name);
    if (value == null) {
      throw new IOException("No such attribute " + name + " on " + path);
    }
    return value;
  }

  @Override
  public Map<String, byte[]> getXAttrs(Path path) throws IOException {
    String p = cephPath(path);
    statOrThrow(path, p);
    Map<String, byte[]> result = new HashMap<>();
    for (String name : mount.listxattr(p)) {
      byte[] value = readXAttr(p, name);
      if (value != null) {
        result.put(name, value);
      }
    }
    return result;
  }

  @Override
  public Map<String, byte[]> getXAttrs(Path path, List<String> names) throws IOException {
    Map<String, byte[]> result = new HashMap<>();
    for (String name : names) {
      result.put(name, getXAttr(path, name));
    }
    return result;
  }

  @Override
  public List<String> listXAttrs(Path path) throws IOException {
    String p = cephPath(path);
    statOrThrow(path, p);
    return List.of(mount.listxattr(p));
  }

  /**
   * Also the way to lay out a directory, e.g. name {@code ceph.dir.layout.pool}
   * (needs the 'p' MDS capability).
   */
  @Override
  public void setXAttr(Path path, String name, byte[] value, EnumSet<XAttrSetFlag> flag) throws IOException {
    String p = cephPath(path);
    statOrThrow(path, p);
    int flags = CephMount.XATTR_NONE;
    if (flag.contains(XAttrSetFlag.CREATE) && !flag.contains(XAttrSetFlag.REPLACE)) {
      flags = CephMount.XATTR_CREATE;
    } else if (flag.contains(XAttrSetFlag.REPLACE) && !flag.contains(XAttrSetFlag.CREATE)) {
      flags = CephMount.XATTR_REPLACE;
    }
    mount.setxattr(p, name, value, value.length, flags);
  }

  @Override
  public void removeXAttr(Path path, String name) throws IOException {
    String p = cephPath(path);
    statOrThrow(path, p);
    mount.removexattr(p, name);
  }

  @Override
  public boolean hasPathCapability(Path path, String capability) throws IOException {
    // Every capability Hadoop defines is answered here from what this class implements,
    // so that a new default in FileSystem cannot make a claim for it.
    switch (validatePathCapabilityArgs(makeQualified(path), capability)) {
      case CommonPathCapabilities.FS_APPEND:
      case CommonPathCapabilities.FS_PERMISSIONS:
      case CommonPathCapabilities.FS_XATTRS:
        return true;
      case CommonPathCapabilities.FS_CHECKSUMS:
        return checksums.enabled();
      case CommonPathCapabilities.BULK_DELETE:
        // FileSystem's default bulk delete, one delete() per path, works here.
        return super.hasPathCapability(path, capability);
      case CommonPathCapabilities.FS_ACLS:
      case CommonPathCapabilities.FS_CONCAT:
      case CommonPathCapabilities.FS_LIST_CORRUPT_FILE_BLOCKS:
      case CommonPathCapabilities.FS_PATHHANDLES:
      case CommonPathCapabilities.FS_READ_ONLY_CONNECTOR:
      case CommonPathCapabilities.FS_SNAPSHOTS:
      case CommonPathCapabilities.FS_STORAGEPOLICY:
      case CommonPathCapabilities.FS_SYMLINKS:
      case CommonPathCapabilities.FS_TRUNCATE:
      case CommonPathCapabilities.FS_EXPERIMENTAL_BATCH_LISTING:
      case CommonPathCapabilities.FS_MULTIPART_UPLOADER:
      case CommonPathCapabilities.ABORTABLE_STREAM:
      case CommonPathCapabilities.ETAGS_AVAILABLE:
      case CommonPathCapabilities.ETAGS_PRESERVED_IN_RENAME:
      case CommonPathCapabilities.LEASE_RECOVERABLE:
      case CommonPathCapabilities.DIRECTORY_LISTING_INCONSISTENT:
      // Block locations name the hosts of the OSDs that hold the objects.
      case CommonPathCapabilities.VIRTUAL_BLOCK_LOCATIONS:
        return false;
      default:
        return super.hasPathCapability(path, capability);
    }
  }

  /**
   * A checksum that compares equal with HDFS's in COMPOSITE_CRC mode, or null (no
   * checksum, as FileSystem's contract allows) unless {@code dfs.checksum.combine.mode}
   * asks for it: computing it reads the whole file.
   */
  @Override
  public FileChecksum getFileChecksum(Path path) throws IOException {
    return getFileChecksum(path, Long.MAX_VALUE);
  }

  @Override
  public FileChecksum getFileChecksum(Path path, long length) throws IOException {
    if (!checksums.enabled()) {
      return null;
    }
    try (FSDataInputStream in = open(path, config.readBufferSize())) {
      return checksums.compute(in, length);
    }
  }

  @Override
  public String getCanonicalServiceName() {
    return null;
  }

  /**
   * The operations of this instance and the streams it opened, each stream once it is
   * closed; the streams' own statistics show them while they are open.
   */
  @Override
  public IOStatistics getIOStatistics() {
    return ioStatistics.getIOStatistics();
  }
}
