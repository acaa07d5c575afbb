//===- Passes.td - Tessel passes that read tuning records --*- tablegen -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_APPLYTUNED_PASSES_TD
#define TESSEL_TUNING_APPLYTUNED_PASSES_TD

include "mlir/Pass/PassBase.td"

def TesselApplyTuned : Pass<"tessel-apply-tuned", "ModuleOp"> {
  let summary = "Annotate every tunable op with the best schedule of its "
                "workload in a tuning records database";
  let description = [{
    Reads the records database `db` (written by `tessel-tune --db`) and gives
    every tunable op the `tessel.sketch` and `tessel.config` of the fastest
    ok record of its workload. The workload key is that of tessel-tune's
    tasks: the op with the elementwise consumers it fuses and the producers
    it inlines (docs/SearchSpace.md). Records measured by `target` (e.g.
    `cuda:NVIDIA H100 80GB HBM3` or `sim:h100-sxm`) are preferred; without
    `target`, GPU records are preferred over simulated ones. An op without
    records under its own key takes those under its key ignoring the values
    of float constants (written by `tessel-tune
    --task-equality=ignore-float-constants`).

    Tunable ops are the linalg ops on tensors, outside any `scf.forall` and
    `gpu.launch`, with static shapes, a space loop and a reduction loop and
    no schedule yet; `linalg.fill` and the consumers fused into a tunable op
    are left alone. Every annotated op gets a remark naming the record's
    target and median time. An op without a record keeps no schedule
    (`--tessel-to-cuda` gives it the default one) and gets a remark.

    The module is first fused as `--tessel-fuse` does (unless `fuse=false`),
    so that its ops are those the tasks were extracted from.

    Fails when `db` is not given or cannot be opened, and when a record
    holds no schedule that is valid for its op.

    Example:
    ```
    tessel-opt model.mlir \
        --tessel-apply-tuned="db=tune.db target=sim:h100-sxm" --tessel-to-cuda
    ```
  }];
  let options = [
    Option<"db", "db", "std::string", /*default=*/"",
           "Records database (tessel-tune --db)">,
    Option<"target", "target", "std::string", /*default=*/"",
           "Preferred measurer, e.g. sim:h100-sxm (default: GPU records "
           "first)">,
    Option<"fuse", "fuse", "bool", /*default=*/"true",
           "Fuse the module first (--tessel-fuse), as task extraction does">,
  ];
  let dependentDialects = ["::mlir::tessel::TesselDialect"];
}

def TesselAnalyticSchedules : Pass<"tessel-analytic-schedules", "ModuleOp"> {
  let summary = "Give every tunable op the schedule the analytic simulator "
                "predicts best, without measuring";
  let description = [{
    The zero-measurement choice (issue 52, item 2): for every tunable op
    (as `--tessel-apply-tuned` finds them) without a schedule, draws
    `samples` configs from the search spaces of its task (those tessel-tune
    searches, pipelined stages included) and times each with the analytic
    simulator of `device` (`sim:<device>`, analytic fidelity: no compile,
    about a millisecond a sample). When the best is predicted at least 4
    times faster than the op's default schedule (tessel-tune's analytic
    start margin: the judge's pick has measured up to 3.44x the measured
    best, docs/SimulatedGpu.md), the op gets it as `tessel.sketch` and
    `tessel.config`; otherwise it keeps none and `--tessel-to-cuda` gives it
    the default. Every tunable op gets a remark with both predictions, which
    are SIMULATED. Deterministic for a `seed`.

    The module is first fused as `--tessel-fuse` does (unless `fuse=false`).

    Example:
    ```
    tessel-opt model.mlir --tessel-analytic-schedules="device=h100" \
        --tessel-to-cuda
    ```
  }];
  let options = [
    Option<"device", "device", "std::string", /*default=*/"\"h100\"",
           "Device of the analytic simulator (tessel-tune --list-devices)">,
    Option<"samples", "samples", "int64_t", /*default=*/"256",
           "Configs drawn and timed per op">,
    Option<"seed", "seed", "int64_t", /*default=*/"1",
           "Seed of the draws">,
    Option<"fuse", "fuse", "bool", /*default=*/"true",
           "Fuse the module first (--tessel-fuse), as task extraction does">,
  ];
  let dependentDialects = ["::mlir::tessel::TesselDialect"];
}

#endif // TESSEL_TUNING_APPLYTUNED_PASSES_TD
