#!/usr/bin/env python3
"""What hack/bench-datapath.sh measures of the machine's processes, one subcommand each:

    bench_datapath_probe.py cpu-seconds [PID...]     CPU seconds the PIDs used so far
    bench_datapath_probe.py timed CPU_FILE COMMAND...  COMMAND's CPU seconds to CPU_FILE

cpu-seconds prints the user and system time of the PIDs together (the storage daemons:
Ceph's mon, mgr, OSDs and MDS, or the MiniDFSCluster's JVM), 2 decimals; a PID that has
gone counts nothing, and no PID prints 0.00 (file:// has no daemons).

timed runs COMMAND, then writes to CPU_FILE the user and system time, 2 decimals, of
COMMAND and every child it waited for (a job's JVM and what it forks), and exits with
COMMAND's status: the wall time is the caller's to take, around this.
"""
import os
import resource
import subprocess
import sys

from bench_cluster_probe import PROC, TICK, process_ticks


def cpu_seconds(pids, proc=PROC, tick=TICK):
    ticks = 0
    for pid in pids:
        try:
            with open(os.path.join(proc, str(pid), "stat")) as f:
                ticks += process_ticks(f.read())
        except OSError:
            pass
    return ticks / tick


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cpu_file, command):
    """COMMAND's exit status; its CPU seconds (and its waited-for children's) written to
    cpu_file. Only what this process's children used since it started counts, so the
    figure is COMMAND's alone when it is the only child, as in the subcommand."""
    before = children_cpu()
    status = subprocess.call(command)
    with open(cpu_file, "w") as f:
        f.write(f"{children_cpu() - before:.2f}")
    return status


def main(argv):
    if len(argv) >= 2 and argv[1] == "cpu-seconds":
        print(f"{cpu_seconds(argv[2:]):.2f}")
        return 0
    if len(argv) >= 4 and argv[1] == "timed":
        return timed(argv[2], argv[3:])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
