#!/usr/bin/env python3
"""Writes the section "## Cluster path (make bench-cluster)" of docs/benchmarks.md from
the records hack/bench-cluster.sh keeps in its work directory, so a report can be written
again from a finished run (BENCH_REPORT_ONLY=1 make bench-cluster) without measuring
anew. The phases of a cluster stage come from the JobHistory server's records of its
Hadoop job; see phases() for what each one spans.

Usage: bench_cluster_report.py <work dir> <doc.md>
"""
import json, os, statistics, sys

from benchdoc import replace_section

STAGES = ("teragen", "terasort", "teravalidate")
PHASES = (
    ("submit", "Submission"),
    ("am", "AM start"),
    ("maps", "Maps"),
    ("reduces", "Shuffle + reduce"),
    ("commit", "Commit"),
    ("exit", "Client exit"),
)
TARGET = 1.5


def runner_report(pod):
    """The runner's report in a stage pod's termination message: stage, start and end
    in milliseconds."""
    for status in pod.get("status", {}).get("containerStatuses", []):
        message = status.get("state", {}).get("terminated", {}).get("message", "")
        for line in message.splitlines():
            if line.startswith("{"):
                try:
                    report = json.loads(line)
                except ValueError:
                    continue
                if "stage" in report and "start" in report:
                    return report
    return None


def phases(start_ms, end_ms, history):
    """Splits one stage, from the runner's start to its end, at the Hadoop job's moments
    as the JobHistory server recorded them (milliseconds):
      submit  stage start -> job submitted (client JVM, TeraSort's input sampling,
              the job's files uploaded)
      am      submitted -> job started by its ApplicationMaster (AM container
              scheduled, localized, JVM started, job initialized)
      maps    job started -> last map finished (map containers requested, their JVMs
              started, the maps run)
      reduces last map finished -> last reduce finished (the shuffle left after the
              maps, merge and reduce)
      commit  last task finished -> job finished (output committed, AM wound up)
      exit    job finished -> stage end (the client notices, prints, exits; for
              TeraValidate, reading its report)
    Values are seconds. A stage with several jobs gets the sum of each job's phases, the
    time between them in submit."""
    out = {name: 0.0 for name, _ in PHASES}
    previous_end = start_ms
    for h in history:
        job = h["job"]["job"]
        tasks = (h["tasks"]["tasks"] or {}).get("task", [])
        maps = [t["finishTime"] for t in tasks if t["type"] == "MAP"]
        reduces = [t["finishTime"] for t in tasks if t["type"] == "REDUCE"]
        last_map = max(maps) if maps else job["startTime"]
        last_task = max(maps + reduces) if maps or reduces else job["startTime"]
        out["submit"] += (job["submitTime"] - previous_end) / 1000
        out["am"] += (job["startTime"] - job["submitTime"]) / 1000
        out["maps"] += (last_map - job["startTime"]) / 1000
        out["reduces"] += (max(reduces) - last_map) / 1000 if reduces else 0
        out["commit"] += (job["finishTime"] - last_task) / 1000
        previous_end = job["finishTime"]
    out["exit"] = (end_ms - previous_end) / 1000
    return out


def cpu_between(samples, start, end):
    """CPU seconds of each sampled column between two times (seconds), interpolating
    between the half-second samples."""
    def at(t):
        before = [s for s in samples if s[0] <= t]
        after = [s for s in samples if s[0] >= t]
        if not before or not after:
            raise ValueError(f"no CPU samples around {t}")
        a, b = before[-1], after[0]
        if b[0] == a[0]:
            return a[1:]
        f = (t - a[0]) / (b[0] - a[0])
        return tuple(x + (y - x) * f for x, y in zip(a[1:], b[1:]))
    return tuple(y - x for x, y in zip(at(start), at(end)))


def load(work):
    """Every stage of every run: dicts with path, rows, rep, stage, wall, pods_cpu,
    ceph_cpu, phases (cluster only) and counters (cluster only)."""
    samples = [tuple(map(float, line.split("\t"))) for line in open(os.path.join(work, "cpu.tsv")) if line.strip()]
    stages = []
    for line in open(os.path.join(work, "order.tsv")):
        rep, path, rows, name = line.rstrip("\n").split("\t")
        base = dict(path=path, rows=int(rows), rep=int(rep), run=name)
        if path == "local":
            for entry in open(os.path.join(work, "runs", name + ".tsv")):
                stage, start, end = entry.split()
                stages.append(dict(base, stage=stage, start=int(start), end=int(end)))
            continue
        run = json.load(open(os.path.join(work, "runs", name + ".json")))
        pods = json.load(open(os.path.join(work, "runs", name + ".pods.json")))["items"]
        reports = {r["stage"]: r for r in map(runner_report, pods) if r}
        for result in run["status"]["stages"]:
            stage = result["stage"]
            if stage not in STAGES:
                continue
            report = reports[stage]
            history = [json.load(open(os.path.join(work, "history", j + ".json"))) for j in result.get("hadoopJobs", [])]
            stages.append(dict(base, stage=stage, start=report["start"], end=report["end"],
                               phases=phases(report["start"], report["end"], history),
                               counters=result.get("counters", {})))
    for s in stages:
        s["wall"] = (s["end"] - s["start"]) / 1000
        cpu = cpu_between(samples, s["start"] / 1000, s["end"] / 1000)
        s["pods_cpu"], s["ceph_cpu"] = cpu[0], cpu[1]
        # Records of runs before the machine's total was sampled have no "other".
        s["other_cpu"] = cpu[2] - cpu[0] - cpu[1] if len(cpu) > 2 else 0.0
    return stages


def fmt(x):
    return f"{x:.1f}"


def render(work, stages):
    meta = dict(line.rstrip("\n").split("\t", 1) for line in open(os.path.join(work, "meta.tsv")))
    med = statistics.median
    sizes = sorted({s["rows"] for s in stages}, reverse=True)
    reps = sorted({s["rep"] for s in stages})
    config = json.loads(meta.get("config", "{}"))

    def pick(path, rows, rep=None, stage=None):
        return [s for s in stages if s["path"] == path and s["rows"] == rows
                and (rep is None or s["rep"] == rep) and (stage is None or s["stage"] == stage)]

    def total(path, rows, rep, key="wall"):
        return sum(s[key] for s in pick(path, rows, rep))

    out = ["## Cluster path (make bench-cluster)", ""]
    mem = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30)
    out.append(
        f"Measured {meta['started'][:10]} on one machine ({os.cpu_count()} cores, {mem} GiB) by "
        f"`BENCH_REPS={meta['reps']} make bench-cluster`: TeraGen, TeraSort and TeraValidate "
        "(2 TeraGen maps, 128 MiB splits, 2 reduces) through a BenchmarkRun on the demo's "
        "HadoopCluster (one NodeManager with 6Gi and 4 vcores, host network, a JobHistory "
        "server) on an external StorageBackend on the local Ceph's replicated pool, against "
        "the same three jobs in local mode (one JVM with 2 map and 2 reduce threads, 4 GiB "
        "heap, 256 MiB sort buffer) in a pod made from the stage pods' template, on the same "
        "node and CephFS. The two paths alternate within each repetition, the first one "
        "alternating too, and each run starts on a settled machine. A stage is timed as the "
        "runner times it: around its `hadoop jar`, without the pod's start.")
    out.append("")
    if config:
        out.append("Settings tried on the cluster (`BENCH_CONFIG`, in its spec.config): "
                   + ", ".join(f"`{k}={v}` ({where})" for where, pairs in sorted(config.items())
                               for k, v in sorted(pairs.items())) + ".")
        out.append("")
    out.append("| Rows | Cluster total (s) | Local mode total (s) | Cluster / local | Per repetition | Target (at most 1.5x at 10,000,000 rows) |")
    out.append("| ---: | ---: | ---: | ---: | --- | --- |")
    for rows in sizes:
        ratios = [total("cluster", rows, r) / total("local", rows, r) for r in reps if pick("local", rows, r) and pick("cluster", rows, r)]
        cluster = med([total("cluster", rows, r) for r in reps if pick("cluster", rows, r)] or [0])
        local = med([total("local", rows, r) for r in reps if pick("local", rows, r)] or [0])
        if not ratios:
            out.append(f"| {rows:,} | {fmt(cluster)} | {fmt(local)} | | | not measured: one path only (BENCH_PATHS) |")
            continue
        ratio = med(ratios)
        verdict = ""
        if rows == 10_000_000:
            verdict = "met" if ratio <= TARGET else f"**missed** by {ratio / TARGET - 1:.0%} ({ratio:.2f}x)"
        out.append(f"| {rows:,} | {fmt(cluster)} | {fmt(local)} | {ratio:.2f}x | "
                   + ", ".join(f"{x:.2f}x" for x in ratios) + f" | {verdict} |")
    out.append("")
    out.append("The ratio is the median of the repetitions' ratios, each of a cluster run and "
               "the local run beside it.")
    out.append("")

    for rows in sizes:
        out.append(f"### {rows:,} rows ({rows * 100 / 1e9:.1f} GB), medians")
        out.append("")
        out.append("Wall seconds per stage, and the CPU seconds spent meanwhile by every pod on "
                   "the node (the Hadoop daemons and tasks, the stage's client, the local-mode "
                   "JVM) and by the Ceph daemons.")
        out.append("")
        out.append("| Stage | Cluster (s) | Local (s) | Cluster / local | Cluster pods CPU (s) | Local pods CPU (s) | Cluster Ceph CPU (s) | Local Ceph CPU (s) |")
        out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for stage in STAGES:
            c, l = pick("cluster", rows, stage=stage), pick("local", rows, stage=stage)
            m = {key: [fmt(med([s[key] for s in runs])) if runs else "" for runs in (c, l)]
                 for key in ("wall", "pods_cpu", "ceph_cpu")}
            ratio = f"{med([s['wall'] for s in c]) / med([s['wall'] for s in l]):.2f}x" if c and l else ""
            out.append(f"| {stage} | {m['wall'][0]} | {m['wall'][1]} | {ratio} | {m['pods_cpu'][0]} | "
                       f"{m['pods_cpu'][1]} | {m['ceph_cpu'][0]} | {m['ceph_cpu'][1]} |")
        out.append("")
        out.append("Where a cluster stage's time goes, from the JobHistory server's records "
                   "(seconds; hack/bench_cluster_report.py says what each phase spans):")
        out.append("")
        out.append("| Stage | " + " | ".join(title for _, title in PHASES) + " | Maps (data-local) |")
        out.append("| --- | " + " | ".join("---:" for _ in PHASES) + " | ---: |")
        for stage in STAGES:
            c = pick("cluster", rows, stage=stage)
            if not c:
                continue
            counters = c[0]["counters"]
            out.append(f"| {stage} | " + " | ".join(fmt(med([s["phases"][p] for s in c])) for p, _ in PHASES)
                       + f" | {counters.get('launchedMaps', 0)} ({counters.get('dataLocalMaps', 0)}) |")
        out.append("")

    out.append("### Every repetition")
    out.append("")
    out.append("CPU seconds over the run's three stages: the node's pods, the Ceph daemons, and "
               "the rest of the machine (Kubernetes's own processes and anything else; a quiet "
               "machine keeps it to a few seconds a minute).")
    out.append("")
    out.append("| Rows | Repetition | Path | TeraGen (s) | TeraSort (s) | TeraValidate (s) | Total (s) | Pods CPU (s) | Ceph CPU (s) | Other CPU (s) |")
    out.append("| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for rows in sizes:
        for rep in reps:
            for path in ("cluster", "local"):
                by = {s["stage"]: s for s in pick(path, rows, rep)}
                if not by:
                    continue
                out.append(f"| {rows:,} | {rep} | {path} | " + " | ".join(fmt(by[s]["wall"]) if s in by else "" for s in STAGES)
                           + f" | {fmt(total(path, rows, rep))} | {fmt(total(path, rows, rep, 'pods_cpu'))} | {fmt(total(path, rows, rep, 'ceph_cpu'))}"
                           + f" | {fmt(total(path, rows, rep, 'other_cpu'))} |")
    out.append("")
    return "\n".join(out).rstrip() + "\n"


def main():
    work, doc = sys.argv[1:3]
    section = render(work, load(work))
    replace_section(doc, section)
    print(section)


if __name__ == "__main__":
    main()
