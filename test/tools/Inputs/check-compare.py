#!/usr/bin/env python3
"""Checks a scripts/compare result directory for the smoke test.

  check-compare.py DIR WORKLOADS STRATEGIES SEEDS TRIALS REFERENCE [--oracle]

Fails (exit 1, naming the broken invariant) unless the CSVs have their
columns and one row per run, trial and workload, the numbers agree with each
other, the markdown table and the PNG plots exist, and everything is
labelled SIMULATED.
"""

import csv
import math
import os
import sqlite3
import sys


def fail(message):
    print(f"check-compare: FAIL: {message}")
    sys.exit(1)


def read(path, columns):
    if not os.path.isfile(path):
        fail(f"missing {path}")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
        header = rows and list(rows[0].keys())
    for c in columns:
        if not rows or c not in header:
            fail(f"{os.path.basename(path)}: no column {c}")
    return rows


def close(a, b, tol=1e-4):
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def main(argv):
    d, nw, strategies, seeds, trials, reference = argv[1:7]
    nw, seeds, trials = int(nw), int(seeds), int(trials)
    strategies = strategies.split(",")
    oracle = "--oracle" in argv
    tag = ".SIMULATED"

    runs = read(os.path.join(d, f"runs{tag}.csv"),
                ["workload", "strategy", "seed", "status", "trials", "default_gflops",
                 "best_gflops"])
    if len(runs) != nw * len(strategies) * seeds:
        fail(f"{len(runs)} runs, expected {nw * len(strategies) * seeds}")
    for r in runs:
        if r["status"] != "ok" or int(r["trials"]) != trials:
            fail(f"run {r['workload']} {r['strategy']}: {r['status']}, {r['trials']} trials")
        if float(r["best_gflops"]) < float(r["default_gflops"]):
            fail("a best below the default config")

    rows = read(os.path.join(d, f"trials{tag}.csv"),
                ["simulated", "workload", "strategy", "seed", "trial", "elapsed_s",
                 "gflops", "best_gflops"])
    if len(rows) != len(runs) * (trials + 1):
        fail(f"{len(rows)} trial rows, expected {len(runs) * (trials + 1)}")
    last = {}
    for r in rows:
        if r["simulated"] != "1":
            fail("a trial row not marked simulated")
        key = (r["workload"], r["strategy"], r["seed"])
        best = float(r["best_gflops"])
        if r["gflops"] and float(r["gflops"]) > best + 1e-9:
            fail("best_gflops below a measured gflops")
        if key in last and best < last[key] - 1e-9:
            fail("best_gflops decreases")
        last[key] = best
    final = {(r["workload"], r["strategy"], r["seed"]): float(r["best_gflops"]) for r in runs}
    for key, value in last.items():
        if not close(final[key], value):
            fail(f"runs and trials CSVs disagree on {key}")

    per = read(os.path.join(d, f"workloads{tag}.csv"),
               ["suite", "name", "strategy", "final_gflops", "ref_final_gflops",
                f"best_T{trials}", f"ratio_T{trials}", "speedup_default", "final_cv",
                "ttq90_trials", "ttq95_trials", "ttq99_trials"])
    if len(per) != nw * len(strategies):
        fail(f"{len(per)} workload rows, expected {nw * len(strategies)}")
    by_strategy = {}
    for r in per:
        ratio = float(r[f"ratio_T{trials}"])
        if r["strategy"] == reference and not close(ratio, 1.0):
            fail(f"the reference's ratio is {ratio}, not 1")
        if not close(ratio, float(r["final_gflops"]) / float(r["ref_final_gflops"])):
            fail("ratio at the largest trial budget is not final / reference final")
        if float(r["speedup_default"]) < 1 - 1e-9:
            fail("speedup over the default below 1")
        t90, t99 = float(r["ttq90_trials"]), float(r["ttq99_trials"])
        if r["strategy"] == reference and (t90 > t99 or t99 > trials):
            fail(f"reference TTQ out of order: {t90} {t99}")
        if oracle:
            regret = float(r["regret_final"])
            if not 0 < regret <= 1 + 1e-9:
                fail(f"regret {regret} outside (0, 1]")
        by_strategy.setdefault(r["strategy"], []).append(ratio)

    suites = read(os.path.join(d, f"suites{tag}.csv"),
                  ["suite", "strategy", f"ratio_T{trials}", "ratio_final", "speedup_default",
                   "weighted_ratio", "median_cv"])
    for s in suites:
        values = by_strategy[s["strategy"]]
        geo = math.exp(sum(math.log(v) for v in values) / len(values))
        if not close(geo, float(s[f"ratio_T{trials}"])):
            fail(f"suite geomean {s[f'ratio_T{trials}']} is not {geo}")

    if oracle:
        o = read(os.path.join(d, f"oracle{tag}.csv"),
                 ["workload", "status", "configs", "optimum_gflops"])
        if len(o) != nw or any(r["status"] != "ok" or int(r["configs"]) <= 0 for r in o):
            fail("oracle rows missing or failed")

    with open(os.path.join(d, f"summary{tag}.md")) as f:
        md = f.read()
    for needed in ["SIMULATED", "| suite | strategy | n |", "## Per workload", "![ratios"]:
        if needed not in md:
            fail(f"summary has no '{needed}'")
    table = [l for l in md.splitlines() if l.startswith("| ") and "| strategy |" not in l
             and "workload" not in l]
    if len(table) < len(suites):
        fail("summary table rows missing")

    pngs = [f for f in os.listdir(d) if f.endswith(".png")]
    expected = 3 + (1 if oracle else 0)
    if len(pngs) < expected or any(".SIMULATED." not in f for f in pngs):
        fail(f"PNGs: {pngs}")
    for f in pngs:
        with open(os.path.join(d, f), "rb") as img:
            if img.read(8) != b"\x89PNG\r\n\x1a\n":
                fail(f"{f} is not a PNG")

    db = sqlite3.connect(os.path.join(d, f"records{tag}.db"))
    n_runs = db.execute("SELECT count(*) FROM runs").fetchone()[0]
    n_meas = db.execute("SELECT count(*) FROM measurements").fetchone()[0]
    if n_runs != len(runs) or n_meas != len(rows):
        fail(f"merged records: {n_runs} runs, {n_meas} measurements")
    # Each run tuned with its own strategy (options passed after -- once
    # turned every run into the last --strategy).
    ran = {}
    for (spec,) in db.execute("SELECT strategy FROM runs"):
        name = spec.split()[0]
        ran[name] = ran.get(name, 0) + 1
    if sorted(ran) != sorted(strategies) or len(set(ran.values())) != 1:
        fail(f"merged records: runs per strategy {ran}, expected {strategies}")
    print(f"check-compare: ok: {len(runs)} runs, {len(rows)} trials, {len(pngs)} plots")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
