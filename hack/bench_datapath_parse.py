#!/usr/bin/env python3
"""Reads the figures hack/bench-datapath.sh records out of what the tools print.

    bench_datapath_parse.py checksum      < TeraValidate's report (part-r-*)
    bench_datapath_parse.py rados-bandwidth < the output of `rados bench`
    bench_datapath_parse.py dfsio-seconds FILE   (TestDFSIO's -resFile)
    bench_datapath_parse.py map-window FILE      (a local-mode job's log)
    bench_datapath_parse.py pool-stats POOL < `ceph df detail --format json`

Each prints one value, the field results.tsv keeps, and fails with a message naming
what it looked for when the input lacks it: a run whose tool printed something else
stops there rather than recording an empty figure that the report would read as zero.
"""
import datetime
import json
import re
import sys


class Missing(Exception):
    """The input holds no line the figure is read from."""


def checksum(text):
    """TeraValidate's verdict: its checksum, then ERROR for each error line it wrote
    (misordered or unsorted records), space-separated."""
    out = []
    for line in text.splitlines():
        key, _, value = line.partition("\t")
        if key == "checksum":
            out.append(value.strip())
        elif key == "error":
            out.append("ERROR")
    if not out:
        raise Missing("no checksum or error line in TeraValidate's report")
    return " ".join(out)


def _field(text, label, what):
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() == label:
            return value.strip()
    raise Missing(f"no '{label}:' line in {what}")


def rados_bandwidth(text):
    """MB/s from `rados bench`'s summary (write or seq)."""
    return _field(text, "Bandwidth (MB/sec)", "rados bench's output")


def dfsio_seconds(text):
    """The job's wall time as TestDFSIO's result file reports it."""
    return _field(text, "Test exec time sec", "TestDFSIO's result")


# A line of the log4j pattern bench-datapath.sh sets (%d{ISO8601} %-5p %c{1}: %m%n) in
# which LocalJobRunner starts or finishes a map attempt.
_TASK = re.compile(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) .*(Starting|Finishing) task: attempt_\S+_m_")


def map_window(text):
    """Seconds from the first map's start to the last map's end in a local-mode job's
    log: the window in which TestDFSIO's maps do their I/O, without the job's
    submission, reduce and commit around it."""
    times = {"Starting": [], "Finishing": []}
    for line in text.splitlines():
        m = _TASK.match(line)
        if m:
            at = datetime.datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S,%f")
            times[m.group(2)].append(at.timestamp())
    if not times["Starting"] or not times["Finishing"]:
        raise Missing("no map attempt's start and end in the job's log")
    return f"{max(times['Finishing']) - min(times['Starting']):.3f}"


def pool_stats(text, pool):
    """A pool's logical bytes (stored) and raw bytes (bytes_used, every replica or
    chunk) from `ceph df detail --format json`, space-separated."""
    try:
        pools = json.loads(text)["pools"]
    except (ValueError, KeyError, TypeError):
        raise Missing("no pools in the output of ceph df")
    for p in pools:
        if p.get("name") == pool:
            try:
                return f"{int(p['stats']['stored'])} {int(p['stats']['bytes_used'])}"
            except (KeyError, TypeError, ValueError):
                raise Missing(f"no stored and bytes_used of pool {pool} in the output of ceph df")
    raise Missing(f"no pool {pool} in the output of ceph df")


# Readers of one argument besides the text: the name of what to read.
NAMED_READERS = {
    "pool-stats": pool_stats,
}

READERS = {
    "checksum": checksum,
    "rados-bandwidth": rados_bandwidth,
    "dfsio-seconds": dfsio_seconds,
    "map-window": map_window,
}


def main(argv):
    kind, args = (argv[1], argv[2:]) if len(argv) > 1 else (None, [])
    if kind in NAMED_READERS and len(args) in (1, 2):
        name, args = args[0], args[1:]
        read = lambda text: NAMED_READERS[kind](text, name)
    elif kind in READERS and len(args) in (0, 1):
        read = READERS[kind]
    else:
        sys.exit(__doc__)
    if args:
        with open(args[0], errors="replace") as f:
            text = f.read()
    else:
        text = sys.stdin.read()
    try:
        print(read(text))
    except Missing as e:
        sys.exit(f"bench_datapath_parse.py {kind}: {e}")


if __name__ == "__main__":
    main(sys.argv)
