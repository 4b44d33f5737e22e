"""Tests of bench_datapath_probe.py: the storage daemons' CPU read from /proc-like files
written here (one that has gone, none at all), and a timed command's status and CPU
time with real child processes, one idle and one busy."""
import contextlib
import io
import os
import sys
import tempfile
import unittest

from bench_cluster_probe_test import stat_line
from bench_datapath_probe import cpu_seconds, main, timed


class CPUSecondsTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.proc = tmp.name
        for pid, name, utime, stime in ((10, "ceph-mon", 150, 50), (11, "ceph-osd (3)", 1000, 250)):
            os.makedirs(os.path.join(self.proc, str(pid)))
            with open(os.path.join(self.proc, str(pid), "stat"), "w") as f:
                f.write(stat_line(pid, name, utime, stime))

    def test_the_pids_together_in_seconds(self):
        self.assertAlmostEqual(cpu_seconds(["10", "11"], proc=self.proc, tick=100), 14.5)

    def test_a_pid_that_has_gone_counts_nothing(self):
        self.assertAlmostEqual(cpu_seconds(["10", "999"], proc=self.proc, tick=100), 2.0)

    def test_no_pids_is_zero(self):
        self.assertEqual(cpu_seconds([], proc=self.proc, tick=100), 0)


class TimedTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.cpu_file = os.path.join(tmp.name, "job-cpu")

    def cpu(self):
        with open(self.cpu_file) as f:
            text = f.read()
        self.assertRegex(text, r"^\d+\.\d\d$")
        return float(text)

    def test_the_command_status_passes_through(self):
        self.assertEqual(timed(self.cpu_file, ["sh", "-c", "exit 3"]), 3)
        self.assertLess(self.cpu(), 0.5)

    def test_a_busy_command_and_its_own_children_are_counted(self):
        # The work is done by a grandchild, as a job's JVM may fork: it counts once its
        # parent has waited for it.
        busy = [sys.executable, "-c",
                "import subprocess, sys; subprocess.call([sys.executable, '-c', "
                "'import time\\nt = time.process_time()\\nwhile time.process_time() - t < 0.6: pass'])"]
        self.assertEqual(timed(self.cpu_file, busy), 0)
        self.assertGreaterEqual(self.cpu(), 0.6)

    def test_an_earlier_child_does_not_count(self):
        timed(self.cpu_file, [sys.executable, "-c",
                              "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.5: pass"])
        timed(self.cpu_file, ["true"])
        self.assertLess(self.cpu(), 0.3)


class UsageTest(unittest.TestCase):
    def test_no_subcommand_or_no_command_prints_the_usage(self):
        for args in ([], ["timed"], ["timed", "file"], ["other"]):
            with self.subTest(args=args):
                with self.assertRaises(SystemExit) as e:
                    main(["bench_datapath_probe.py", *args])
                self.assertIn("cpu-seconds", str(e.exception.code))

    def test_cpu_seconds_prints_two_decimals(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(main(["bench_datapath_probe.py", "cpu-seconds"]), 0)
        self.assertEqual(out.getvalue(), "0.00\n")


if __name__ == "__main__":
    unittest.main()
