#!/usr/bin/env python3
"""Reproduces Tables 2 and 3 of ICS'24 ("Accelerated Auto-Tuning of GPU
Kernels for Tensor Computations") with tessel-tune: the four variants
(Ansor, Ansor-AF, Ansor-DS, Ansor-AF-DS; docs/Dgd.md) x seeds over the 30
operators of manifest.csv.

  reproduce.py run    [--seeds 1 2 3] [--variants ...] [--shapes ...] [-j N]
  reproduce.py report [--out DIR]

`run` calls, per shape, variant and seed (skipping runs whose report
exists, so it resumes):

  tessel-tune SHAPE.mlir --measure=sim:h100 --sim-fidelity=analytic
      --sim-trial-seconds=0.6 --strategy=... --features=... (VARIANT_FLAGS)
      --trials=1000 --seed=S
      --db=OUT/db/SHAPE-V-S.db --report=OUT/reports/SHAPE-V-S.json --quiet

Under the simulator (SIMULATED: a model of the H100, not measurements)
candidates are timed analytically; elapsed time is the real search time
plus a virtual 0.6 s per measured candidate (docs/Tuning.md).

`report` reads every records database, takes per run the best performance
(flops / median time of an ok measurement) by elapsed_s <= 60 and <= 120,
within the first 250 trials and within 1000 trials, averages each over the
seeds (the paper reports the mean of 3 runs) and prints, per group
(Matmul, Resnet, Yolo):

- Table 2: the geometric mean over the group's shapes of each variant's
  performance at 1 min, 2 min, 250 trials and 1000 trials relative to Ansor
  (evolutionary) at 1000 trials; and the number of shapes within 5% of it
  (ratio >= 0.95) out of the shapes with data;
- Table 3: the geometric mean of the run-to-run variability
  (max - min) / max over seeds (Eq. 1), for every variant at 2 min and
  1000 trials (shapes with at least 2 seeds; a variability of 0 counts as
  1e-4 so that the geometric mean is defined).
"""

import argparse
import concurrent.futures
import csv
import glob
import json
import math
import os
import sqlite3
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
VARIANTS = ["ansor", "ansor-af", "ansor-ds", "ansor-af-ds"]
NAMES = {"ansor": "Ansor", "ansor-af": "Ansor-AF", "ansor-ds": "Ansor-DS",
         "ansor-af-ds": "Ansor-AF-DS"}
GROUPS = [("Matmul", "M"), ("Resnet", "R"), ("Yolo", "Y")]
BUDGETS = [("1Min", "time", 60), ("2Min", "time", 120),
           ("250", "trials", 250), ("1000", "trials", 1000)]


def manifest():
    with open(os.path.join(HERE, "manifest.csv")) as f:
        return list(csv.DictReader(f))


# ICS'24's variants: a strategy and a feature set.
VARIANT_FLAGS = {
    "ansor": ["--strategy=evolutionary", "--features=ansor"],
    "ansor-af": ["--strategy=evolutionary", "--features=af"],
    "ansor-ds": ["--strategy=dgd", "--features=ansor"],
    "ansor-af-ds": ["--strategy=dgd", "--features=af"],
}


def command(tool, shape, variant, seed, out, trials, trial_seconds):
    tag = f"{shape['name']}-{variant}-{seed}"
    return tag, [
        tool, os.path.join(HERE, shape["file"]), "--measure=sim:h100",
        "--sim-fidelity=analytic", f"--sim-trial-seconds={trial_seconds}",
        *VARIANT_FLAGS[variant], f"--trials={trials}", f"--seed={seed}",
        f"--db={out}/db/{tag}.db", f"--report={out}/reports/{tag}.json",
        "--quiet", "-j=1"]


def run(args):
    os.makedirs(f"{args.out}/db", exist_ok=True)
    os.makedirs(f"{args.out}/reports", exist_ok=True)
    os.makedirs(f"{args.out}/logs", exist_ok=True)
    # In the order of --shapes when given (most wanted first).
    by_name = {s["name"]: s for s in manifest()}
    unknown = [name for name in args.shapes if name not in by_name]
    if unknown:
        sys.exit(f"unknown shapes: {' '.join(unknown)}")
    shapes = [by_name[name] for name in args.shapes] or manifest()
    jobs = []
    for seed in args.seeds:
        for shape in shapes:
            for variant in args.variants:
                trials = args.trials
                if variant.endswith("-ds") and args.dgd_trials:
                    trials = args.dgd_trials
                tag, cmd = command(args.tool, shape, variant, seed, args.out,
                                   trials, args.trial_seconds)
                if os.path.exists(f"{args.out}/reports/{tag}.json"):
                    continue
                jobs.append((tag, cmd))
    print(f"{len(jobs)} runs to do", flush=True)

    def one(job):
        tag, cmd = job
        for suffix in ("", "-wal", "-shm"):
            path = f"{args.out}/db/{tag}.db{suffix}"
            if os.path.exists(path):
                os.remove(path)
        start = time.time()
        with open(f"{args.out}/logs/{tag}.log", "w") as log:
            log.write(" ".join(cmd) + "\n")
            log.flush()
            rc = subprocess.call(cmd, stdout=log, stderr=subprocess.STDOUT)
        return tag, rc, time.time() - start

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for tag, rc, seconds in pool.map(one, jobs):
            print(f"{tag}: rc {rc}, {seconds:.0f} s wall", flush=True)


def best_curves(db):
    """Best GFLOP/s by elapsed time and by trial of the run in `db`."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    flops = con.execute("select flops from tasks").fetchone()[0]
    rows = con.execute(
        "select trial, elapsed_s, status, median_us from measurements "
        "where trial > 0 order by id").fetchall()
    con.close()
    points = []
    for trial, elapsed, status, median in rows:
        gflops = flops / median / 1e3 if status == "ok" and median else 0.0
        points.append((trial, elapsed, gflops))
    return points


def best_at(points, kind, limit):
    """Best GFLOP/s within the budget; None when the run stopped short of
    it (fewer trials, or less elapsed time, than the budget)."""
    if not points:
        return None
    reached = points[-1][0] if kind == "trials" else points[-1][1]
    if reached < limit:
        return None
    best = 0.0
    for trial, elapsed, gflops in points:
        if (trial if kind == "trials" else elapsed) <= limit:
            best = max(best, gflops)
    return best


def geomean(values):
    values = [v for v in values if v > 0]
    if not values:
        return float("nan")
    return math.exp(sum(math.log(v) for v in values) / len(values))


def report(args):
    shapes = [s["name"] for s in manifest()]
    # perf[variant][shape][budget] = [per seed]
    perf = {v: {} for v in VARIANTS}
    trials_done = {}
    for db in sorted(glob.glob(f"{args.out}/db/*.db")):
        tag = os.path.basename(db)[:-3]
        report_file = f"{args.out}/reports/{tag}.json"
        if not os.path.exists(report_file):
            continue  # unfinished
        shape, rest = tag.split("-", 1)
        variant, seed = rest.rsplit("-", 1)
        points = best_curves(db)
        trials_done[tag] = len(points)
        for label, kind, limit in BUDGETS:
            best = best_at(points, kind, limit)
            if best is not None:
                perf[variant].setdefault(shape, {}).setdefault(label, []).append(
                    best)
    mean = lambda xs: sum(xs) / len(xs)
    base = {s: mean(perf["ansor"][s]["1000"]) for s in perf["ansor"]
            if perf["ansor"][s].get("1000")}
    runs = len(trials_done)
    print("SIMULATED (sim:h100-sxm, analytic fidelity, 0.6 s virtual per "
          "trial): a model of the H100, not measurements.")
    print(f"{runs} finished runs from {args.out}; seeds per (shape, variant) "
          "in the tables below.\n")
    print("Table 2: geomean of best performance relative to Ansor at 1000 "
          "trials (count within 5% / shapes)")
    header = f"{'Type':8} {'variant':12} " + " ".join(
        f"{label:>13}" for label, _, _ in BUDGETS) + "  seeds"
    print(header)
    for group, prefix in GROUPS:
        members = [s for s in shapes if s.startswith(prefix) and s in base]
        for variant in VARIANTS:
            cells = []
            seeds = set()
            for label, _, _ in BUDGETS:
                ratios = []
                for s in members:
                    values = perf[variant].get(s, {}).get(label)
                    if values:
                        ratios.append(mean(values) / base[s])
                        seeds.add(len(values))
                if ratios:
                    within = sum(r >= 0.95 for r in ratios)
                    cells.append(f"{geomean(ratios):5.2f} {within:3d}/{len(ratios):<3d}")
                else:
                    cells.append(f"{'-':>13}")
            print(f"{group:8} {NAMES[variant]:12} " + " ".join(
                f"{c:>13}" for c in cells) + "  " +
                ",".join(map(str, sorted(seeds))))
    print("\nTable 3: geomean over shapes of run-to-run variability "
          "(max - min) / max across seeds")
    print(f"{'Type':8} {'variant':12} {'2Min':>8} {'1000':>8}  shapes")
    for group, prefix in GROUPS:
        for variant in VARIANTS:
            row = []
            count = 0
            for label in ("2Min", "1000"):
                variability = []
                for s in shapes:
                    values = perf[variant].get(s, {}).get(label)
                    if s.startswith(prefix) and values and len(values) >= 2:
                        top = max(values)
                        variability.append(
                            max((top - min(values)) / top, 1e-4) if top > 0 else 1.0)
                count = len(variability)
                row.append(f"{geomean(variability):8.3f}" if variability else f"{'-':>8}")
            print(f"{group:8} {NAMES[variant]:12} {row[0]} {row[1]}  {count}")
    print("\nPer shape: mean best GFLOP/s (1Min / 2Min / 250 / 1000 trials)")
    for s in shapes:
        parts = []
        for variant in VARIANTS:
            d = perf[variant].get(s)
            if d:
                parts.append(f"{NAMES[variant]} " + "/".join(
                    f"{mean(d[label]):.0f}" if d.get(label) else "-"
                    for label, _, _ in BUDGETS))
        if parts:
            print(f"{s:4} " + "; ".join(parts))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=["run", "report"])
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "ics24"))
    parser.add_argument("--tool", default=os.path.join(ROOT, "build", "bin", "tessel-tune"))
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--variants", nargs="+", default=VARIANTS, choices=VARIANTS)
    parser.add_argument("--shapes", nargs="+", default=[])
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--dgd-trials", type=int, default=0,
                        help="trials of the dgd variants (default: --trials)")
    parser.add_argument("--trial-seconds", type=float, default=0.6)
    parser.add_argument("-j", "--jobs", type=int, default=1)
    args = parser.parse_args()
    if args.action == "run":
        run(args)
    else:
        report(args)


if __name__ == "__main__":
    sys.exit(main())
