"""Tests of bench_datapath_report.py: how it reads results.tsv's records, and what the
report says of them."""
import unittest

from bench_datapath_report import read_results, render

META = "meta\treps\t2\trows\t1000000\tdfsio\t4 x 64 MiB\trados\t10 s, 4 MiB objects, 16 threads"


def records(*rows):
    return [META + "\n"] + ["\t".join(map(str, r)) + "\n" for r in rows]


def terasort(system, rep, teragen, terasort_s, teravalidate, job_cpu=10.0, daemons_cpu=5.0):
    return [("terasort", system, rep, stage, s, job_cpu, daemons_cpu)
            for stage, s in (("teragen", teragen), ("terasort", terasort_s), ("teravalidate", teravalidate))]


class ReadResultsTest(unittest.TestCase):
    def test_groups_stages_by_system_and_repetition_order(self):
        res = read_results(records(*terasort("hdfs", 1, 10, 20, 5), *terasort("hdfs", 2, 12, 22, 6)))
        self.assertEqual(res.meta["reps"], "2")
        self.assertEqual(res.stage[("hdfs", "terasort")], [20.0, 22.0])
        self.assertEqual(res.cpu[("hdfs", "teragen")], [(10.0, 5.0), (10.0, 5.0)])

    def test_raw_is_the_growth_between_the_two_readings(self):
        res = read_results(records(("raw", "ceph-ec", 1, "100 200", "1100 1700", 1000)))
        self.assertEqual(res.raw["ceph-ec"], (1000, 1500, 1000))

    def test_dfsio_rates_over_the_job_and_over_the_io_window(self):
        res = read_results(records(("dfsio", "ceph-rep", 1, "write", 8.0, 256, 2.0)))
        self.assertEqual(res.dfsio[("ceph-rep", "write")], [32.0])
        self.assertEqual(res.dfsio_window[("ceph-rep", "write")], [128.0])
        self.assertEqual(res.job_extra, [6.0])

    def test_blank_lines_are_skipped_and_checksums_stripped(self):
        res = read_results(records(("checksum", "file", 1, " abc ")) + ["\n"])
        self.assertEqual(res.checksums["file"], {"abc"})


class RenderTest(unittest.TestCase):
    def report(self, *rows):
        return render(read_results(records(*rows)), cpu_count=2, mem_gib=24, date="2026-11-27")

    def test_totals_against_hdfs_and_file_and_their_targets(self):
        out = self.report(*terasort("ceph-rep", 1, 10, 20, 6), *terasort("ceph-rep", 2, 10, 20, 6),
                          *terasort("hdfs", 1, 20, 30, 10), *terasort("hdfs", 2, 20, 30, 10),
                          *terasort("file", 1, 10, 19, 6), *terasort("file", 2, 10, 19, 6),
                          ("checksum", "ceph-rep", 1, "c1"), ("checksum", "hdfs", 1, "c1"))
        self.assertIn("| ceph:// replicated, size 2 | 10.0 | 20.0 | 6.0 | 36.0 | 0.60x | 1.03x | 0.67x |", out)
        self.assertIn("total 0.60x HDFS (target at most 0.75x: met), +2.9% against file:// "
                      "(target at most 5% above file://: met)", out)
        self.assertIn("identical on every system and repetition", out)
        self.assertIn("BENCH_REPS=2 BENCH_ROWS=1000000 BENCH_DFSIO_FILES=4 BENCH_DFSIO_SIZE_MB=64 make bench-datapath", out)

    def test_differing_checksums_are_reported(self):
        out = self.report(*terasort("hdfs", 1, 1, 1, 1), ("checksum", "hdfs", 1, "a"), ("checksum", "file", 1, "b"))
        self.assertIn("DIFFER: a, b", out)

    def test_missed_throughput_target(self):
        out = self.report(*terasort("hdfs", 1, 1, 1, 1),
                          ("dfsio", "ceph-ec", 1, "read", 4.0, 256, 2.0), ("rados", "ceph-ec", 1, "read", 200.0))
        self.assertIn("| ceph:// EC 2+1 | read | 200 | 128 | 64% | 64 | 32% | I/O window: **missed**; whole job: **missed** |", out)


if __name__ == "__main__":
    unittest.main()
