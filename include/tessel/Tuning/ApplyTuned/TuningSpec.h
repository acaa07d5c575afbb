//===- TuningSpec.h - Tuned schedules as a transform library ----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A tuning spec is a transform-dialect library that gives each tunable op of
// a model the best schedule of its workload in a records database, like
// `--tessel-apply-tuned`, but as IR that stock `mlir-opt` applies:
//
//   mlir-opt --load-dialect-plugin=libTesselPlugin.so model.mlir \
//       --transform-preload-library=transform-library-paths=spec.mlir \
//       --transform-interpreter
//
// Its entry point `@__transform_main` runs `transform.foreach_match` over
// one matcher/action pair per workload: the matcher checks the op name
// (`transform.match.operation_name`) and the exact workload
// (`transform.tessel.match.workload`); the action sets `tessel.sketch` and
// `tessel.config` with `transform.annotate`. See docs/TuningSpec.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_APPLYTUNED_TUNINGSPEC_H
#define TESSEL_TUNING_APPLYTUNED_TUNINGSPEC_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

namespace mlir {
namespace tessel {

class RecordsDatabase;

/// What a tuning spec covers.
struct TuningSpecSummary {
  /// Distinct workloads among the model's tunable ops.
  int64_t workloads = 0;
  /// The workloads with a record: a matcher and an action of the spec
  /// (shared by the workloads whose records are under one key ignoring
  /// float constants) give them their schedule. The others keep no
  /// schedule when the spec is applied.
  int64_t annotated = 0;
};

/// Builds the tuning spec of `model` from the best records of `db`, in the
/// context of `model`. `model` is fused first (applyTesselFusion): the spec
/// matches the fused ops, so it applies after `--tessel-fuse` (it loads the transform dialect and Tessel's transform
/// extension there). Records measured by `preferredTarget` (e.g.
/// "sim:h100-sxm") are preferred; empty prefers GPU records over simulated
/// ones, as `--tessel-apply-tuned` does. Matchers and actions are named
/// `@match_task<N>` and `@annotate_task<N>`, N numbering the model's
/// distinct workloads in walk order. Fails when the model has no tunable op,
/// when none of its workloads has a record, and when a record holds no
/// valid schedule for its op. Fills `summary` when given.
llvm::Expected<OwningOpRef<ModuleOp>>
buildTuningSpec(ModuleOp model, RecordsDatabase &db,
                llvm::StringRef preferredTarget,
                TuningSpecSummary *summary = nullptr);

/// Builds the tuning spec of `model` (see buildTuningSpec) and prints it to
/// `os`.
llvm::Expected<TuningSpecSummary>
exportTuningSpec(ModuleOp model, RecordsDatabase &db,
                 llvm::StringRef preferredTarget, llvm::raw_ostream &os);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_APPLYTUNED_TUNINGSPEC_H
