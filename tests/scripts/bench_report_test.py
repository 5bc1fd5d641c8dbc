#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of scripts/bench-report.py: the median ratio's confidence interval,
its verdict, pairs pooled from several result directories (the two-job
scaling taken only from those that measured both loads), the wake-ups per
I/O, and the table of two rdmablk settings measured in one bench
(--compare)."""

import importlib.util
import json
import math
import statistics
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench-report.py"
spec = importlib.util.spec_from_file_location("bench_report", SCRIPT)
br = importlib.util.module_from_spec(spec)
spec.loader.exec_module(br)


def coverage(n, k):
    """Chance that the median lies between the k-th smallest and the k-th
    largest of n values: 1 - 2 P(B <= k - 1), B ~ Binomial(n, 1/2)."""
    return 1 - 2 * sum(math.comb(n, i) for i in range(k)) / 2**n


def write_run(raw, rep, profile, stack, iops, ios=1000):
    tag = f"r{rep}.{profile}.{stack}"
    side = {
        "total_ios": ios,
        "iops": iops,
        "bw_bytes": iops * 4096,
        "clat_ns": {"mean": 1000.0, "percentile": {"99.000000": 2000.0}},
    }
    idle = {"total_ios": 0, "iops": 0, "bw_bytes": 0, "clat_ns": {"mean": 0}}
    job = {"read": side, "write": idle, "job_runtime": 1000, "error": 0}
    (raw / f"{tag}.json").write_text(json.dumps({"jobs": [job]}))
    (raw / f"{tag}.rxe-before").write_text("link rxe0/1 sent_pkts 0 rdma_sends 0\n")
    (raw / f"{tag}.rxe-after").write_text(f"link rxe0/1 sent_pkts {7 * ios} rdma_sends {ios}\n")
    (raw / f"{tag}.cpu-before").write_text("cpu 0 0 0 0 0 0 0 0 0 0\n")
    (raw / f"{tag}.cpu-after").write_text("cpu 10 0 10 100 0 0 0 0 0 0\n")


def write_dir(raw, ratios, profile="randread-4k-qd32"):
    raw.mkdir()
    for rep, ratio in enumerate(ratios, 1):
        write_run(raw, rep, profile, "nvme", 1000.0)
        write_run(raw, rep, profile, "rdmablk", 1000.0 * ratio)


class MedianCi(unittest.TestCase):
    def test_too_few_values_give_no_interval(self):
        for n in range(0, 6):
            self.assertIsNone(br.median_ci(list(range(n))), n)

    def test_order_statistics_of_known_sizes(self):
        # n: (k-th smallest, k-th largest), 1-based, from the binomial table.
        known = {6: (1, 6), 8: (1, 8), 9: (2, 8), 12: (3, 10), 17: (5, 13), 20: (6, 15)}
        for n, (lo, hi) in known.items():
            xs = [float(i) for i in range(1, n + 1)]
            self.assertEqual(br.median_ci(list(reversed(xs))), (float(lo), float(hi)), n)

    def test_widest_k_that_keeps_the_level(self):
        for n in range(6, 40):
            xs = list(range(n))
            lo, hi = br.median_ci(xs)
            k = lo + 1
            self.assertEqual(hi, n - k)
            self.assertGreaterEqual(coverage(n, k), br.CI_LEVEL, n)
            if k + 1 <= n // 2:
                self.assertLess(coverage(n, k + 1), br.CI_LEVEL, n)

    def test_verdict(self):
        self.assertEqual(br.verdict((1.01, 1.30)), "ahead")
        self.assertEqual(br.verdict((0.80, 0.99)), "behind")
        self.assertEqual(br.verdict((0.95, 1.10)), "tie")
        self.assertEqual(br.verdict((1.0, 1.2)), "tie")
        self.assertIsNone(br.verdict(None))


def run_report(*dirs):
    """Run the script on @dirs: its stdout and its summary."""
    with tempfile.TemporaryDirectory() as tmp:
        summary = Path(tmp) / "summary.json"
        out = subprocess.run(
            [sys.executable, str(SCRIPT), *map(str, dirs), "--summary", str(summary)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        return out, json.loads(summary.read_text())


class Report(unittest.TestCase):

    def test_three_pairs_have_no_interval(self):
        with tempfile.TemporaryDirectory() as tmp:
            raw = Path(tmp) / "a"
            write_dir(raw, [1.1, 1.2, 1.3])
            out, summary = run_report(raw)
        med = summary["median"]["randread-4k-qd32"]
        self.assertEqual(med["pairs"], 3)
        self.assertIsNone(med["ratio_ci95"])
        self.assertIsNone(med["verdict"])
        row = [line for line in out.splitlines() if line.startswith("| randread-4k-qd32 ")][0]
        cells = [c.strip() for c in row.strip("|").split("|")]
        self.assertEqual(cells[3:6], ["1.20 (1.10-1.30)", "3", "-"])

    def test_pairs_of_two_directories_are_pooled_not_merged(self):
        # Both directories number their repetitions 1..3: pooled, six pairs.
        with tempfile.TemporaryDirectory() as tmp:
            a, b = Path(tmp) / "a", Path(tmp) / "b"
            write_dir(a, [1.10, 1.30, 1.20])
            write_dir(b, [1.05, 1.25, 1.15])
            out, summary = run_report(a, b)
        med = summary["median"]["randread-4k-qd32"]
        self.assertEqual(med["pairs"], 6)
        self.assertAlmostEqual(med["ratio"], 1.175)
        self.assertEqual([round(x, 2) for x in med["ratio_ci95"]], [1.05, 1.30])
        self.assertEqual(med["verdict"], "ahead")
        self.assertEqual(sorted({r["set"] for r in summary["runs"]}), [0, 1])
        self.assertIn("| 6 | 1.05-1.30 ahead |", out)

    def test_scaling_uses_only_directories_with_both_profiles(self):
        # a: one job 1000/1000 IOPS, two jobs 1800/1600; b: one job only, at
        # 3000/3000, which must not dilute a's one-job median.
        with tempfile.TemporaryDirectory() as tmp:
            a, b = Path(tmp) / "a", Path(tmp) / "b"
            write_dir(a, [1.0, 1.0, 1.0])
            for rep in (1, 2, 3):
                write_run(a, rep, "randread-4k-qd32-2j", "rdmablk", 1800.0)
                write_run(a, rep, "randread-4k-qd32-2j", "nvme", 1600.0)
            b.mkdir()
            for rep in (1, 2, 3):
                write_run(b, rep, "randread-4k-qd32", "rdmablk", 3000.0)
                write_run(b, rep, "randread-4k-qd32", "nvme", 3000.0)
            out, summary = run_report(a, b)
        self.assertAlmostEqual(summary["scaling"]["rdmablk"], 1.8)
        self.assertAlmostEqual(summary["scaling"]["nvme"], 1.6)
        self.assertIn("rdmablk 1.80, nvme 1.60", out)

    def test_an_interval_holding_one_is_a_tie(self):
        with tempfile.TemporaryDirectory() as tmp:
            raw = Path(tmp) / "a"
            write_dir(raw, [0.90, 1.20, 1.05, 0.97, 1.10, 1.02, 0.99, 1.08, 1.01])
            out, summary = run_report(raw)
        med = summary["median"]["randread-4k-qd32"]
        self.assertEqual([round(x, 2) for x in med["ratio_ci95"]], [0.97, 1.10])
        self.assertEqual(med["verdict"], "tie")
        self.assertIn("0.97-1.10 tie", out)

    def test_wakeups_per_io_from_full_proc_stat_and_softirqs(self):
        # 1,000 I/Os a run; rdmablk's runs switch 7,000 times and nvme's
        # 8,000; /proc/softirqs' rows summed over the CPUs, by kind.
        with tempfile.TemporaryDirectory() as tmp:
            raw = Path(tmp) / "a"
            write_dir(raw, [1.0, 1.0, 1.0])
            for rep in (1, 2, 3):
                for stack, ctxt in (("rdmablk", 7000), ("nvme", 8000)):
                    tag = raw / f"r{rep}.randread-4k-qd32.{stack}"
                    Path(f"{tag}.cpu-before").write_text(
                        "cpu 0 0 0 0 0 0 0 0 0 0\ncpu0 0 0 0 0 0 0 0 0 0 0\n"
                        "intr 500 0 0\nctxt 100\nbtime 1\n"
                    )
                    Path(f"{tag}.cpu-after").write_text(
                        "cpu 10 0 10 100 0 0 0 0 0 0\ncpu0 10 0 10 100 0 0 0 0 0 0\n"
                        f"intr 2500 7 9\nctxt {100 + ctxt}\nbtime 1\n"
                    )
                    Path(f"{tag}.softirqs-before").write_text(
                        "        CPU0  CPU1\n  TASKLET:  10  20\n  NET_RX:  0  0\n"
                    )
                    Path(f"{tag}.softirqs-after").write_text(
                        "        CPU0  CPU1\n  TASKLET:  2010  2020\n  NET_RX:  0  0\n"
                    )
            out, summary = run_report(raw)
        med = summary["median"]["randread-4k-qd32"]
        self.assertAlmostEqual(med["rdmablk"]["ctxt_per_io"], 7.0)
        self.assertAlmostEqual(med["nvme"]["ctxt_per_io"], 8.0)
        self.assertAlmostEqual(med["rdmablk"]["intr_per_io"], 2.0)
        self.assertAlmostEqual(med["rdmablk"]["softirq_per_io"], 4.0)
        self.assertEqual(summary["runs"][0]["softirqs_per_io"], {"TASKLET": 4.0})
        self.assertIn("| randread-4k-qd32 | 7.00 | 8.00 | 2.00 | 2.00 | 4.00 | 4.00 |", out)

    def test_no_wakeup_table_for_cpu_line_only_results(self):
        with tempfile.TemporaryDirectory() as tmp:
            raw = Path(tmp) / "a"
            write_dir(raw, [1.0, 1.1, 1.2])
            out, summary = run_report(raw)
        self.assertIsNone(summary["median"]["randread-4k-qd32"]["rdmablk"]["ctxt_per_io"])
        self.assertNotIn("ctxt/IO", out)


class Compare(unittest.TestCase):
    # Six repetitions; nvme-rdma's IOPS drift (as the host's speed does)
    # and rdmablk's with them, so that only the same repetition's runs
    # compare the settings.
    NVME = [1000.0, 1400.0, 900.0, 1200.0, 1100.0, 800.0]
    FIRST = [1.20, 1.10, 1.25, 1.15, 1.30, 1.18]
    EFFECT = [1.04, 1.06, 1.02, 1.08, 1.05, 1.03]

    def write(self, raw, params="cmd_cork=0"):
        raw.mkdir()
        for rep, (nv, first, eff) in enumerate(zip(self.NVME, self.FIRST, self.EFFECT), 1):
            write_run(raw, rep, "randread-4k-qd32", "nvme", nv)
            write_run(raw, rep, "randread-4k-qd32", "rdmablk", nv * first)
            write_run(raw, rep, "randread-4k-qd32", "rdmablk-b", nv * first * eff)
        if params is not None:
            (raw / "env.txt").write_text(f"runtime 20\nrdmablk_compare_params {params}\n")

    def test_settings_compared_within_each_repetition(self):
        with tempfile.TemporaryDirectory() as tmp:
            raw = Path(tmp) / "a"
            self.write(raw)
            out, summary = run_report(raw)
        cmp = summary["compare"]
        self.assertEqual(cmp["params"], "cmd_cork=0")
        eff = cmp["median"]["randread-4k-qd32"]["effect"]
        self.assertEqual(eff["pairs"], 6)
        self.assertAlmostEqual(eff["ratio"], 1.045)
        self.assertEqual([round(x, 2) for x in eff["ratio_ci95"]], [1.02, 1.08])
        self.assertEqual(eff["verdict"], "ahead")
        second = cmp["median"]["randread-4k-qd32"]
        self.assertAlmostEqual(
            second["ratio"], statistics.median(f * e for f, e in zip(self.FIRST, self.EFFECT))
        )
        self.assertIn("rdmablk-b: rdmablk with cmd_cork=0", out)
        row = [line for line in out.splitlines() if line.startswith("| randread-4k-qd32 ")][1]
        cells = [c.strip() for c in row.strip("|").split("|")]
        self.assertEqual(cells[3:6], ["1.04 (1.02-1.08)", "6", "1.02-1.08 ahead"])

    def test_first_table_is_the_first_setting_against_nvme(self):
        with tempfile.TemporaryDirectory() as tmp:
            raw = Path(tmp) / "a"
            self.write(raw)
            _, summary = run_report(raw)
        med = summary["median"]["randread-4k-qd32"]
        self.assertEqual(med["pairs"], 6)
        self.assertAlmostEqual(med["ratio"], (1.18 + 1.20) / 2)
        self.assertAlmostEqual(
            med["rdmablk"]["iops"], statistics.median(n * f for n, f in zip(self.NVME, self.FIRST))
        )

    def test_no_second_table_without_second_setting(self):
        with tempfile.TemporaryDirectory() as tmp:
            raw = Path(tmp) / "a"
            write_dir(raw, [1.1, 1.2, 1.3])
            out, summary = run_report(raw)
        self.assertNotIn("compare", summary)
        self.assertNotIn("rdmablk-b", out)

    def test_params_unknown_without_env(self):
        with tempfile.TemporaryDirectory() as tmp:
            raw = Path(tmp) / "a"
            self.write(raw, params=None)
            out, _ = run_report(raw)
        self.assertIn("rdmablk-b: rdmablk with the --compare parameters", out)


if __name__ == "__main__":
    unittest.main()
