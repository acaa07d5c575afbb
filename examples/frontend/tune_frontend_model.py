#!/usr/bin/env python3
"""A frontend's model through Tessel from Python, end to end.

  examples/frontend/tune_frontend_model.py MODEL.mlir OUTDIR [--trials N]
      [--measure sim:h100] [--chip sm_90] [--mlir-opt PATH] [--plugin PATH]

MODEL.mlir is linalg on tensors as an ML frontend exports it (e.g.
../shared/eval/frontend-ir/torchmlir-alexnet.mlir, from torch-mlir). Steps:

  1. tessel.tasks: the model's tuning tasks;
  2. tessel.tune: tune them into OUTDIR/records.db (simulated under
     sim:<device>: the figures are a model of the GPU, not measurements);
  3. tessel.export_spec: the best schedules as a transform library,
     OUTDIR/spec.mlir;
  4. stock mlir-opt with Tessel's plugin applies the spec
     (OUTDIR/annotated.mlir); it must equal tessel.apply's module;
  5. tessel.compile: cubins (OUTDIR/compiled.mlir) and the per-kernel table.

Needs the tessel package (PYTHONPATH=build/python, docs/Python.md).
"""

import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import tessel
except ImportError:
    sys.path.insert(0, os.path.join(ROOT, "build", "python"))
    import tessel


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model")
    ap.add_argument("out")
    ap.add_argument("--trials", type=int, default=64)
    ap.add_argument("--measure", default="sim:h100")
    ap.add_argument("--chip", default="sm_90")
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    ap.add_argument("--plugin", default=os.path.join(
        ROOT, "build", "lib", "libTesselPlugin.so"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    db = os.path.join(args.out, "records.db")
    with open(args.model) as f:
        text = f.read()
    name = os.path.basename(args.model)

    # 1. Tasks.
    tasks = tessel.tasks(text, source_name=name)
    print(f"{name}: {len(tasks)} tasks")
    for i, task in enumerate(tasks):
        print(f"  task {i}: weight {task.weight}, "
              f"{task.flops / 1e6:.1f} MFLOP, {task.description}")

    # 2. Tune (analytic simulator: fast, and labelled simulated).
    options = {"seed": 1}
    if args.measure.startswith("sim:"):
        options["sim_fidelity"] = "analytic"

    def progress(p):
        if p.trials == p.budget:
            print(f"  tuned {p.trials}/{p.budget} trials"
                  f"{' (simulated)' if p.simulated else ''}")

    result = tessel.tune(text, db=db, measure=args.measure, trials=args.trials,
                         progress=progress, source_name=name, **options)
    label = "SIMULATED " if result.simulated else ""
    print(f"run {result.run_id} on {result.measurer}: {result.trials} trials, "
          f"{label}weighted latency {result.weighted_latency_us:.1f} us")
    default_us = sum(t.weight * t.default_latency_us for t in result.tasks
                     if t.default_latency_us)
    if default_us:
        print(f"  {label}default schedules: {default_us:.1f} us "
              f"({default_us / result.weighted_latency_us:.2f}x slower)")

    # 3. The spec.
    spec = tessel.export_spec(text, db, source_name=name)
    spec_path = os.path.join(args.out, "spec.mlir")
    with open(spec_path, "w") as f:
        f.write(spec.text)
    print(f"spec: {spec.annotated} of {spec.workloads} workloads -> {spec_path}")

    # 4. Stock mlir-opt + plugin applies it, as any MLIR tool could.
    annotated = subprocess.run(
        [args.mlir_opt, f"--load-dialect-plugin={args.plugin}",
         f"--load-pass-plugin={args.plugin}",
         # The spec matches the fused ops: fuse first, as tasks were.
         "--pass-pipeline=builtin.module(tessel-fuse,"
         f"transform-preload-library{{transform-library-paths={spec_path}}},"
         "transform-interpreter)",
         args.model],
        check=True, capture_output=True, text=True).stdout
    with open(os.path.join(args.out, "annotated.mlir"), "w") as f:
        f.write(annotated)
    same = (tessel.compile(annotated, pipeline="builtin.module(canonicalize)").module
            == tessel.compile(tessel.apply(text, db, source_name=name),
                              pipeline="builtin.module(canonicalize)").module)
    print(f"mlir-opt applied the spec; same schedules as tessel.apply: {same}")
    if not same:
        sys.exit("error: the spec and tessel.apply disagree")

    # 5. Cubins and the per-kernel table.
    compiled = tessel.compile(annotated, chip=args.chip, source_name=name)
    with open(os.path.join(args.out, "compiled.mlir"), "w") as f:
        f.write(compiled.module)
    print(f"compiled for {args.chip}: {len(compiled.kernels)} kernels")
    print(f"  {'binary':24} {'kernel':20} {'regs':>5} {'smem B':>7} {'spill B':>8}")
    for k in compiled.kernels:
        print(f"  {k.module:24} {k.kernel:20} {k.registers:5} {k.shared_memory_bytes:7} "
              f"{k.spill_store_bytes + k.spill_load_bytes:8}")


if __name__ == "__main__":
    main()
