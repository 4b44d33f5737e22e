#!/usr/bin/python3
"""Looks at the local Ceph's file system as its administrator, through libcephfs.

The demo and the end-to-end suite use it to prepare Hadoop's root directory of an
external StorageBackend and to check what is left on CephFS after Kubernetes objects
are deleted, without a kernel or FUSE mount (the first does not exist in this VM, the
second would leave a mount behind a failed run).

  fsadmin.py mkdir PATH     creates PATH and its parents (mode 0777: Hadoop's users
                           write there, and the root of an external backend is the
                           administrator's to hand over)
  fsadmin.py exists PATH    exits 0 when PATH exists, 1 when it does not
  fsadmin.py du PATH        prints the bytes and files under PATH (recursive stats)
  fsadmin.py ls PATH        prints the names in directory PATH, one a line
  fsadmin.py stat PATH      prints PATH's inode number (hexadecimal, as RADOS names a
                           file's objects <inode>.<object number>) and size in bytes
  fsadmin.py cat PATH       copies file PATH to standard output
  fsadmin.py put FILE       creates FILE (its directory must exist) holding one line
  fsadmin.py touch DIR      creates a file in DIR and removes it: a change to DIR that
                           the MDS grants only after every other client has handed
                           back its shared capabilities on DIR, so it waits for dead
                           clients until their sessions time out

It reads the cluster's files from hack/ceph/env.sh's locations: $HCO_CACHE/ceph, or
HCO_CEPH_DIR (the local Rook's: $HCO_CACHE/rook), and mounts the file system
HCO_CEPH_FS (cephfs).
Debian's python3-cephfs is built for Debian's interpreter, hence /usr/bin/python3.
"""
import errno
import os
import sys

import cephfs

CEPH_DIR = os.environ.get(
    "HCO_CEPH_DIR",
    os.path.join(os.environ.get("HCO_CACHE", os.path.expanduser("~/.cache/hadoop-ceph-operator")), "ceph"),
)


def mount():
    fs = cephfs.LibCephFS(conffile=os.path.join(CEPH_DIR, "ceph.conf"), auth_id="admin")
    fs.conf_set("keyring", os.path.join(CEPH_DIR, "ceph.client.admin.keyring"))
    fs.conf_set("client_mount_timeout", "20")
    fs.mount(filesystem_name=os.environ.get("HCO_CEPH_FS", "cephfs").encode())
    return fs


def mkdir(fs, path):
    current = ""
    for part in [p for p in path.split("/") if p]:
        current += "/" + part
        try:
            fs.mkdir(current, 0o777)
        except cephfs.ObjectExists:
            continue
        # The creating process's umask applies inside libcephfs too.
        fs.chmod(current, 0o777)
    return 0


def exists(fs, path):
    try:
        fs.stat(path)
    except cephfs.ObjectNotFound:
        return 1
    return 0


def du(fs, path):
    rbytes = int(fs.getxattr(path, "ceph.dir.rbytes").decode())
    rfiles = int(fs.getxattr(path, "ceph.dir.rfiles").decode())
    print(f"{rbytes} bytes in {rfiles} files")
    return 0


def ls(fs, path):
    d = fs.opendir(path)
    try:
        entry = fs.readdir(d)
        while entry:
            name = entry.d_name.decode()
            if name not in (".", ".."):
                print(name)
            entry = fs.readdir(d)
    finally:
        fs.closedir(d)
    return 0


def stat(fs, path):
    st = fs.stat(path)
    print(f"{st.st_ino:x} {st.st_size}")
    return 0


def cat(fs, path):
    fd = fs.open(path, os.O_RDONLY, 0)
    try:
        offset = 0
        while True:
            chunk = fs.read(fd, offset, 1 << 20)
            if not chunk:
                break
            sys.stdout.buffer.write(chunk)
            offset += len(chunk)
    finally:
        fs.close(fd)
    sys.stdout.buffer.flush()
    return 0


def put(fs, path):
    fd = fs.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o644)
    try:
        fs.write(fd, b"written by fsadmin.py\n", 0)
    finally:
        fs.close(fd)
    return 0


def touch(fs, path):
    name = os.path.join(path, f".fsadmin-touch-{os.getpid()}")
    fd = fs.open(name, os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o644)
    fs.close(fd)
    fs.unlink(name)
    return 0


COMMANDS = {
    "mkdir": mkdir, "exists": exists, "du": du, "ls": ls, "stat": stat, "cat": cat, "put": put, "touch": touch,
}


def main(argv):
    if len(argv) != 3 or argv[1] not in COMMANDS:
        print(__doc__, file=sys.stderr)
        return 64
    fs = mount()
    try:
        return COMMANDS[argv[1]](fs, argv[2])
    except cephfs.Error as e:
        print(f"fsadmin.py {argv[1]} {argv[2]}: {e}", file=sys.stderr)
        return 66 if getattr(e, "errno", None) == errno.ENOENT else 1
    finally:
        fs.unmount()
        fs.shutdown()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
