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

#endif // TESSEL_TUNING_APPLYTUNED_PASSES_TD
