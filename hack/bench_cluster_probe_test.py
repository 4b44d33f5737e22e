"""Tests of bench_cluster_probe.py: BENCH_CONFIG's lines, the ResourceManager's settled
decision on its REST documents, the CPU counters read from /proc-like files written
here (process names with spaces and parentheses, a process that has gone), cpu.tsv's
lines, the reduce task ids of a JobHistory tasks document, and the local path's Pod made
from a Job's pod template."""
import contextlib
import http.server
import io
import json
import os
import re
import sys
import tempfile
import threading
import time
import unittest
from unittest import mock

from bench_cluster_probe import (
    ConfigError, busy_ticks, cpu_seconds, local_pod, main, other_cores, parse_config, process_ticks,
    reduce_tasks, rm_settled, sample)


def run_main(*args, stdin=""):
    """main's exit code (or message) and what it printed."""
    out = io.StringIO()
    with mock.patch.object(sys, "stdin", io.StringIO(stdin)), contextlib.redirect_stdout(out):
        try:
            code = main(["bench_cluster_probe.py", *args])
        except SystemExit as e:
            code = e.code
    return code, out.getvalue()


class ConfigTest(unittest.TestCase):
    def test_settings_by_file_in_spec_config_order(self):
        got = parse_config([
            "# a comment",
            "",
            "   ",
            "  # an indented comment",
            "mapredSite mapreduce.task.io.sort.mb=256",
            "coreSite\tfs.trash.interval = 0 ",
            "mapredSite mapreduce.task.io.sort.factor=64",
        ])
        self.assertEqual(got, {"coreSite": {"fs.trash.interval": "0"},
                               "mapredSite": {"mapreduce.task.io.sort.mb": "256",
                                              "mapreduce.task.io.sort.factor": "64"}})
        self.assertEqual(list(got), ["coreSite", "mapredSite"], "the files in spec.config's order, yarnSite left out")

    def test_a_value_keeps_its_own_equals_signs(self):
        got = parse_config(["mapredSite mapreduce.map.java.opts=-Xmx1g -Dlog4j.configuration=x=y"])
        self.assertEqual(got, {"mapredSite": {"mapreduce.map.java.opts": "-Xmx1g -Dlog4j.configuration=x=y"}})

    def test_a_later_line_wins(self):
        self.assertEqual(parse_config(["yarnSite a=1", "yarnSite a=2"]), {"yarnSite": {"a": "2"}})

    def test_nothing_is_an_empty_object(self):
        self.assertEqual(parse_config([]), {})
        self.assertEqual(parse_config(["# only a comment", ""]), {})

    def test_a_bad_first_word_names_the_line_and_the_allowed_words(self):
        with self.assertRaises(ConfigError) as e:
            parse_config(["coreSite a=b", "hdfsSite dfs.replication=1"])
        self.assertIn("'hdfsSite dfs.replication=1'", str(e.exception))
        self.assertIn("coreSite, yarnSite, mapredSite", str(e.exception))

    def test_a_line_without_a_setting_fails(self):
        for line in ("coreSite", "coreSite fs.trash.interval"):
            with self.subTest(line=line), self.assertRaises(ConfigError) as e:
                parse_config([line])
            self.assertIn(repr(line), str(e.exception))

    def test_main_prints_json_or_fails_with_bench_config(self):
        self.assertEqual(run_main("config", ""), (0, "{}\n"))
        self.assertEqual(run_main("config"), (0, "{}\n"))
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "config")
            with open(path, "w") as f:
                f.write("# try a bigger sort buffer\nmapredSite mapreduce.task.io.sort.mb=512\n")
            self.assertEqual(run_main("config", path), (0, '{"mapredSite": {"mapreduce.task.io.sort.mb": "512"}}\n'))
            with open(path, "w") as f:
                f.write("yarn yarn.nodemanager.resource.cpu-vcores=4\n")
            code, out = run_main("config", path)
        self.assertEqual(out, "")
        self.assertTrue(code.startswith("BENCH_CONFIG: 'yarn yarn.nodemanager"), code)


def info(started_on):
    return {"clusterInfo": {"id": 1, "startedOn": started_on, "state": "STARTED"}}


def nodes(*ids):
    return {"nodes": {"node": [{"id": i, "state": "RUNNING"} for i in ids]}}


class RMSettledTest(unittest.TestCase):
    now = 1_700_000_100_000

    def test_running_node_and_started_long_enough_ago(self):
        self.assertTrue(rm_settled(info(self.now - 20_001), nodes("nm-0:8041"), self.now))

    def test_no_running_node(self):
        self.assertFalse(rm_settled(info(self.now - 60_000), {"nodes": None}, self.now))
        self.assertFalse(rm_settled(info(self.now - 60_000), {"nodes": {"node": []}}, self.now))
        self.assertFalse(rm_settled(info(self.now - 60_000), {"nodes": {}}, self.now))

    def test_started_too_recently(self):
        self.assertFalse(rm_settled(info(self.now - 5_000), nodes("nm-0:8041"), self.now))
        self.assertFalse(rm_settled(info(self.now - 20_000), nodes("nm-0:8041"), self.now), "more than 20 s")

    def test_missing_fields_are_not_settled(self):
        for i, n in [({}, nodes("nm-0:8041")),
                     ({"clusterInfo": {}}, nodes("nm-0:8041")),
                     ({"clusterInfo": None}, nodes("nm-0:8041")),
                     (info(self.now - 60_000), {}),
                     (info(self.now - 60_000), {"nodes": []})]:
            with self.subTest(info=i, nodes=n):
                self.assertFalse(rm_settled(i, n, self.now))

    def test_main_asks_the_rest_api(self):
        started = time.time() * 1000 - 60_000
        for answers, want in [({"/info": info(started), "/nodes?states=RUNNING": nodes("nm-0:8041")}, 0),
                              ({"/info": info(started), "/nodes?states=RUNNING": {"nodes": None}}, 1),
                              ({"/info": info(started)}, 1)]:
            with self.subTest(answers=answers), ResourceManager(answers) as url:
                self.assertEqual(run_main("rm-settled", url), (want, ""))

    def test_main_fails_when_the_resourcemanager_does_not_answer(self):
        with ResourceManager({}) as url:
            pass
        self.assertEqual(run_main("rm-settled", url), (1, ""))


class ResourceManager:
    """An HTTP server on the loopback answering GETs of /ws/v1/cluster + a path in
    answers with its JSON document, 404 otherwise; the context is its base URL."""

    def __init__(self, answers):
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                path = self.path.removeprefix("/ws/v1/cluster")
                if path not in answers:
                    self.send_error(404)
                    return
                body = json.dumps(answers[path]).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass
        self.server = http.server.HTTPServer(("127.0.0.1", 0), Handler)

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()
        return f"http://127.0.0.1:{self.server.server_port}/ws/v1/cluster"

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def stat_line(pid, name, utime, stime):
    """A /proc/PID/stat line as the kernel writes it: the name between parentheses, as it
    is, then state, ppid, pgrp, session, tty_nr, tpgid, flags, minflt, cminflt, majflt,
    cmajflt, utime, stime and the rest."""
    return (f"{pid} ({name}) S 1 {pid} {pid} 0 -1 4194560 12345 0 7 0 {utime} {stime} "
            "3 4 20 0 60 0 987654 1234567890 5678 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0 0 0 0\n")


def proc_stat(user, nice, system, idle, iowait, irq, softirq, steal):
    return (f"cpu  {user} {nice} {system} {idle} {iowait} {irq} {softirq} {steal} 0 0\n"
            "cpu0 1 1 1 1 1 1 1 1 0 0\nintr 12345\n")


class ProcTest(unittest.TestCase):
    def test_busy_is_everything_but_idle_and_iowait(self):
        self.assertEqual(busy_ticks(proc_stat(1000, 200, 300, 50000, 4000, 50, 60, 70)), 1680)

    def test_utime_and_stime(self):
        self.assertEqual(process_ticks(stat_line(4242, "ceph-osd", 2500, 1200)), 3700)

    def test_a_name_with_spaces_and_parentheses(self):
        for name in ("(ceph osd)", "ceph) 1 2 (x", "a b c d e f g h i j k l m n"):
            with self.subTest(name=name):
                self.assertEqual(process_ticks(stat_line(4242, name, 2500, 1200)), 3700)


class FakeMachine:
    """A /proc with stat and some PID/stat files, and a kubepods cpuacct.usage file, in a
    temporary directory."""

    def __init__(self, tmp):
        self.proc = os.path.join(tmp, "proc")
        self.kubepods = os.path.join(tmp, "cpuacct.usage")
        os.makedirs(self.proc)

    def paths(self):
        return dict(proc=self.proc, kubepods=self.kubepods, tick=100)

    def set(self, busy, pods_ns, processes):
        with open(os.path.join(self.proc, "stat"), "w") as f:
            # busy ticks all as user time; idle and iowait must not count.
            f.write(proc_stat(busy, 0, 0, 999999, 88888, 0, 0, 0))
        with open(self.kubepods, "w") as f:
            f.write(f"{pods_ns}\n")
        for pid, (name, utime, stime) in processes.items():
            os.makedirs(os.path.join(self.proc, str(pid)), exist_ok=True)
            with open(os.path.join(self.proc, str(pid), "stat"), "w") as f:
                f.write(stat_line(pid, name, utime, stime))


class CPUTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.tmp = tmp.name
        self.machine = FakeMachine(self.tmp)

    def test_counters_in_seconds_and_a_gone_process_counts_nothing(self):
        self.machine.set(busy=168000, pods_ns=1_500_000_000, processes={
            11: ("ceph-mon", 100, 50), 12: ("(ceph osd)", 20, 7)})
        pods, ceph, busy = cpu_seconds(["11", "12", "13"], **self.machine.paths())
        self.assertEqual(pods, 1.5)
        self.assertAlmostEqual(ceph, 1.77)
        self.assertAlmostEqual(busy, 1680.0)

    def test_sampler_lines(self):
        self.machine.set(busy=1234, pods_ns=2_000_000_001, processes={7: ("ceph-mds", 300, 45)})
        clock = iter([1_700_000_000.12345, 1_700_000_000.6239]).__next__
        sleeps = []

        def sleep(s):
            sleeps.append(s)
            # The second sample sees the counters moved on.
            self.machine.set(busy=1300, pods_ns=2_250_000_000, processes={7: ("ceph-mds", 310, 50)})
        out = os.path.join(self.tmp, "cpu.tsv")
        sample(out, ["7", "8"], rounds=2, clock=clock, sleep=sleep, **self.machine.paths())
        with open(out) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines, ["1700000000.123\t2.000\t3.450\t12.340",
                                 "1700000000.624\t2.250\t3.600\t13.000"])
        self.assertEqual(sleeps, [0.5, 0.5])
        for line in lines:
            # What bench_cluster_report.py reads: four tab-separated numbers.
            self.assertRegex(line, r"^\d+\.\d{3}(\t\d+\.\d{3}){3}$")

    def test_other_cores_leave_out_pods_and_the_pids(self):
        self.machine.set(busy=1000, pods_ns=5_000_000_000, processes={3: ("ceph-osd", 60, 40)})

        def sleep(s):
            self.assertEqual(s, 10)
            # 10 s: 15 s of CPU on the machine, 8 in pods, 3 in the process: 4 s elsewhere.
            self.machine.set(busy=2500, pods_ns=13_000_000_000, processes={3: ("ceph-osd", 260, 140)})
        self.assertAlmostEqual(other_cores(["3"], sleep=sleep, **self.machine.paths()), 0.4)


class ReduceTasksTest(unittest.TestCase):
    def test_only_reduces_in_order(self):
        doc = {"tasks": {"task": [
            {"id": "task_1_0001_m_000000", "type": "MAP"},
            {"id": "task_1_0001_r_000001", "type": "REDUCE"},
            {"id": "task_1_0001_m_000001", "type": "MAP"},
            {"id": "task_1_0001_r_000000", "type": "REDUCE"},
        ]}}
        self.assertEqual(reduce_tasks(doc), ["task_1_0001_r_000001", "task_1_0001_r_000000"])

    def test_no_tasks(self):
        self.assertEqual(reduce_tasks({"tasks": None}), [])
        self.assertEqual(reduce_tasks({"tasks": {}}), [])
        self.assertEqual(reduce_tasks({"tasks": {"task": [{"id": "task_1_0001_m_000000", "type": "MAP"}]}}), [])

    def test_main_reads_an_argument_or_stdin(self):
        doc = json.dumps({"tasks": {"task": [{"id": "task_1_0001_r_000000", "type": "REDUCE"},
                                             {"id": "task_1_0001_r_000001", "type": "REDUCE"}]}})
        want = (0, "task_1_0001_r_000000 task_1_0001_r_000001\n")
        self.assertEqual(run_main("reduce-tasks", doc), want)
        self.assertEqual(run_main("reduce-tasks", stdin=doc), want)
        self.assertEqual(run_main("reduce-tasks", '{"tasks":null}'), (0, "\n"))


def job(name, command):
    return {"metadata": {"name": name, "labels": {"hadoopceph.io/benchmarkrun": "ts-1000k-r1"}},
            "spec": {"template": {
                "metadata": {"labels": {"batch.kubernetes.io/controller-uid": "0f3c", "job-name": name}},
                "spec": {
                    "restartPolicy": "Never",
                    "nodeName": "hco-node",
                    "volumes": [{"name": "hadoop-conf", "configMap": {"name": "demo-hadoop"}}],
                    "containers": [{
                        "name": "runner",
                        "image": "hco/hadoop:3.3.6",
                        "command": ["/opt/runner"],
                        "args": command,
                        "env": [{"name": "HADOOP_CONF_DIR", "value": "/etc/hadoop"}],
                        "volumeMounts": [{"name": "hadoop-conf", "mountPath": "/etc/hadoop"}],
                        "resources": {"requests": {"cpu": "100m", "memory": "512Mi"}},
                        "terminationMessagePolicy": "FallbackToLogsOnError",
                    }, {"name": "sidecar", "image": "busybox", "terminationMessagePolicy": "File"}],
                }}}}


class LocalPodTest(unittest.TestCase):
    def setUp(self):
        self.jobs = {"items": [job("ts-1000k-r1-teragen", ["teragen"]), job("ts-1000k-r1-terasort", ["terasort"])]}

    def test_the_first_jobs_template_kept_running(self):
        before = json.dumps(self.jobs, sort_keys=True)
        pod = local_pod(self.jobs, "local-mode")
        self.assertEqual(json.dumps(self.jobs, sort_keys=True), before, "the Jobs document is left as it was")
        self.assertEqual(pod["apiVersion"], "v1")
        self.assertEqual(pod["kind"], "Pod")
        self.assertEqual(pod["metadata"], {"name": "local-mode", "labels": {"app.kubernetes.io/name": "bench-cluster-local"}},
                         "only the Pod's own name and label: the template's would match the Job's selector")
        spec = pod["spec"]
        self.assertEqual((spec["restartPolicy"], spec["nodeName"], spec["volumes"]),
                         ("Never", "hco-node", [{"name": "hadoop-conf", "configMap": {"name": "demo-hadoop"}}]))
        c = spec["containers"][0]
        self.assertEqual(c["command"], ["sleep", "infinity"])
        self.assertEqual(c["args"], [])
        self.assertEqual(c["resources"], {"requests": {"cpu": "500m", "memory": "6Gi"}, "limits": {"memory": "6Gi"}})
        self.assertNotIn("terminationMessagePolicy", c)
        self.assertEqual((c["name"], c["image"], c["env"], c["volumeMounts"]),
                         ("runner", "hco/hadoop:3.3.6", [{"name": "HADOOP_CONF_DIR", "value": "/etc/hadoop"}],
                          [{"name": "hadoop-conf", "mountPath": "/etc/hadoop"}]))
        self.assertEqual(spec["containers"][1], {"name": "sidecar", "image": "busybox", "terminationMessagePolicy": "File"},
                         "only the first container is changed")

    def test_without_a_policy_to_remove(self):
        jobs = {"items": [job("j", ["teragen"])]}
        del jobs["items"][0]["spec"]["template"]["spec"]["containers"][0]["terminationMessagePolicy"]
        self.assertNotIn("terminationMessagePolicy", local_pod(jobs, "p")["spec"]["containers"][0])

    def test_no_job_fails(self):
        with self.assertRaises(LookupError):
            local_pod({"items": []}, "local-mode")

    def test_main_reads_the_jobs_on_stdin(self):
        code, out = run_main("local-pod", "local-mode", stdin=json.dumps(self.jobs))
        self.assertEqual(code, 0)
        self.assertEqual(json.loads(out), local_pod(self.jobs, "local-mode"))
        code, out = run_main("local-pod", "local-mode", stdin='{"items": []}')
        self.assertIn("no benchmark Job", code)


class UsageTest(unittest.TestCase):
    def test_unknown_subcommand_or_arguments_print_the_usage(self):
        for args in ((), ("probe",), ("local-pod",), ("sample",), ("config", "a", "b")):
            with self.subTest(args=args):
                code, _ = run_main(*args)
                self.assertTrue(re.search(r"bench_cluster_probe\.py local-pod NAME", code), code)


if __name__ == "__main__":
    unittest.main()
