#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the raw output of scripts/bench-guest.sh into the comparison table.

Usage: scripts/bench-report.py RAW_DIR [RAW_DIR...] [--table FILE] [--summary FILE]

Several RAW_DIRs (runs of the same code and settings, e.g. one bench after
another) are reported as one: their pairs are pooled.

A bench run with --compare measured rdmablk in a second setting in every
repetition (runs named rdmablk-b, nvme-rdma's run between the two). The
first table is then the first setting against nvme-rdma, as always, and a
second one compares the settings: per repetition, rdmablk-b's IOPS over
rdmablk's, with the median, range, interval and verdict of those ratios.

Each pair (the two stacks' runs of a profile in one repetition, back to back)
gives a ratio, rdmablk's IOPS over nvme-rdma's. The table gives their median,
their range, and, from six pairs on, a 95% confidence interval for the median
that assumes nothing about the noise's distribution (the order statistics a
binomial with p = 1/2 puts there). Its verdict: "ahead" when the whole
interval is above 1.0, "behind" when below, "tie" when it holds 1.0.

A RAW_DIR holds, per run, rR.PROFILE.STACK.json (fio JSON),
rR.PROFILE.STACK.rxe-before / .rxe-after (`rdma statistic show link` of both
rxe ports), rR.PROFILE.STACK.cpu-before / .cpu-after (the guest's /proc/stat;
older results have its "cpu" line only, or none: their CPU figure is None)
and rR.PROFILE.STACK.softirqs-before / .softirqs-after (/proc/softirqs).
Prints the markdown table on stdout, followed by the 2 jobs / 1 job scaling
when both profiles were measured, and by the context switches, interrupts and
softirqs per I/O of both stacks (where CPU per I/O differs: whether the
difference is in more wake-ups or in the work between them); --table also
writes it to a file, --summary writes every run's figures and the medians as
JSON.
"""

import argparse
import json
import math
import re
import statistics
import sys
from pathlib import Path

PROFILE_ORDER = [
    "randread-4k-qd1",
    "randwrite-4k-qd1",
    "randread-4k-qd8",
    "randread-4k-qd32",
    "randread-4k-qd32-2j",
    "randwrite-4k-qd32",
    "randrw-4k-qd32-2j",
    "randread-8k-qd16",
    "randread-16k-qd16",
    "read-128k-qd16",
    "write-128k-qd16",
    "randread-4k-qd1-uring",
    "randread-4k-qd1-polled",
    "randread-4k-qd32-batch16",
]
STACKS = ("rdmablk", "nvme")
# The second rdmablk setting of a bench run with --compare.
SECOND = "rdmablk-b"
# (one job, two jobs): the same load from one fio job and from two.
SCALING = ("randread-4k-qd32", "randread-4k-qd32-2j")
# The guest runs Debian's kernel, whose /proc/stat counts in USER_HZ = 100
# ticks a second. os.sysconf("SC_CLK_TCK") would be this host's value, not
# necessarily the guest's.
USER_HZ = 100
# Confidence of the interval given for a median ratio.
CI_LEVEL = 0.95
RUN_RE = re.compile(r"^r(\d+)\.([A-Za-z0-9-]+)\.(rdmablk|rdmablk-b|nvme)\.json$")


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
    # A mixed job (randrw) counts reads and writes together: ios, IOPS and
    # bandwidth are summed, the mean latency is the mean of both weighted by
    # their ios, and the p99 is the larger of the two p99s (fio reports no
    # percentiles over both; the larger one bounds the combined p99 from above).
    ios = iops = bw = 0.0
    means = []
    clat_p99 = None
    for d in ("read", "write"):
        s = job[d]
        if s["total_ios"] == 0:
            continue
        ios += s["total_ios"]
        iops += s["iops"]
        bw += s["bw_bytes"]
        means.append((s["total_ios"], s["clat_ns"]["mean"] / 1000.0))
        p99 = s["clat_ns"]["percentile"]["99.000000"] / 1000.0
        clat_p99 = p99 if clat_p99 is None else max(clat_p99, p99)
    if not means:
        die(f"{path}: no I/O completed")
    if len(means) == 1:
        clat_mean = means[0][1]
    else:
        clat_mean = sum(n * m for n, m in means) / ios
    return {
        "ios": int(ios),
        "iops": iops,
        "mbps": bw / 1e6,
        "clat_mean_us": clat_mean,
        "clat_p99_us": clat_p99,
        # Summed over the jobs under --group_reporting.
        "runtime_ms": job["job_runtime"],
    }


def busy_jiffies(path):
    """Busy ticks of a /proc/stat "cpu" line: user, nice, system, irq,
    softirq and steal; idle and iowait are not busy."""
    tok = path.read_text().split()
    if len(tok) < 9 or tok[0] != "cpu":
        die(f"{path}: not a /proc/stat cpu line")
    try:
        return sum(int(tok[i]) for i in (1, 2, 3, 6, 7, 8))
    except ValueError:
        die(f"{path}: not a /proc/stat cpu line")


def stat_counters(path):
    """{name: count} of a copy of /proc/stat's "ctxt" and "intr" lines (of
    "intr" its first figure, all interrupts); neither where the file holds
    the "cpu" line only (older results)."""
    out = {}
    for line in path.read_text().splitlines():
        tok = line.split()
        if len(tok) >= 2 and tok[0] in ("ctxt", "intr"):
            out[tok[0]] = int(tok[1])
    return out


def softirq_counts(path):
    """{kind: count over every CPU} from a copy of /proc/softirqs."""
    out = {}
    for line in path.read_text().splitlines()[1:]:
        tok = line.split()
        if tok and tok[0].endswith(":"):
            out[tok[0][:-1]] = sum(int(t) for t in tok[1:])
    return out


def sched_per_io(raw, tag, ios):
    """Context switches, interrupts and softirqs (all, and by kind) per I/O
    in the whole guest during a run; None for results without them."""
    before, after = raw / f"{tag}.cpu-before", raw / f"{tag}.cpu-after"
    out = {"ctxt_per_io": None, "intr_per_io": None, "softirq_per_io": None,
           "softirqs_per_io": None}
    if not before.exists() or not after.exists() or not ios:
        return out
    a, b = stat_counters(before), stat_counters(after)
    for name in ("ctxt", "intr"):
        if name in a and name in b:
            out[f"{name}_per_io"] = (b[name] - a[name]) / ios
    sb, sa = raw / f"{tag}.softirqs-before", raw / f"{tag}.softirqs-after"
    if sb.exists() and sa.exists():
        a, b = softirq_counts(sb), softirq_counts(sa)
        kinds = {k: (b[k] - a.get(k, 0)) / ios for k in b}
        out["softirqs_per_io"] = {k: v for k, v in kinds.items() if v}
        out["softirq_per_io"] = sum(kinds.values())
    return out


def cpu_busy_us(raw, tag):
    """CPU time the whole guest was busy during a run, in µs; None for
    results without the .cpu files."""
    before, after = raw / f"{tag}.cpu-before", raw / f"{tag}.cpu-after"
    if not before.exists() or not after.exists():
        return None
    return (busy_jiffies(after) - busy_jiffies(before)) * 1e6 / USER_HZ


def collect(raw, run_set=0):
    """Every run in @raw; @run_set tells the pairs of one RAW_DIR from
    those of another."""
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
        # Initiator and target of both stacks run in the one guest, so this
        # is the whole guest's CPU time per I/O (fio's own included), not
        # the initiator's alone.
        fig["cpu_busy_us"] = cpu_busy_us(raw, tag)
        fig["cpu_us_per_io"] = (
            None if fig["cpu_busy_us"] is None else fig["cpu_busy_us"] / fig["ios"]
        )
        fig.update(sched_per_io(raw, tag, fig["ios"]))
        runs.append(
            {"set": run_set, "repeat": rep, "profile": profile, "stack": stack, **fig}
        )
    if not runs:
        die(f"no fio results in {raw}")
    return runs


def median_of(values):
    """Median of the values that are not None; None if none is."""
    vals = [v for v in values if v is not None]
    return statistics.median(vals) if vals else None


def median_ci(values, level=CI_LEVEL):
    """A distribution-free confidence interval for the median of @values:
    the k-th smallest and the k-th largest, k as large as keeps the chance
    that the median lies between them at @level or more. That chance is
    1 - 2 P(B <= k - 1), B ~ Binomial(n, 1/2), whatever the distribution.
    None when even the smallest and the largest fall short (fewer than six
    values for 95%)."""
    xs = sorted(values)
    n = len(xs)
    best = None
    tail = 0.0
    for k in range(1, n // 2 + 1):
        tail += math.comb(n, k - 1) / 2**n
        if 1 - 2 * tail < level:
            break
        best = (xs[k - 1], xs[n - k])
    return best


def verdict(ci):
    """"ahead", "behind" or "tie" for a ratio's interval @ci; None without one."""
    if ci is None:
        return None
    lo, hi = ci
    if lo > 1.0:
        return "ahead"
    if hi < 1.0:
        return "behind"
    return "tie"


KEYS = (
    "iops",
    "mbps",
    "clat_mean_us",
    "clat_p99_us",
    "pkts_per_io",
    "sends_per_io",
    "cpu_us_per_io",
    "ctxt_per_io",
    "intr_per_io",
    "softirq_per_io",
)


def profiles_of(runs):
    return sorted(
        {r["profile"] for r in runs},
        key=lambda p: (PROFILE_ORDER.index(p) if p in PROFILE_ORDER else len(PROFILE_ORDER), p),
    )


def stack_medians(runs, profile, stack):
    sel = [r for r in runs if r["profile"] == profile and r["stack"] == stack]
    if not sel:
        die(f"no {stack} run for {profile}")
    out = {k: median_of(r[k] for r in sel) for k in KEYS}
    out["runs"] = len(sel)
    return out


def ratios(runs, profile, num, den):
    """Summary of the per-repetition ratios of @num's IOPS over @den's: the
    runs of one repetition ran back to back (a pair, or with --compare the
    two settings with nvme-rdma between them)."""
    pairs = []
    for key in sorted({(r["set"], r["repeat"]) for r in runs if r["profile"] == profile}):
        by = {
            r["stack"]: r
            for r in runs
            if r["profile"] == profile and (r["set"], r["repeat"]) == key
        }
        if num in by and den in by and by[den]["iops"] > 0:
            pairs.append(by[num]["iops"] / by[den]["iops"])
    if not pairs:
        die(f"no pair of {num} and {den} runs for {profile}")
    ci = median_ci(pairs)
    return {
        "pairs": len(pairs),
        "ratio": statistics.median(pairs),
        "ratio_min": min(pairs),
        "ratio_max": max(pairs),
        "ratio_ci95": list(ci) if ci else None,
        "verdict": verdict(ci),
    }


def medians(runs):
    out = {}
    for p in profiles_of(runs):
        out[p] = {s: stack_medians(runs, p, s) for s in STACKS}
        out[p].update(ratios(runs, p, "rdmablk", "nvme"))
    return out


def compare_medians(runs):
    """Per profile measured in both settings: the second setting's medians,
    its ratio to nvme-rdma, and its ratio to the first (under "effect")."""
    out = {}
    for p in profiles_of(runs):
        if not any(r["profile"] == p and r["stack"] == SECOND for r in runs):
            continue
        out[p] = {SECOND: stack_medians(runs, p, SECOND)}
        out[p].update(ratios(runs, p, SECOND, "nvme"))
        out[p]["effect"] = ratios(runs, p, SECOND, "rdmablk")
    return out


def scaling(runs):
    """Per stack, the median IOPS with two jobs over that with one, from
    the result directories that measured both; None if none did."""
    one, two = SCALING
    sets = {r["set"] for r in runs if r["profile"] == one} & {
        r["set"] for r in runs if r["profile"] == two
    }
    if not sets:
        return None
    out = {"one_job": one, "two_jobs": two}
    for s in STACKS:
        iops = {
            p: median_of(
                r["iops"] for r in runs if r["set"] in sets and r["profile"] == p and r["stack"] == s
            )
            for p in SCALING
        }
        out[s] = iops[two] / iops[one] if iops[one] else None
    return out


def scaling_line(sc):
    figs = ", ".join(
        f"{s} {'-' if sc[s] is None else format(sc[s], '.2f')}" for s in STACKS
    )
    return f"2 jobs / 1 job ({sc['one_job']}): {figs}\n"


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


def cpu_fmt(v):
    # A decimal where whole µs would lose most of the figure.
    if v is None:
        return "-"
    return f"{v:,.0f}" if v >= 100 else f"{v:.1f}"


def ci_fmt(m):
    if m["ratio_ci95"] is None:
        return "-"
    lo, hi = m["ratio_ci95"]
    return f"{lo:.2f}-{hi:.2f} {m['verdict']}"


def ratio_fmt(m):
    ratio = f"{m['ratio']:.2f}"
    if m["ratio_max"] - m["ratio_min"] > 0:
        ratio += f" ({m['ratio_min']:.2f}-{m['ratio_max']:.2f})"
    return ratio


def markdown(head, rows):
    right = [False] + [True] * (len(head) - 1)
    lines = ["| " + " | ".join(head) + " |"]
    lines.append("|" + "|".join("---:" if r else "---" for r in right) + "|")
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def table(med):
    head = [
        "profile",
        "rdmablk IOPS",
        "nvme-rdma IOPS",
        "ratio",
        "pairs",
        "95% CI of the ratio",
        "rdmablk MB/s",
        "nvme MB/s",
        "rdmablk mean/p99 µs",
        "nvme mean/p99 µs",
        "pkts/IO rdmablk",
        "pkts/IO nvme",
        "CPU µs/IO rdmablk",
        "CPU µs/IO nvme",
    ]
    rows = []
    for p, m in med.items():
        a, b = m["rdmablk"], m["nvme"]
        rows.append(
            [
                p,
                iops_fmt(a["iops"]),
                iops_fmt(b["iops"]),
                ratio_fmt(m),
                str(m["pairs"]),
                ci_fmt(m),
                f"{a['mbps']:.1f}",
                f"{b['mbps']:.1f}",
                lat_fmt(a),
                lat_fmt(b),
                f"{a['pkts_per_io']:.1f}",
                f"{b['pkts_per_io']:.1f}",
                cpu_fmt(a["cpu_us_per_io"]),
                cpu_fmt(b["cpu_us_per_io"]),
            ]
        )
    return markdown(head, rows)


def per_io_fmt(v):
    return "-" if v is None else f"{v:.2f}"


def sched_table(med):
    """What the guest's scheduler saw per I/O, both stacks: where CPU time
    per I/O differs, whether it went to more switches and wake-ups."""
    if all(m[s]["ctxt_per_io"] is None for m in med.values() for s in STACKS):
        return ""
    head = ["profile"] + [
        f"{what} {s}"
        for what in ("ctxt/IO", "intr/IO", "softirq/IO")
        for s in STACKS
    ]
    rows = []
    for p, m in med.items():
        rows.append(
            [p]
            + [
                per_io_fmt(m[s][k])
                for k in ("ctxt_per_io", "intr_per_io", "softirq_per_io")
                for s in STACKS
            ]
        )
    return markdown(head, rows)


def compare_table(med, cmp, params):
    """The two settings side by side; @params names the second."""
    head = [
        "profile",
        "rdmablk IOPS",
        "rdmablk-b IOPS",
        "rdmablk-b / rdmablk",
        "pairs",
        "95% CI",
        "ratio to nvme-rdma, rdmablk / rdmablk-b",
        "CPU µs/IO rdmablk / rdmablk-b",
        "pkts/IO rdmablk / rdmablk-b",
    ]
    rows = []
    for p, c in cmp.items():
        a, b = med[p]["rdmablk"], c[SECOND]
        rows.append(
            [
                p,
                iops_fmt(a["iops"]),
                iops_fmt(b["iops"]),
                ratio_fmt(c["effect"]),
                str(c["effect"]["pairs"]),
                ci_fmt(c["effect"]),
                f"{med[p]['ratio']:.2f} / {c['ratio']:.2f}",
                f"{cpu_fmt(a['cpu_us_per_io'])} / {cpu_fmt(b['cpu_us_per_io'])}",
                f"{a['pkts_per_io']:.1f} / {b['pkts_per_io']:.1f}",
            ]
        )
    return f"rdmablk-b: rdmablk with {params}\n\n" + markdown(head, rows)


def compare_params(raws):
    """The second setting's parameters, as the first RAW_DIR whose env.txt
    names them has them; "the --compare parameters" when none does."""
    for raw in raws:
        try:
            for line in (raw / "env.txt").read_text().splitlines():
                if line.startswith("rdmablk_compare_params "):
                    return line.split(" ", 1)[1].strip()
        except OSError:
            pass
    return "the --compare parameters"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raw", type=Path, nargs="+")
    ap.add_argument("--table", type=Path)
    ap.add_argument("--summary", type=Path)
    args = ap.parse_args()
    runs = []
    for i, raw in enumerate(args.raw):
        if not raw.is_dir():
            die(f"{raw} is not a directory")
        runs += collect(raw, i)
    med = medians(runs)
    cmp = compare_medians(runs)
    sc = scaling(runs)
    text = table(med)
    if sc:
        # A blank line ends the markdown table.
        text += "\n" + scaling_line(sc)
    sched = sched_table(med)
    if sched:
        text += "\nContext switches, interrupts and softirqs per I/O (whole guest):\n\n" + sched
    params = compare_params(args.raw) if cmp else None
    if cmp:
        text += "\n" + compare_table(med, cmp, params)
    sys.stdout.write(text)
    if args.table:
        args.table.write_text(text)
    if args.summary:
        summary = {
            "runs": runs,
            "median": med,
            "idle_sent_pkts_per_s": idle_rate(args.raw[0]),
        }
        if sc:
            summary["scaling"] = sc
        if cmp:
            summary["compare"] = {"params": params, "median": cmp}
        args.summary.write_text(json.dumps(summary, indent=2) + "\n")


if __name__ == "__main__":
    main()
