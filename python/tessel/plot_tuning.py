#!/usr/bin/env python3
"""Plot tuning curves from a Tessel records database (tessel-tune --db).

For every run (strategy, seed, measurer) and task, the best throughput found
so far against the trial number and against the wall time, one line per run;
runs on a simulated GPU are labelled "(simulated)".

Usage: plot_tuning.py RECORDS.db OUT.png [--task=KEY_SUBSTRING]
"""

import os
import sys

try:
    import tessel
except ImportError:
    # Run as a script: the package beside this file (build/python/tessel) or
    # the build of the checkout (python/tessel -> build/python).
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:0] = [os.path.dirname(here),
                    os.path.join(os.path.dirname(os.path.dirname(here)),
                                 "build", "python")]
    import tessel

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load_curves(path, task_filter):
    records = tessel.Records(path)
    tasks = {t["id"]: t for t in records.tasks()}
    curves = {}
    for run in records.runs():
        trials = sorted((t for t in records.trials(run.id) if t.trial > 0),
                        key=lambda t: (t.trial, t.id))
        for t in trials:
            task = tasks[t.task_id]
            key, description = task["workload_key"], task["description"]
            if task_filter and task_filter not in key and task_filter not in description:
                continue
            label = f"{run.strategy} seed {run.seed} on {run.measurer}" + \
                (" (simulated)" if run.simulated else "")
            curve = curves.setdefault((run.id, description),
                                      {"label": label, "task": description,
                                       "best": 0.0, "points": []})
            if t.ok and t.median_us > 0:
                curve["best"] = max(curve["best"],
                                    task["flops"] / t.median_us / 1e3)
            curve["points"].append((t.trial, t.elapsed_s, curve["best"]))
    return list(curves.values())


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    task_filter = ""
    for a in argv[1:]:
        if a.startswith("--task="):
            task_filter = a.split("=", 1)[1]
    if len(args) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    try:
        curves = load_curves(args[0], task_filter)
    except tessel.TesselError as e:
        print(f"plot_tuning: cannot read {args[0]}: {e}", file=sys.stderr)
        return 1
    if not curves:
        print(f"plot_tuning: {args[0]} has no tuning trials", file=sys.stderr)
        return 1
    fig, (by_trial, by_time) = plt.subplots(1, 2, figsize=(12, 4.5))
    for c in curves:
        trials = [p[0] for p in c["points"]]
        times = [p[1] for p in c["points"]]
        best = [p[2] for p in c["points"]]
        name = c["label"] + ("" if len(curves) == 1 else f"\n{c['task']}")
        by_trial.step(trials, best, where="post", label=name)
        by_time.step(times, best, where="post", label=name)
    by_trial.set_xlabel("trials")
    by_time.set_xlabel("wall time (s)")
    for ax in (by_trial, by_time):
        ax.set_ylabel("best GFLOP/s so far")
        ax.grid(True, alpha=0.3)
    by_trial.legend(fontsize=7)
    fig.suptitle("Tessel tuning curves" +
                 (" (simulated GPU)" if any("(simulated)" in c["label"]
                                            for c in curves) else ""))
    fig.tight_layout()
    fig.savefig(args[1], dpi=100)
    print(f"plot_tuning: {len(curves)} curve(s) -> {args[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
