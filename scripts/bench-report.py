#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the raw output of scripts/bench-guest.sh into the comparison table.

Usage: scripts/bench-report.py RAW_DIR [--table FILE] [--summary FILE]

RAW_DIR holds, per run, rR.PROFILE.STACK.json (fio JSON) and
rR.PROFILE.STACK.rxe-before / .rxe-after (`rdma statistic show link` of both
rxe ports). Prints the markdown table on stdout; --table also writes it to a
file, --summary writes every run's figures and the medians as JSON.
"""

import argparse
import json
import re
import statistics
import sys
from pathlib import Path

PROFILE_ORDER = [
    "randread-4k-qd1",
    "randread-4k-qd32",
    "randwrite-4k-qd32",
    "read-128k-qd16",
    "write-128k-qd16",
    "randread-4k-qd1-uring",
    "randread-4k-qd1-polled",
    "randread-4k-qd32-batch16",
]
STACKS = ("rdmablk", "nvme")
RUN_RE = re.compile(r"^r(\d+)\.([A-Za-z0-9-]+)\.(rdmablk|nvme)\.json$")


def die(msg):
    print(f"bench-report: {msg}", file=sys.stderr)
    sys.exit(1)


def read_counters(path):
    """{port: {counter: value}} from `rdma statistic show link` lines."""
    ports = {}
    for line in path.read_text().splitlines():
        tok = line.split()
        if len(tok) < 2 or tok[0] != "link":
            continue
        vals = {}
        for name, value in zip(tok[2::2], tok[3::2]):
            if value.isdigit():
                vals[name] = int(value)
        ports[tok[1]] = vals
    if not ports:
        die(f"{path}: no counters")
    return ports


def counter_delta(before, after, name):
    total = 0
    for port, vals in after.items():
        if name not in vals or name not in before.get(port, {}):
            die(f"counter {name} missing for {port}")
        total += vals[name] - before[port][name]
    return total


def fio_figures(path):
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        die(f"{path}: {e}")
    jobs = data.get("jobs") or []
    if len(jobs) != 1:
        die(f"{path}: expected one fio job, found {len(jobs)}")
    job = jobs[0]
    if job.get("error"):
        die(f"{path}: fio reported error {job['error']}")
    ios = iops = bw = 0.0
    clat_mean = clat_p99 = None
    for d in ("read", "write"):
        s = job[d]
        if s["total_ios"] == 0:
            continue
        if clat_mean is not None:
            die(f"{path}: both reads and writes; mixed profiles are not supported")
        ios += s["total_ios"]
        iops += s["iops"]
        bw += s["bw_bytes"]
        clat_mean = s["clat_ns"]["mean"] / 1000.0
        clat_p99 = s["clat_ns"]["percentile"]["99.000000"] / 1000.0
    if clat_mean is None:
        die(f"{path}: no I/O completed")
    return {
        "ios": int(ios),
        "iops": iops,
        "mbps": bw / 1e6,
        "clat_mean_us": clat_mean,
        "clat_p99_us": clat_p99,
        "runtime_ms": job["job_runtime"],
    }


def collect(raw):
    runs = []
    for f in sorted(raw.iterdir()):
        m = RUN_RE.match(f.name)
        if not m:
            continue
        rep, profile, stack = int(m.group(1)), m.group(2), m.group(3)
        tag = f.name[: -len(".json")]
        fig = fio_figures(f)
        before = read_counters(raw / f"{tag}.rxe-before")
        after = read_counters(raw / f"{tag}.rxe-after")
        for c in ("sent_pkts", "rdma_sends"):
            fig[c] = counter_delta(before, after, c)
        fig["pkts_per_io"] = fig["sent_pkts"] / fig["ios"]
        fig["sends_per_io"] = fig["rdma_sends"] / fig["ios"]
        fig["sent_pkts_by_port"] = {
            p: after[p]["sent_pkts"] - before[p]["sent_pkts"] for p in after
        }
        runs.append({"repeat": rep, "profile": profile, "stack": stack, **fig})
    if not runs:
        die(f"no fio results in {raw}")
    return runs


def medians(runs):
    keys = ("iops", "mbps", "clat_mean_us", "clat_p99_us", "pkts_per_io", "sends_per_io")
    profiles = sorted(
        {r["profile"] for r in runs},
        key=lambda p: (PROFILE_ORDER.index(p) if p in PROFILE_ORDER else len(PROFILE_ORDER), p),
    )
    out = {}
    for p in profiles:
        out[p] = {}
        for s in STACKS:
            sel = [r for r in runs if r["profile"] == p and r["stack"] == s]
            if not sel:
                die(f"no {s} run for {p}")
            out[p][s] = {k: statistics.median(r[k] for r in sel) for k in keys}
            out[p][s]["runs"] = len(sel)
        # Median of the per-repetition ratios: each pair ran back to back.
        pairs = []
        for rep in sorted({r["repeat"] for r in runs if r["profile"] == p}):
            a = [r for r in runs if r["profile"] == p and r["repeat"] == rep]
            by = {r["stack"]: r for r in a}
            if len(by) == 2 and by["nvme"]["iops"] > 0:
                pairs.append(by["rdmablk"]["iops"] / by["nvme"]["iops"])
        out[p]["ratio"] = statistics.median(pairs)
        out[p]["ratio_min"] = min(pairs)
        out[p]["ratio_max"] = max(pairs)
    return out


def idle_rate(raw):
    try:
        secs = float((raw / "idle.seconds").read_text())
        before = read_counters(raw / "idle.rxe-before")
        after = read_counters(raw / "idle.rxe-after")
    except OSError:
        return None
    return counter_delta(before, after, "sent_pkts") / secs


def iops_fmt(v):
    return f"{v:,.0f}"


def lat_fmt(m):
    return f"{m['clat_mean_us']:,.0f} / {m['clat_p99_us']:,.0f}"


def table(med):
    head = [
        "profile",
        "rdmablk IOPS",
        "nvme-rdma IOPS",
        "ratio",
        "rdmablk MB/s",
        "nvme MB/s",
        "rdmablk mean/p99 µs",
        "nvme mean/p99 µs",
        "pkts/IO rdmablk",
        "pkts/IO nvme",
    ]
    rows = []
    for p, m in med.items():
        a, b = m["rdmablk"], m["nvme"]
        ratio = f"{m['ratio']:.2f}"
        if m["ratio_max"] - m["ratio_min"] > 0:
            ratio += f" ({m['ratio_min']:.2f}-{m['ratio_max']:.2f})"
        rows.append(
            [
                p,
                iops_fmt(a["iops"]),
                iops_fmt(b["iops"]),
                ratio,
                f"{a['mbps']:.1f}",
                f"{b['mbps']:.1f}",
                lat_fmt(a),
                lat_fmt(b),
                f"{a['pkts_per_io']:.1f}",
                f"{b['pkts_per_io']:.1f}",
            ]
        )
    right = [False] + [True] * (len(head) - 1)
    lines = ["| " + " | ".join(head) + " |"]
    lines.append("|" + "|".join("---:" if r else "---" for r in right) + "|")
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raw", type=Path)
    ap.add_argument("--table", type=Path)
    ap.add_argument("--summary", type=Path)
    args = ap.parse_args()
    if not args.raw.is_dir():
        die(f"{args.raw} is not a directory")
    runs = collect(args.raw)
    med = medians(runs)
    text = table(med)
    sys.stdout.write(text)
    if args.table:
        args.table.write_text(text)
    if args.summary:
        summary = {"runs": runs, "median": med, "idle_sent_pkts_per_s": idle_rate(args.raw)}
        args.summary.write_text(json.dumps(summary, indent=2) + "\n")


if __name__ == "__main__":
    main()
