#!/usr/bin/python3
"""Tables and figures of docs/results/psa/README.md (all SIMULATED).

    summarize.py best1 BEST1.jsonl            -> Best-k tables (markdown)
    summarize.py tuning DIR OUT.png           -> time-to-quality table + figure

BEST1.jsonl is the output of tessel-psa-bench; DIR holds the --report files
of run-tuning.sh (<workload>.<run>.json).
"""

import glob
import json
import os
import sys

SIZES = ["50", "128", "256", "512"]


def task_class(row):
    op = row["op"]
    if "depthwise" in op:
        return "DWConv"
    if "conv" in op:
        return "Conv"
    if "matmul" in op:
        return "MatMul"
    return "Reduction"


def mean(values):
    values = list(values)
    return sum(values) / len(values) if values else float("nan")


def best1(path):
    rows = [json.loads(line) for line in open(path)]
    classes = ["MatMul", "Conv", "DWConv", "Reduction"]
    by_class = {c: [r for r in rows if task_class(r) == c] for c in classes}

    print("### Best-1 per task (SIMULATED, sim:h100, analytic, noise-free)\n")
    print("Fixed set of random candidates per task; PSA = paper form. "
          "`A1` = Algorithm 1 (evolved, 512 kept) against all it scored.\n")
    print("| task | class | sampled | random@512 | PSA@50 | PSA@128 | PSA@256 "
          "| PSA@512 | code form@512 | A1 |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        psa = r["psa"]["psa"]
        print("| %s | %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |"
              % (r["kernel"], task_class(r), r["sampled"], r["random"]["512"],
                 psa["50"], psa["128"], psa["256"], psa["512"],
                 r["psa"]["psa-code"]["512"], r["algorithm1"]["best1"]))

    print("\n### Best-1 by operator class (Table 6's metric; mean over tasks)\n")
    print("| class | tasks | random@512 | " +
          " | ".join("PSA@" + s for s in SIZES) + " | A1 |")
    print("|---|---|---|" + "---|" * len(SIZES) + "---|")
    for c in classes + ["All"]:
        rs = rows if c == "All" else by_class[c]
        if not rs:
            continue
        print("| %s | %d | %.3f | %s | %.3f |" % (
            c, len(rs), mean(r["random"]["512"] for r in rs),
            " | ".join("%.3f" % mean(r["psa"]["psa"][s] for r in rs)
                       for s in SIZES),
            mean(r["algorithm1"]["best1"] for r in rs)))

    print("\n### PSA ablations (Table 4's metric; mean Best-1 over all %d "
          "tasks)\n" % len(rows))
    variants = list(rows[0]["psa"].keys())
    print("| variant | " + " | ".join(SIZES) + " |")
    print("|---|" + "---|" * len(SIZES))
    print("| random | " + " | ".join(
        "%.3f" % mean(r["random"][s] for r in rows) for s in SIZES) + " |")
    for v in variants:
        print("| %s | %s |" % (v, " | ".join(
            "%.3f" % mean(r["psa"][v][s] for r in rows) for s in SIZES)))


def total_curve(report, horizon):
    """Weighted total latency (us) after each trial 0..horizon, and the
    elapsed (virtual) seconds at each trial where known."""
    tasks = report["tasks"]
    totals = []
    elapsed_at = {}
    events = []
    for i, t in enumerate(tasks):
        for p in t["curve"]:
            events.append((p["trial"], i, t["flops"] / (p["best_gflops"] * 1e3)))
            elapsed_at[p["trial"]] = p["elapsed_s"]
    events.sort()
    current = [t["default_latency_us"] for t in tasks]
    k = 0
    for trial in range(horizon + 1):
        while k < len(events) and events[k][0] <= trial:
            _, i, latency = events[k]
            current[i] = min(current[i], latency)
            k += 1
        totals.append(sum(t["weight"] * c for t, c in zip(tasks, current)))
    return totals, elapsed_at


def report_from_db(path):
    """A --report-like summary of a run still in progress, from its records
    (median times; baseline records are trial 0)."""
    import sqlite3
    c = sqlite3.connect("file:" + path + "?mode=ro", uri=True)
    rows = c.execute(
        "select m.trial, m.median_us, m.elapsed_s, m.status, t.id, t.weight, "
        "t.flops from measurements m join configs g on m.config_id = g.id "
        "join sketches s on g.sketch_id = s.id join tasks t on s.task_id = t.id "
        "order by m.id").fetchall()
    tasks = {}
    trials = 0
    for trial, us, elapsed, status, tid, weight, flops in rows:
        task = tasks.setdefault(tid, {"weight": weight, "flops": flops,
                                      "default_latency_us": None, "curve": [],
                                      "best": None})
        trials = max(trials, trial)
        if status != "ok" or not us:
            continue
        if trial == 0 and task["default_latency_us"] is None:
            task["default_latency_us"] = us
        if task["best"] is None or us < task["best"]:
            task["best"] = us
            task["curve"].append({"trial": trial, "elapsed_s": elapsed,
                                  "best_gflops": flops / (us * 1e3)})
    for task in tasks.values():
        if task["default_latency_us"] is None:
            task["default_latency_us"] = float("inf")
    return {"tasks": list(tasks.values()), "trials": trials,
            "elapsed_s": max((r[2] for r in rows), default=0),
            "partial": True}


def tuning(directory, figure):
    reports = {}
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        name = os.path.basename(path)[:-5]
        workload, run = name.split(".", 1)
        reports.setdefault(workload, {})[run] = json.load(open(path))
    # Runs without a report are still running: read their records.
    for path in sorted(glob.glob(os.path.join(directory, "*.db"))):
        name = os.path.basename(path)[:-3]
        workload, run = name.split(".", 1)
        if run not in reports.get(workload, {}):
            reports.setdefault(workload, {})[run + " (PARTIAL)"] = \
                report_from_db(path)
    print("### Time to the quality of `evolutionary` at 1000 trials "
          "(SIMULATED, sim:h100, analytic)\n")
    print("Total = sum over tasks of weight x best latency (default schedule "
          "before a task's first record). `trials` = first trial where the "
          "run's total is at most evolutionary's at 1000; `x` = 1000 / that. "
          "Virtual seconds include 0.6 s per measured candidate plus the "
          "real search time.\n")
    print("| workload | run | trials run | total at end (us) | reaches at trial "
          "| x (trials) | virtual s to reach | x (time) | within 5% at trial |")
    print("|---|---|---|---|---|---|---|---|---|")
    curves = {}
    for workload, runs in sorted(reports.items()):
        ref = runs.get("evolutionary")
        if ref is None:
            continue
        ref_total, _ = total_curve(ref, ref["trials"])
        target = ref_total[min(1000, len(ref_total) - 1)]
        ref_elapsed = ref["elapsed_s"]
        for run, report in sorted(runs.items()):
            if run == "a100-source":
                continue
            totals, elapsed_at = total_curve(report, report["trials"])
            curves[(workload, run)] = totals
            reach = next((i for i, v in enumerate(totals) if v <= target * (1 + 1e-9)),
                         None)
            near = next((i for i, v in enumerate(totals) if v <= target * 1.05),
                        None)
            near = str(near) if near is not None else "not reached"
            if reach is not None:
                # The curve point at `reach` (an improvement) has its time.
                seconds = elapsed_at.get(reach)
                print("| %s | %s | %d | %.1f | %d | %.2f | %s | %s | %s |" % (
                    workload, run, report["trials"], totals[-1], reach,
                    1000.0 / max(reach, 1),
                    "%.0f" % seconds if seconds is not None else "?",
                    "%.2f" % (ref_elapsed / seconds) if seconds else "?", near))
            else:
                print("| %s | %s | %d | %.1f | not reached | < %.2f | | | %s |" % (
                    workload, run, report["trials"], totals[-1],
                    1000.0 / report["trials"], near))
    if figure and curves:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        workloads = sorted({w for w, _ in curves})
        fig, axes = plt.subplots(1, len(workloads),
                                 figsize=(6 * len(workloads), 4))
        if len(workloads) == 1:
            axes = [axes]
        for ax, workload in zip(axes, workloads):
            for (w, run), totals in sorted(curves.items()):
                if w != workload:
                    continue
                ax.plot(range(len(totals)), totals, label=run)
            ax.set_title(workload + " (SIMULATED sim:h100)")
            ax.set_xlabel("trials")
            ax.set_ylabel("weighted total latency (us)")
            ax.set_yscale("log")
            ax.legend()
        fig.tight_layout()
        fig.savefig(figure, dpi=100)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "best1":
        best1(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "tuning":
        tuning(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    else:
        sys.exit(__doc__)
