#!/usr/bin/env python3
"""Plot tuning curves from a Tessel records database (tessel-tune --db).

For every run (strategy, seed, measurer) and task, the best throughput found
so far against the trial number and against the wall time, one line per run;
runs on a simulated GPU are labelled "(simulated)".

Usage: plot_tuning.py RECORDS.db OUT.png [--task=KEY_SUBSTRING]
"""

import sqlite3
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load_curves(path, task_filter):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = db.execute(
        """SELECT r.id, r.strategy, r.seed, r.measurer, r.simulated,
                  t.description, t.workload_key, t.flops,
                  m.trial, m.elapsed_s, m.median_us, m.status
           FROM measurements m
           JOIN runs r ON r.id = m.run_id
           JOIN configs c ON c.id = m.config_id
           JOIN sketches s ON s.id = c.sketch_id
           JOIN tasks t ON t.id = s.task_id
           WHERE m.trial > 0
           ORDER BY r.id, m.trial""").fetchall()
    curves = {}
    for (run, strategy, seed, measurer, simulated, description, key, flops,
         trial, elapsed, median, status) in rows:
        if task_filter and task_filter not in key and task_filter not in description:
            continue
        label = f"{strategy} seed {seed} on {measurer}" + \
            (" (simulated)" if simulated else "")
        curve = curves.setdefault((run, description), {"label": label,
                                                      "task": description,
                                                      "best": 0.0, "points": []})
        if status == "ok" and median and median > 0:
            curve["best"] = max(curve["best"], flops / median / 1e3)
        curve["points"].append((trial, elapsed, curve["best"]))
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
    except sqlite3.Error as e:
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
