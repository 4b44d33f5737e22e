#!/usr/bin/python3
"""Uses a CephFS as one cephx client, through libcephfs, for the end-to-end suite.

  cephfs-client.py CONF KEYRING ID FS ROOT probe OUTSIDE POOL
      tries what a client confined to ROOT may and may not do, and prints one JSON
      object: each probe's name with "ok" or the error's errno name (EPERM, ...).
      OUTSIDE is a directory beside ROOT that holds a file "secret"; POOL is a data
      pool of FS to lay a directory out on.
  cephfs-client.py CONF KEYRING ID FS ROOT ls PATH
      prints the names in PATH (relative to ROOT), one a line.

Debian's python3-cephfs is built for Debian's interpreter, hence /usr/bin/python3.
"""
import errno
import json
import os
import sys

import cephfs


def mount(conf, keyring, client, fs_name, root):
    fs = cephfs.LibCephFS(conffile=conf, auth_id=client)
    fs.conf_set("keyring", keyring)
    fs.conf_set("client_mount_timeout", "20")
    try:
        fs.mount(mount_root=root.encode(), filesystem_name=fs_name.encode())
    except cephfs.Error:
        fs.shutdown()
        raise
    return fs


def outcome(action):
    try:
        action()
        return "ok"
    except cephfs.Error as e:
        code = getattr(e, "errno", None)
        return errno.errorcode.get(code, str(code)) if code is not None else str(e)


def probe(conf, keyring, client, fs_name, root, outside, pool):
    results = {}

    def inside():
        fs = mount(conf, keyring, client, fs_name, root)
        try:
            name = f"/probe-{os.getpid()}"
            fd = fs.open(name, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o644)
            fs.write(fd, b"written inside the root", 0)
            fs.close(fd)
            fd = fs.open(name, os.O_RDONLY)
            data = fs.read(fd, 0, 64)
            fs.close(fd)
            fs.unlink(name)
            if data != b"written inside the root":
                raise cephfs.Error(f"read back {data!r}")
            results["write and read inside the root"] = "ok"
            layout = f"/probe-layout-{os.getpid()}"
            fs.mkdir(layout, 0o755)
            results["set a layout inside the root"] = outcome(
                lambda: fs.setxattr(layout, "ceph.dir.layout.pool", pool.encode(), 0))
            fs.rmdir(layout)
            results["read outside through .."] = outcome(
                lambda: fs.close(fs.open("/../" + os.path.basename(outside) + "/secret", os.O_RDONLY)))
        finally:
            fs.unmount()
            fs.shutdown()

    results["mount the root"] = outcome(inside)

    def mount_only(path):
        mount(conf, keyring, client, fs_name, path).shutdown()

    results["mount the file system's top"] = outcome(lambda: mount_only("/"))
    results["mount a directory outside the root"] = outcome(lambda: mount_only(outside))

    def read_outside():
        fs = mount(conf, keyring, client, fs_name, "/")
        try:
            fs.close(fs.open(outside + "/secret", os.O_RDONLY))
        finally:
            fs.shutdown()

    def write_outside():
        fs = mount(conf, keyring, client, fs_name, "/")
        try:
            fs.close(fs.open(outside + "/written", os.O_CREAT | os.O_WRONLY, 0o644))
        finally:
            fs.shutdown()

    def layout_outside():
        fs = mount(conf, keyring, client, fs_name, "/")
        try:
            fs.setxattr(outside, "ceph.dir.layout.pool", pool.encode(), 0)
        finally:
            fs.shutdown()

    results["read a file outside the root"] = outcome(read_outside)
    results["write a file outside the root"] = outcome(write_outside)
    results["set a layout outside the root"] = outcome(layout_outside)
    print(json.dumps(results, sort_keys=True))
    return 0


def ls(conf, keyring, client, fs_name, root, path):
    fs = mount(conf, keyring, client, fs_name, root)
    try:
        d = fs.opendir(path)
        entry = fs.readdir(d)
        while entry:
            name = entry.d_name.decode()
            if name not in (".", ".."):
                print(name)
            entry = fs.readdir(d)
        fs.closedir(d)
    finally:
        fs.unmount()
        fs.shutdown()
    return 0


def main(argv):
    if len(argv) < 7 or argv[6] not in ("probe", "ls"):
        print(__doc__, file=sys.stderr)
        return 64
    conf, keyring, client, fs_name, root, command = argv[1:7]
    if command == "probe" and len(argv) == 9:
        return probe(conf, keyring, client, fs_name, root, argv[7], argv[8])
    if command == "ls" and len(argv) == 8:
        return ls(conf, keyring, client, fs_name, root, argv[7])
    print(__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv))
