"""Tests of bench_datapath_parse.py on what the tools print: TeraValidate's reports
and TestDFSIO's result files captured from real Hadoop runs
(internal/benchmark/testdata, hack/capture-benchmark-fixtures.sh), `rados bench`'s
summaries from the local Ceph, and LocalJobRunner's task lines in the log4j pattern
hack/bench-datapath.sh sets."""
import os
import unittest

import contextlib
import io
import sys
from unittest import mock

from bench_datapath_parse import Missing, checksum, dfsio_seconds, main, map_window, pool_stats, rados_bandwidth

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "internal", "benchmark", "testdata")
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "testdata")


def fixture(*path):
    with open(os.path.join(*path)) as f:
        return f.read()


class ChecksumTest(unittest.TestCase):
    def test_a_clean_validation_is_its_checksum(self):
        self.assertEqual(checksum(fixture(FIXTURES, "teravalidate-report.txt")), "c327a1c42c28")

    def test_each_error_line_adds_an_error_after_the_checksum(self):
        report = fixture(FIXTURES, "teravalidate-unsorted-report.txt")
        errors = sum(1 for line in report.splitlines() if line.startswith("error\t"))
        self.assertGreater(errors, 0)
        self.assertEqual(checksum(report).split(), ["cfd13cd75"] + ["ERROR"] * errors)

    def test_a_report_without_either_fails(self):
        with self.assertRaises(Missing):
            checksum("")


class RadosBandwidthTest(unittest.TestCase):
    def test_write_and_sequential_read(self):
        self.assertEqual(rados_bandwidth(fixture(HERE, "rados-bench-write.txt")), WRITE_MBPS)
        self.assertEqual(rados_bandwidth(fixture(HERE, "rados-bench-seq.txt")), SEQ_MBPS)

    def test_an_aborted_bench_fails(self):
        with self.assertRaises(Missing):
            rados_bandwidth("error opening pool ceph-ec-data: (2) No such file or directory\n")


class DFSIOSecondsTest(unittest.TestCase):
    def test_hadoop_3_write_and_read(self):
        self.assertEqual(dfsio_seconds(fixture(FIXTURES, "dfsio-write-result.txt")), "3.56")
        read = fixture(FIXTURES, "dfsio-read-result.txt")
        want = next(line.split(":", 1)[1].strip() for line in read.splitlines() if "Test exec time sec" in line)
        self.assertEqual(dfsio_seconds(read), want)

    def test_a_result_without_the_time_fails(self):
        with self.assertRaises(Missing):
            dfsio_seconds("----- TestDFSIO ----- : write\n")


def task_line(at, verb, attempt):
    return f"{at} INFO  LocalJobRunner: {verb} task: {attempt}"


class MapWindowTest(unittest.TestCase):
    def test_first_map_start_to_last_map_end(self):
        log = "\n".join([
            "2026-11-20 10:00:00,000 INFO  TestDFSIO: nrFiles = 4",
            task_line("2026-11-20 10:00:01,250", "Starting", "attempt_local1_0001_m_000000_0"),
            task_line("2026-11-20 10:00:01,300", "Starting", "attempt_local1_0001_m_000001_0"),
            task_line("2026-11-20 10:00:04,000", "Finishing", "attempt_local1_0001_m_000000_0"),
            task_line("2026-11-20 10:00:05,750", "Finishing", "attempt_local1_0001_m_000001_0"),
            # The reduce is outside the window.
            task_line("2026-11-20 10:00:06,000", "Starting", "attempt_local1_0001_r_000000_0"),
            task_line("2026-11-20 10:00:09,000", "Finishing", "attempt_local1_0001_r_000000_0"),
        ])
        self.assertEqual(map_window(log), "4.500")

    def test_a_log_without_maps_fails(self):
        with self.assertRaises(Missing):
            map_window(task_line("2026-11-20 10:00:06,000", "Starting", "attempt_local1_0001_r_000000_0"))


# What the captured summaries say (hack/testdata/README.md).
class PoolStatsTest(unittest.TestCase):
    def test_stored_and_raw_bytes_of_each_pool(self):
        text = fixture(HERE, "ceph-df-detail.json")
        # The local Ceph's replicated pool (size 2), holding what an e2e run left, and
        # its erasure-coded 2+1 pool holding one object of 4 MiB.
        self.assertEqual(pool_stats(text, "cephfs_data"), "106818144 214343680")
        stored, used = map(int, pool_stats(text, "cephfs_data_ec").split())
        self.assertEqual(stored, 4 << 20)
        self.assertEqual(used / stored, 1.5)
        self.assertEqual(pool_stats(text, "device_health_metrics"), "0 0")

    def test_a_pool_that_is_not_there_fails_naming_it(self):
        with self.assertRaisesRegex(Missing, "no pool nosuchpool"):
            pool_stats(fixture(HERE, "ceph-df-detail.json"), "nosuchpool")

    def test_output_that_is_not_ceph_df_fails(self):
        for text in ("", "[]", '{"stats": {}}', 'HEALTH_OK'):
            with self.subTest(text=text):
                with self.assertRaises(Missing):
                    pool_stats(text, "cephfs_data")

    def test_the_pool_is_named_on_the_command_line(self):
        out = io.StringIO()
        with mock.patch.object(sys, "stdin", io.StringIO(fixture(HERE, "ceph-df-detail.json"))), \
                contextlib.redirect_stdout(out):
            main(["bench_datapath_parse.py", "pool-stats", "cephfs_data"])
        self.assertEqual(out.getvalue(), "106818144 214343680\n")
        with self.assertRaises(SystemExit):
            main(["bench_datapath_parse.py", "pool-stats"])


WRITE_MBPS = "79.505"
SEQ_MBPS = "240.791"

if __name__ == "__main__":
    unittest.main()
