"""Tests of the parts of bench_cluster_report.py that read records: the runner's report in
a termination message, the phases of a stage, and CPU time between two moments."""
import unittest

from bench_cluster_report import cpu_between, phases, runner_report


def job(submit, start, finish, maps, reduces=()):
    tasks = [{"type": "MAP", "finishTime": t} for t in maps] + [{"type": "REDUCE", "finishTime": t} for t in reduces]
    return {"job": {"job": {"submitTime": submit, "startTime": start, "finishTime": finish}},
            "tasks": {"tasks": {"task": tasks}}}


class PhasesTest(unittest.TestCase):
    def test_sort_job(self):
        got = phases(1_000, 30_000, [job(4_000, 9_000, 27_500, maps=[15_000, 17_000], reduces=[26_000, 27_000])])
        self.assertEqual(got, {"submit": 3.0, "am": 5.0, "maps": 8.0, "reduces": 10.0, "commit": 0.5, "exit": 2.5})

    def test_map_only_job(self):
        got = phases(0, 10_000, [job(2_000, 4_000, 9_000, maps=[8_000, 8_500])])
        self.assertEqual(got["reduces"], 0)
        self.assertEqual(got["maps"], 4.5)
        self.assertEqual(got["commit"], 0.5)

    def test_phases_add_up_to_the_stage(self):
        history = [job(2_000, 4_000, 9_000, maps=[8_000]), job(10_000, 12_000, 20_000, maps=[15_000], reduces=[19_000])]
        got = phases(0, 21_000, history)
        self.assertAlmostEqual(sum(got.values()), 21.0)
        self.assertEqual(got["submit"], 2.0 + 1.0, "the gap between the jobs is the second one's submission")

    def test_job_without_tasks(self):
        got = phases(0, 5_000, [{"job": {"job": {"submitTime": 1_000, "startTime": 2_000, "finishTime": 3_000}},
                                 "tasks": {"tasks": None}}])
        self.assertEqual(got["maps"], 0)
        self.assertEqual(got["commit"], 1.0)


class CPUTest(unittest.TestCase):
    samples = [(10.0, 100.0, 5.0), (10.5, 101.0, 5.5), (11.0, 101.0, 6.5)]

    def test_interpolates(self):
        pods, ceph = cpu_between(self.samples, 10.25, 11.0)
        self.assertAlmostEqual(pods, 0.5)
        self.assertAlmostEqual(ceph, 1.25)

    def test_every_column(self):
        got = cpu_between([(0.0, 1.0, 2.0, 10.0), (1.0, 2.0, 2.5, 12.0)], 0.0, 1.0)
        self.assertEqual(got, (1.0, 0.5, 2.0))

    def test_refuses_outside_the_samples(self):
        with self.assertRaises(ValueError):
            cpu_between(self.samples, 9.0, 10.5)


class RunnerReportTest(unittest.TestCase):
    def test_reads_the_report_line(self):
        pod = {"status": {"containerStatuses": [{"state": {"terminated": {
            "message": 'some log\n{"v":3,"stage":"terasort","exit":0,"start":1000,"end":2000}\n'}}}]}}
        self.assertEqual(runner_report(pod)["start"], 1000)

    def test_none_without_a_report(self):
        self.assertIsNone(runner_report({"status": {"containerStatuses": [{"state": {"running": {}}}]}}))
        self.assertIsNone(runner_report({"status": {"containerStatuses": [{"state": {"terminated": {"message": "{not json"}}}]}}))


if __name__ == "__main__":
    unittest.main()
