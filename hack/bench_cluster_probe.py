#!/usr/bin/env python3
"""What hack/bench-cluster.sh asks of the machine, the ResourceManager and kubectl's
JSON while it measures, one subcommand each:

    bench_cluster_probe.py config [FILE]         BENCH_CONFIG's lines -> spec.config
    bench_cluster_probe.py rm-settled [URL]      the ResourceManager takes containers
    bench_cluster_probe.py idle [PID...]         the machine is quiet enough to measure
    bench_cluster_probe.py sample OUT [PID...]   CPU time to OUT until killed
    bench_cluster_probe.py reduce-tasks [JSON]   a job's reduce task ids (else stdin)
    bench_cluster_probe.py local-pod NAME        < kubectl get jobs -o json

config reads lines `coreSite|yarnSite|mapredSite key=value` (blank lines and lines
starting with # skipped; the value may hold `=`) and prints the HadoopCluster's
spec.config as one JSON object, the files without a setting left out: `{}` without FILE
or with an empty name. A line of another form fails, naming the line.

rm-settled exits 0 when the ResourceManager's REST API (URL, by default
http://127.0.0.1:8088/ws/v1/cluster) has a RUNNING NodeManager and started more than
20 s ago, 1 otherwise, also when it does not answer.

idle prints the cores, 2 decimals, used over 10 s outside the node's pods (the kubepods
cgroup) and the PIDs (the Ceph daemons), and exits 0 if that is under 0.5, 1 otherwise.

sample writes OUT anew, a line every half second, tab-separated, each a number of seconds
with 3 decimals: the time (Unix), then the CPU time so far of every pod on the node, of
the PIDs, and of the whole machine. bench_cluster_report.py reads OUT (cpu.tsv).

reduce-tasks prints the ids of the REDUCE tasks in a JobHistory server's tasks document
(/ws/v1/history/mapreduce/jobs/JOB/tasks), space-separated.

local-pod prints the manifest (JSON) of the Pod NAME made from the first Job's pod
template, which runs `sleep infinity` for local-mode jobs to be run in it.
"""
import copy
import json
import os
import sys
import time
import urllib.request

CONFIG_FILES = ("coreSite", "yarnSite", "mapredSite")

RM = "http://127.0.0.1:8088/ws/v1/cluster"
# A ResourceManager that has just (re)started with recovery on holds new containers back
# for yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms (10 s) while
# NodeManagers resync, and the first run would measure that wait: 20 s after the start
# is past it with room to spare.
RM_SETTLE_MS = 20_000

PROC = "/proc"
# The cgroup (v1) of every pod on the node: CPU time in nanoseconds.
KUBEPODS = "/sys/fs/cgroup/cpuacct/kubepods/cpuacct.usage"
TICK = os.sysconf("SC_CLK_TCK")
# Kubernetes's own processes take about 0.2 of a core on an idle node; more than 0.5
# outside the pods and Ceph is other work, a build or a test, which skews both paths by
# different amounts.
QUIET = 0.5
IDLE_SECONDS = 10
SAMPLE_SECONDS = 0.5

LOCAL_POD_LABELS = {"app.kubernetes.io/name": "bench-cluster-local"}
# Local mode's map and reduce threads share one JVM (-Xmx4g in local_run): the pod gets
# the 6Gi the NodeManager offers the cluster path's containers.
LOCAL_POD_RESOURCES = {"requests": {"cpu": "500m", "memory": "6Gi"}, "limits": {"memory": "6Gi"}}


class ConfigError(Exception):
    """A BENCH_CONFIG line that is not `coreSite|yarnSite|mapredSite key=value`."""


def parse_config(lines):
    """spec.config from BENCH_CONFIG's lines: {file: {key: value}}, in the order of
    CONFIG_FILES, without the files no line names. A later line for the same key wins."""
    files = {name: {} for name in CONFIG_FILES}
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        # Any run of whitespace separates the file from the setting.
        where, pair = (line.split(None, 1) + [""])[:2]
        if where not in files:
            raise ConfigError(f"{line!r}: the first word must be one of {', '.join(CONFIG_FILES)}")
        # Only the first `=` ends the key: values such as java.opts hold their own.
        key, sep, value = pair.partition("=")
        if not sep:
            raise ConfigError(f"{line!r}: the setting must be key=value")
        files[where][key.strip()] = value.strip()
    return {name: settings for name, settings in files.items() if settings}


def rm_settled(info, nodes, now_ms, settle_ms=RM_SETTLE_MS):
    """Whether the ResourceManager schedules containers without holding them back: a
    NodeManager RUNNING and the ResourceManager started more than settle_ms before
    now_ms. info and nodes are its /info and /nodes?states=RUNNING documents; one
    without the fields read is not settled (the ResourceManager is still starting)."""
    try:
        # YARN answers {"nodes": null} when no node is in the state asked for.
        running = (nodes["nodes"] or {}).get("node", [])
        started = info["clusterInfo"]["startedOn"]
        return bool(running) and now_ms - started > settle_ms
    except (KeyError, TypeError, AttributeError):
        return False


def busy_ticks(line):
    """Ticks the machine's CPUs spent working, from /proc/stat's first (`cpu`) line:
    user, nice, system, irq, softirq and steal. idle and iowait are not work; guest and
    guest_nice are already counted in user and nice."""
    cpu = line.split()[1:]
    return sum(int(cpu[i]) for i in (0, 1, 2, 5, 6, 7))


def process_ticks(stat):
    """utime + stime, in ticks, from a /proc/PID/stat line. The process name, between
    the first `(` and the last `)`, may hold spaces and parentheses of its own: the
    fields are counted after the last `)`."""
    fields = stat.rsplit(")", 1)[1].split()
    # fields[0] is the line's 3rd field (state); utime and stime are the 14th and 15th.
    return int(fields[11]) + int(fields[12])


def sample_line(now, pods, ceph, busy):
    """One line of cpu.tsv: time, pods, ceph, busy, in seconds."""
    return f"{now:.3f}\t{pods:.3f}\t{ceph:.3f}\t{busy:.3f}\n"


def _read(path):
    with open(path) as f:
        return f.read()


def cpu_seconds(pids, proc=PROC, kubepods=KUBEPODS, tick=TICK):
    """CPU seconds so far: (every pod on the node, the pids together, the machine).
    A pid that has gone counts nothing: a Ceph daemon may restart during a run."""
    pods = int(_read(kubepods)) / 1e9
    with open(os.path.join(proc, "stat")) as f:
        busy = busy_ticks(f.readline()) / tick
    ticks = 0
    for pid in pids:
        try:
            ticks += process_ticks(_read(os.path.join(proc, str(pid), "stat")))
        except OSError:
            pass
    return pods, ticks / tick, busy


def other_cores(pids, seconds=IDLE_SECONDS, sleep=time.sleep, **paths):
    """Cores used over `seconds` outside the node's pods and the pids: Kubernetes itself
    and anything else on the machine."""
    def outside():
        pods, ceph, busy = cpu_seconds(pids, **paths)
        return busy - pods - ceph
    before = outside()
    sleep(seconds)
    return (outside() - before) / seconds


def sample(out, pids, interval=SAMPLE_SECONDS, rounds=None, clock=time.time, sleep=time.sleep, **paths):
    """Writes sample_line()s to out every interval, `rounds` of them (None: until
    killed). Line-buffered, so that a killed sampler leaves whole lines behind."""
    with open(out, "w", buffering=1) as w:
        n = 0
        while rounds is None or n < rounds:
            pods, ceph, busy = cpu_seconds(pids, **paths)
            w.write(sample_line(clock(), pods, ceph, busy))
            n += 1
            sleep(interval)


def reduce_tasks(doc):
    """The REDUCE tasks' ids in a JobHistory tasks document, in its order. A job without
    tasks has {"tasks": null}."""
    return [t["id"] for t in (doc["tasks"] or {}).get("task", []) if t["type"] == "REDUCE"]


def local_pod(jobs, name):
    """The local path's Pod from a `kubectl get jobs -o json` list: the first Job's pod
    template (same image, Hadoop configuration, CephFS client and node as the stage
    pods), kept running with room for local mode's threads. Only the template's spec is
    taken: its labels hold the Job's selector, and a Job's controller adopts a pod that
    matches it."""
    items = jobs["items"]
    if not items:
        raise LookupError("no benchmark Job to take the pod template from")
    pod = {"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": name, "labels": dict(LOCAL_POD_LABELS)},
           "spec": copy.deepcopy(items[0]["spec"]["template"]["spec"])}
    c = pod["spec"]["containers"][0]
    c["command"], c["args"] = ["sleep", "infinity"], []
    c["resources"] = copy.deepcopy(LOCAL_POD_RESOURCES)
    # The stage's runner writes its report as the termination message; `sleep` has none.
    c.pop("terminationMessagePolicy", None)
    return pod


def _config(path=""):
    if not path:
        lines = []
    else:
        try:
            lines = _read(path).splitlines()
        except OSError as e:
            sys.exit(f"BENCH_CONFIG: {e}")
    try:
        print(json.dumps(parse_config(lines)))
    except ConfigError as e:
        sys.exit(f"BENCH_CONFIG: {e}")
    return 0


def _rm_settled(url=RM):
    try:
        with urllib.request.urlopen(url + "/info", timeout=5) as r:
            info = json.load(r)
        with urllib.request.urlopen(url + "/nodes?states=RUNNING", timeout=5) as r:
            nodes = json.load(r)
    except (OSError, ValueError):
        return 1
    return 0 if rm_settled(info, nodes, time.time() * 1000) else 1


def _idle(*pids):
    other = other_cores(pids)
    print(f"{other:.2f}")
    return 0 if other < QUIET else 1


def _sample(out, *pids):
    sample(out, pids)
    return 0


def _reduce_tasks(text=None):
    doc = json.loads(sys.stdin.read() if text is None else text)
    print(" ".join(reduce_tasks(doc)))
    return 0


def _local_pod(name):
    try:
        print(json.dumps(local_pod(json.load(sys.stdin), name)))
    except LookupError as e:
        sys.exit(f"bench_cluster_probe.py local-pod: {e}")
    return 0


# subcommand -> (function, fewest arguments, most arguments or None for any number)
COMMANDS = {
    "config": (_config, 0, 1),
    "rm-settled": (_rm_settled, 0, 1),
    "idle": (_idle, 0, None),
    "sample": (_sample, 1, None),
    "reduce-tasks": (_reduce_tasks, 0, 1),
    "local-pod": (_local_pod, 1, 1),
}


def main(argv):
    if len(argv) < 2 or argv[1] not in COMMANDS:
        sys.exit(__doc__)
    command, fewest, most = COMMANDS[argv[1]]
    args = argv[2:]
    if len(args) < fewest or (most is not None and len(args) > most):
        sys.exit(__doc__)
    return command(*args)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
