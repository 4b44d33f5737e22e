#!/usr/bin/env python3
"""Writes the section "## Data path (make bench-datapath)" of docs/benchmarks.md from the
results.tsv that hack/bench-datapath.sh records, so a report can be written again from a
finished run (BENCH_REPORT_ONLY=1 make bench-datapath) without measuring anew.

Usage: bench_datapath_report.py <results.tsv> <doc.md>

results.tsv has one record per line, tab-separated, the kind first, then the system
(ceph-rep, ceph-ec, hdfs, file), then the repetition; the first line is the run's
settings as name/value pairs:
    meta  reps N  rows N  dfsio "F x M MiB"  rados "..."
    terasort  SYSTEM REP STAGE SECONDS JOB_CPU_S DAEMONS_CPU_S
    checksum  SYSTEM REP CHECKSUM
    raw       SYSTEM REP "STORED USED" (before) "STORED USED" (after) LOGICAL_BYTES
    dfsio     SYSTEM REP OP EXEC_TIME_S MIB IO_WINDOW_S
    rados     SYSTEM REP OP MIB_PER_S
"""
import os, re, statistics, sys, time
from collections import defaultdict
from types import SimpleNamespace

from benchdoc import replace_section


def read_results(lines):
    """The records of results.tsv's lines, grouped the way the report reads them."""
    rows = [line.rstrip("\n").split("\t") for line in lines if line.strip()]
    meta = dict(zip(rows[0][1::2], rows[0][2::2]))
    stage = defaultdict(list)
    cpu = defaultdict(list)
    checksums = defaultdict(set)
    raw = {}
    dfsio = defaultdict(list)
    dfsio_window = defaultdict(list)
    job_extra = []
    rados = defaultdict(list)
    for r in rows[1:]:
        kind, system = r[0], r[1]
        if kind == "terasort":
            stage[(system, r[3])].append(float(r[4]))
            cpu[(system, r[3])].append((float(r[5]), float(r[6])))
        elif kind == "checksum":
            checksums[system].add(r[3].strip())
        elif kind == "raw":
            b_stored, b_used = map(int, r[3].split())
            a_stored, a_used = map(int, r[4].split())
            raw[system] = (a_stored - b_stored, a_used - b_used, int(r[5]))
        elif kind == "dfsio":
            dfsio[(system, r[3])].append(float(r[5]) / float(r[4]))
            dfsio_window[(system, r[3])].append(float(r[5]) / float(r[6]))
            job_extra.append(float(r[4]) - float(r[6]))
        elif kind == "rados":
            rados[(system, r[3])].append(float(r[4]))
    return SimpleNamespace(meta=meta, stage=stage, cpu=cpu, checksums=checksums, raw=raw, dfsio=dfsio,
                           dfsio_window=dfsio_window, job_extra=job_extra, rados=rados)


def verdict(flag):
    return "met" if flag else "**missed**"


def render(res, cpu_count, mem_gib, date):
    """The report's section from read_results's records, measured on a machine of
    cpu_count cores and mem_gib GiB on date."""
    meta, stage, cpu, checksums, raw = res.meta, res.stage, res.cpu, res.checksums, res.raw
    dfsio, dfsio_window, job_extra, rados = res.dfsio, res.dfsio_window, res.job_extra, res.rados
    dfsio_files, dfsio_mb = re.match(r"(\d+) x (\d+) MiB", meta["dfsio"]).groups()
    command = (f"BENCH_REPS={meta['reps']} BENCH_ROWS={meta['rows']} BENCH_DFSIO_FILES={dfsio_files} "
               f"BENCH_DFSIO_SIZE_MB={dfsio_mb} make bench-datapath")
    med = statistics.median
    names = {"ceph-rep": "ceph:// replicated, size 2", "ceph-ec": "ceph:// EC 2+1",
             "hdfs": "HDFS, 3 DataNodes, replication 3", "file": "file:// (local disk)"}
    systems = [s for s in ["ceph-rep", "ceph-ec", "hdfs", "file"] if (s, "terasort") in stage]
    rep_totals = {s: [sum(x) for x in zip(stage[(s, "teragen")], stage[(s, "terasort")], stage[(s, "teravalidate")])]
                  for s in systems}
    totals = {s: med(rep_totals[s]) for s in systems}


    out = ["## Data path (make bench-datapath)", ""]
    out.append(f"Measured {date} on one machine ({cpu_count} cores, {mem_gib} GiB, "
               f"Debian 12, Ceph 16.2.15 from Debian's packages via hack/ceph/up.sh, Hadoop 3.4.2, "
               f"OpenJDK 17). Medians of {meta['reps']} repetitions; within each repetition the "
               f"systems run one after the other. Reproduce with:")
    out += ["", "```", command, "```", ""]
    rows_n = int(meta["rows"])
    out.append(f"### TeraGen + TeraSort + TeraValidate, {rows_n:,} rows ({rows_n * 100 / 1e9:.1f} GB), local mode")
    out.append("")
    out.append("MapReduce local mode with the same settings on every system: 2 map and 2 reduce "
               "slots, io.sort.mb 256, the job client polling for the job's end every 100 ms "
               "instead of every second, one TeraGen map (local mode runs one whatever "
               "`mapreduce.job.maps` says), TeraSort with 128 MiB splits (8 maps; file:// would "
               "otherwise split at its 32 MiB block size) and 2 reduces. "
               "`mapreduce.terasort.output.replication` is set to the system's replication (HDFS 3), "
               "so HDFS writes the sorted output three times, as Ceph's pools do. Before each "
               "system's TeraGen the machine settles: dirty pages are written (`sync`) and Ceph has "
               "purged the files deleted before, so no system pays for another's leftovers.")
    out.append("")
    out.append("| System | TeraGen s | TeraSort s | TeraValidate s | Total s | Total vs HDFS | Total vs file:// | TeraSort vs HDFS |")
    out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for s in systems:
        g, t, v = (med(stage[(s, k)]) for k in ("teragen", "terasort", "teravalidate"))
        vs_hdfs = f"{totals[s] / totals['hdfs']:.2f}x" if "hdfs" in totals else "-"
        vs_file = f"{totals[s] / totals['file']:.2f}x" if "file" in totals else "-"
        sort_vs = f"{t / med(stage[('hdfs', 'terasort')]):.2f}x" if "hdfs" in totals else "-"
        out.append(f"| {names[s]} | {g:.1f} | {t:.1f} | {v:.1f} | {totals[s]:.1f} | {vs_hdfs} | {vs_file} | {sort_vs} |")
    out.append("")
    sums = set().union(*checksums.values()) if checksums else set()
    out.append(f"TeraValidate checksums: {'identical on every system and repetition' if len(sums) == 1 and 'ERROR' not in ''.join(sums) else 'DIFFER: ' + ', '.join(sorted(sums))}.")
    out.append("")
    for s in ("ceph-rep", "ceph-ec"):
        if s in totals and "hdfs" in totals and "file" in totals:
            r_h = totals[s] / totals["hdfs"]
            r_f = totals[s] / totals["file"]
            out.append(f"- {names[s]}: total {r_h:.2f}x HDFS (target at most 0.75x: {verdict(r_h <= 0.75)}), "
                       f"{(r_f - 1) * 100:+.1f}% against file:// (target at most 5% above file://: {verdict(r_f <= 1.05)}).")
    out.append("")
    if "hdfs" in totals and int(meta["reps"]) > 1:
        out.append("Repetition by repetition: total seconds, and in brackets the ratio to HDFS's total "
                   "in the same repetition. The medians above are taken per system, so their ratios "
                   "need not equal the median of these.")
        out.append("")
        out.append("| Repetition | " + " | ".join(names[s] for s in systems) + " |")
        out.append("| ---: | " + " | ".join("---:" for _ in systems) + " |")
        for i, hdfs_total in enumerate(rep_totals["hdfs"]):
            cells = [f"{rep_totals[s][i]:.1f} ({rep_totals[s][i] / hdfs_total:.2f}x)" for s in systems]
            out.append(f"| {i + 1} | " + " | ".join(cells) + " |")
        out.append("")
        for s in systems:
            if s != "hdfs":
                ratios = [t / h for t, h in zip(rep_totals[s], rep_totals["hdfs"])]
                out.append(f"- {names[s]}: {min(ratios):.2f}x to {max(ratios):.2f}x HDFS across repetitions.")
        out.append("")
    out.append("All systems share the host's cores: Ceph's daemons (3 OSDs, MDS, mon, mgr) and HDFS's NameNode and DataNodes run beside the job, file:// has no storage daemon at all, so the comparison with file:// measures what the storage stack costs on one host.")
    out.append("")
    out.append("Where the time goes: CPU seconds of the three stages together (medians over the "
               "repetitions), of the job's JVM (MapReduce and the file system client in it) and of "
               "the storage daemons (Ceph's mon, mgr, OSDs and MDS; the MiniDFSCluster's JVM; none "
               "for file://, whose page cache and disk writeback run in the kernel and are not counted).")
    out.append("")
    out.append(f"| System | Total s | Job CPU s | Storage daemons CPU s | Both | Both over {cpu_count} cores x total |")
    out.append("| --- | ---: | ---: | ---: | ---: | ---: |")
    cpu_totals = {}
    for s in systems:
        per_rep = [tuple(sum(x) for x in zip(*stages)) for stages in zip(*(cpu[(s, k)] for k in ("teragen", "terasort", "teravalidate")))]
        job, daemons = med([p[0] for p in per_rep]), med([p[1] for p in per_rep])
        cpu_totals[s] = (job, daemons)
        out.append(f"| {names[s]} | {totals[s]:.1f} | {job:.1f} | {daemons:.1f} | {job + daemons:.1f} | "
                   f"{(job + daemons) / (cpu_count * totals[s]) * 100:.0f}% |")
    out.append("")
    if "file" in cpu_totals:
        fjob, fdaemons = cpu_totals["file"]
        for s in ("ceph-rep", "ceph-ec"):
            if s in cpu_totals:
                job, daemons = cpu_totals[s]
                extra = job + daemons - fjob - fdaemons
                out.append(f"- {names[s]} needs {extra:+.1f} CPU s against file:// ({daemons - fdaemons:+.1f} in the "
                           f"storage daemons, {job - fjob:+.1f} in the job); spread over {cpu_count} cores that "
                           f"alone is {extra / cpu_count:+.1f} s of wall time whenever the job keeps every core "
                           f"busy, against a {totals[s] - totals['file']:+.1f} s difference in total time.")
        out.append("")
    if dfsio:
        out.append("### TestDFSIO through the connector against rados bench")
        out.append("")
        out.append(f"TestDFSIO: {meta['dfsio']} files written, then read, in local mode with one "
                   f"map per file and all maps in parallel. Its aggregate MiB/s is given two ways: "
                   f"bytes over the maps' I/O window (first map started to last map finished: "
                   f"opening, writing or reading, closing with its fsync), which is what rados "
                   f"bench's figure covers, and bytes over the whole job (TestDFSIO's \"Test exec "
                   f"time\"), which adds the job's submission, reduce and commit ({med(job_extra):.1f} s "
                   f"here, median). rados bench: {meta['rados']}, `write` then `seq`, on the same pool. "
                   f"Every TestDFSIO job and both rados bench phases start on a settled machine, as "
                   f"the TeraSort systems do.")
        out.append("")
        out.append("| Pool | Operation | rados bench MiB/s | TestDFSIO MiB/s, maps' I/O window | Ratio | TestDFSIO MiB/s, whole job | Ratio | Target (at least 80%) |")
        out.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |")
        for s in ("ceph-rep", "ceph-ec"):
            for op in ("write", "read"):
                if (s, op) in dfsio and (s, op) in rados:
                    d, w, r = med(dfsio[(s, op)]), med(dfsio_window[(s, op)]), med(rados[(s, op)])
                    out.append(f"| {names[s]} | {op} | {r:.0f} | {w:.0f} | {w / r * 100:.0f}% | {d:.0f} | {d / r * 100:.0f}% | "
                               f"I/O window: {verdict(w / r >= 0.8)}; whole job: {verdict(d / r >= 0.8)} |")
        out.append("")
        spread = []
        for s in ("ceph-rep", "ceph-ec"):
            for op in ("write", "read"):
                if (s, op) in dfsio and (s, op) in rados:
                    whole = [d / r for d, r in zip(dfsio[(s, op)], rados[(s, op)])]
                    window = [w / r for w, r in zip(dfsio_window[(s, op)], rados[(s, op)])]
                    spread.append(f"- {names[s]} {op}: rados bench {min(rados[(s, op)]):.0f} to "
                                  f"{max(rados[(s, op)]):.0f} MiB/s; TestDFSIO over the I/O window "
                                  f"{min(window) * 100:.0f}% to {max(window) * 100:.0f}% and over the whole job "
                                  f"{min(whole) * 100:.0f}% to {max(whole) * 100:.0f}% of the same repetition's rados bench.")
        if spread and int(meta["reps"]) > 1:
            out.append("Repetition by repetition:")
            out.append("")
            out += spread
            out.append("")
    if raw:
        out.append("### Raw storage per byte stored, after TeraGen")
        out.append("")
        out.append("Ceph: growth of the pool's `bytes_used` over the growth of its `stored` "
                   "(`ceph df detail`). HDFS: growth of the MiniDFSCluster's directory (block "
                   "files and their metadata) over the bytes TeraGen wrote.")
        out.append("")
        out.append("| System | Logical GB | Raw GB | Raw / logical | Expected | Target |")
        out.append("| --- | ---: | ---: | ---: | ---: | --- |")
        for s, expected in (("ceph-rep", "2.0"), ("ceph-ec", "1.5"), ("hdfs", "3.0")):
            if s in raw:
                stored, used, logical = raw[s]
                base = stored if stored > 0 else logical
                ratio = used / base
                target = verdict(abs(ratio / 1.5 - 1) <= 0.05) + " (within 5% of 1.5)" if s == "ceph-ec" else ""
                out.append(f"| {names[s]} | {base / 1e9:.2f} | {used / 1e9:.2f} | {ratio:.2f} | {expected} | {target} |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def main():
    results, doc = sys.argv[1:3]
    with open(results) as f:
        res = read_results(f)
    mem = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30)
    section = render(res, os.cpu_count(), mem, time.strftime("%Y-%m-%d"))
    replace_section(doc, section)
    print(section)


if __name__ == "__main__":
    main()
