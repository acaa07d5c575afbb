#!/usr/bin/env python3
"""Draw the plots of a scripts/compare result directory.

  plot_compare.py DIR

Reads DIR/trials[.SIMULATED].csv, workloads*.csv, suites*.csv and, when
present, oracle*.csv; writes into DIR (names carry .SIMULATED when the
measurer was simulated):

  curves-<suite>.png   per suite: best-so-far relative to the reference's
                       final best, geomean over the workloads, against trials
                       and against elapsed time; per strategy the median over
                       seeds and the min-max band
  workloads-<suite>.png  per workload: best-so-far GFLOP/s against trials
                       (median and min-max band over seeds), at most 36
                       workloads
  ratios.png           bar chart: final best relative to the reference,
                       geomean per suite, per strategy
  regret.png           with an oracle: best found / exhaustive optimum against
                       trials, per workload (median and band over seeds)

and appends the list of images to DIR/summary*.md.
"""

import csv
import glob
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MAX_PANELS = 36


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def one(directory, stem):
    found = sorted(glob.glob(os.path.join(directory, stem + "*.csv")))
    return found[0] if found else None


def step_at(points, x, index):
    """Value of a best-so-far step curve (sorted by points[index]) at x."""
    value = points[0][2]
    for p in points:
        if p[index] > x:
            break
        value = p[2]
    return value


def band(runs, grid, index):
    """Median, min and max over runs of the step curves on `grid`."""
    med, low, high = [], [], []
    for x in grid:
        values = sorted(step_at(r, x, index) for r in runs)
        n = len(values)
        med.append(values[n // 2] if n % 2 else 0.5 * (values[n // 2 - 1] + values[n // 2]))
        low.append(values[0])
        high.append(values[-1])
    return med, low, high


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else 0.0


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    directory = argv[1]
    trials_csv = one(directory, "trials")
    workloads_csv = one(directory, "workloads")
    suites_csv = one(directory, "suites")
    if not (trials_csv and workloads_csv and suites_csv):
        print(f"plot_compare: {directory} has no trials/workloads/suites CSV",
              file=sys.stderr)
        return 1
    simulated = ".SIMULATED." in os.path.basename(trials_csv)
    tag = ".SIMULATED" if simulated else ""
    sim_title = " (SIMULATED GPU)" if simulated else ""

    # Curves: (workload, strategy) -> seed -> [(trial, elapsed, best)].
    curves = {}
    for r in read(trials_csv):
        key = (r["workload"], r["strategy"])
        curves.setdefault(key, {}).setdefault(r["seed"], []).append(
            (int(r["trial"]), float(r["elapsed_s"] or 0), float(r["best_gflops"] or 0)))
    per = read(workloads_csv)
    suites = read(suites_csv)
    strategies = list(dict.fromkeys(r["strategy"] for r in per))
    suite_names = list(dict.fromkeys(r["suite"] for r in per))
    colors = {s: plt.cm.tab10(i % 10) for i, s in enumerate(strategies)}
    written = []

    for suite in suite_names:
        rows = [r for r in per if r["suite"] == suite]
        keys = list(dict.fromkeys(r["workload"] for r in rows))
        names = {r["workload"]: r["name"] for r in rows}
        ref_final = {r["workload"]: num(r["ref_final_gflops"]) for r in rows}
        # Suite aggregate: per seed index, geomean over workloads of the
        # best-so-far relative to the reference's final best.
        fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
        for index, (ax, xlabel) in enumerate(zip(axes, ("trials", "elapsed time (s)"))):
            for strategy in strategies:
                runs_by_key = {k: curves.get((k, strategy), {}) for k in keys}
                seeds = sorted({s for v in runs_by_key.values() for s in v})
                if not seeds:
                    continue
                xmax = max(p[index] for v in runs_by_key.values() for r in v.values()
                           for p in r)
                grid = [xmax * i / 200 for i in range(201)] if xmax > 0 else [0]
                per_seed = []
                for seed in seeds:
                    series = []
                    for x in grid:
                        series.append(geomean(
                            [step_at(runs_by_key[k][seed], x, index) / ref_final[k]
                             for k in keys if seed in runs_by_key[k] and ref_final[k]]))
                    per_seed.append(series)
                med = [sorted(col)[len(col) // 2] if len(col) % 2 else
                       0.5 * (sorted(col)[len(col) // 2 - 1] + sorted(col)[len(col) // 2])
                       for col in zip(*per_seed)]
                low = [min(col) for col in zip(*per_seed)]
                high = [max(col) for col in zip(*per_seed)]
                ax.step(grid, med, where="post", color=colors[strategy],
                        label=f"{strategy} (median of {len(seeds)} seeds)")
                ax.fill_between(grid, low, high, step="post", color=colors[strategy],
                                alpha=0.2)
            ax.set_xlabel(xlabel)
            ax.set_ylabel("best so far / reference's final best (geomean)")
            ax.grid(True, alpha=0.3)
        axes[0].legend(fontsize=8)
        fig.suptitle(f"{suite}: best-so-far, {len(keys)} workloads{sim_title}")
        fig.tight_layout()
        name = f"curves-{suite}{tag}.png"
        fig.savefig(os.path.join(directory, name), dpi=90)
        plt.close(fig)
        written.append(name)

        # Per workload, against trials.
        shown = keys[:MAX_PANELS]
        cols = min(6, len(shown))
        rows_n = math.ceil(len(shown) / cols)
        fig, axes = plt.subplots(rows_n, cols, figsize=(3.2 * cols, 2.6 * rows_n),
                                 squeeze=False)
        for ax, key in zip(axes.flat, shown):
            for strategy in strategies:
                runs = list(curves.get((key, strategy), {}).values())
                if not runs:
                    continue
                xmax = max(p[0] for r in runs for p in r)
                grid = list(range(0, xmax + 1, max(1, xmax // 200)))
                med, low, high = band(runs, grid, 0)
                ax.step(grid, med, where="post", color=colors[strategy], label=strategy,
                        lw=1)
                ax.fill_between(grid, low, high, step="post", color=colors[strategy],
                                alpha=0.2)
            ax.set_title(names[key], fontsize=7)
            ax.tick_params(labelsize=6)
            ax.grid(True, alpha=0.3)
        for ax in list(axes.flat)[len(shown):]:
            ax.axis("off")
        axes[0][0].legend(fontsize=6)
        axes[0][0].set_ylabel("best GFLOP/s", fontsize=7)
        fig.suptitle(f"{suite}: best GFLOP/s so far vs trials{sim_title}"
                     + (f" (first {MAX_PANELS} of {len(keys)})" if len(keys) > MAX_PANELS
                        else ""), fontsize=9)
        fig.tight_layout()
        name = f"workloads-{suite}{tag}.png"
        fig.savefig(os.path.join(directory, name), dpi=80)
        plt.close(fig)
        written.append(name)

    # Final ratios per suite.
    fig, ax = plt.subplots(figsize=(max(5, 1.4 * len(suite_names) * len(strategies)), 4))
    width = 0.8 / max(1, len(strategies))
    for i, strategy in enumerate(strategies):
        values = [num(next((s["ratio_final"] for s in suites
                            if s["suite"] == suite and s["strategy"] == strategy), "")) or 0
                  for suite in suite_names]
        xs = [j + (i - (len(strategies) - 1) / 2) * width for j in range(len(suite_names))]
        bars = ax.bar(xs, values, width, color=colors[strategy], label=strategy)
        for bar, v in zip(bars, values):
            ax.annotate(f"{v:.3f}", (bar.get_x() + bar.get_width() / 2, v),
                        ha="center", va="bottom", fontsize=7)
    ax.axhline(1.0, color="black", lw=0.8)
    ax.set_xticks(range(len(suite_names)))
    ax.set_xticklabels(suite_names)
    ax.set_ylabel("final best / reference (geomean)")
    ax.legend(fontsize=8)
    ax.set_title("Final best relative to the reference" + sim_title)
    fig.tight_layout()
    name = f"ratios{tag}.png"
    fig.savefig(os.path.join(directory, name), dpi=90)
    plt.close(fig)
    written.append(name)

    # Oracle regret.
    oracle_csv = one(directory, "oracle")
    if oracle_csv:
        optimum = {r["workload"]: num(r["optimum_gflops"]) for r in read(oracle_csv)}
        keys = [k for k in dict.fromkeys(r["workload"] for r in per) if optimum.get(k)]
        keys = keys[:MAX_PANELS]
        if keys:
            cols = min(4, len(keys))
            rows_n = math.ceil(len(keys) / cols)
            fig, axes = plt.subplots(rows_n, cols, figsize=(3.6 * cols, 2.8 * rows_n),
                                     squeeze=False)
            for ax, key in zip(axes.flat, keys):
                for strategy in strategies:
                    runs = [[(t, e, b / optimum[key]) for t, e, b in r]
                            for r in curves.get((key, strategy), {}).values()]
                    if not runs:
                        continue
                    xmax = max(p[0] for r in runs for p in r)
                    grid = list(range(0, xmax + 1, max(1, xmax // 200)))
                    med, low, high = band(runs, grid, 0)
                    ax.step(grid, med, where="post", color=colors[strategy],
                            label=strategy, lw=1)
                    ax.fill_between(grid, low, high, step="post",
                                    color=colors[strategy], alpha=0.2)
                ax.axhline(1.0, color="black", lw=0.6)
                ax.set_title(key.split("/")[-1], fontsize=7)
                ax.tick_params(labelsize=6)
                ax.grid(True, alpha=0.3)
            for ax in list(axes.flat)[len(keys):]:
                ax.axis("off")
            axes[0][0].legend(fontsize=6)
            axes[0][0].set_ylabel("best found / optimum", fontsize=7)
            fig.suptitle("Oracle regret: best found / exhaustive optimum vs trials"
                         + sim_title, fontsize=9)
            fig.tight_layout()
            name = f"regret{tag}.png"
            fig.savefig(os.path.join(directory, name), dpi=90)
            plt.close(fig)
            written.append(name)

    summary = sorted(glob.glob(os.path.join(directory, "summary*.md")))
    if summary:
        with open(summary[0]) as f:
            text = f.read()
        cut = text.find("## Plots")
        text = (text[:cut] if cut >= 0 else text + "\n") + "## Plots\n\n" + \
            "\n".join(f"![{n}]({n})" for n in written) + "\n"
        with open(summary[0], "w") as f:
            f.write(text)
    print(f"plot_compare: {len(written)} plot(s) in {directory}: {', '.join(written)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
