//===- ScheduleScript.h - Schedules as upstream transform scripts -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A Tessel schedule (sketch + config) is applied by a transform-dialect
// script made of upstream ops only. This header builds that script from the
// prepared ops (ScheduledOps.h); the materialization pass interprets it and
// the emission pass writes it out. See docs/Materialization.md for the steps
// of the script.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_SCHEDULESCRIPT_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_SCHEDULESCRIPT_H

#include "tessel/Dialect/Tessel/Transforms/ScheduledOps.h"

#include <string>

namespace mlir {
namespace tessel {

/// Options of the generated script.
struct ScheduleScriptOptions {
  /// Stop after bufferization, promotion and vectorization, before mapping
  /// loops to blocks and threads (the IR then runs on the CPU).
  bool stopBeforeGpuMapping = false;
  /// The ops are already on buffers (ops that bufferization created):
  /// tile them without bufferizing.
  bool onBuffers = false;
  /// Trip counts of the loops marked `tessel.unroll` by an earlier tiling
  /// script, for a mapping script to unroll.
  SmallVector<int64_t> unrollCounts;
  /// The same for loops marked `tessel.unroll_late`.
  SmallVector<int64_t> lateUnrollCounts;
  /// Pipelined staging loops (`stages` > 1) load with cp.async (sm_80 and
  /// newer); otherwise their loads stay synchronous, still multi-buffered.
  bool asyncCopies = true;
  /// tensor_core schedules of f32 contractions compute in TF32; without
  /// this, their conversion to mma.sync fails.
  bool allowTf32 = false;
};

/// Which steps of the schedule a script holds.
enum class ScheduleScriptPart {
  /// Everything: tiling, bufferization, mapping, vectorization.
  Full,
  /// Up to and including thread-level tiling on buffers; every kernel's
  /// block forall is marked `tessel.kernel = <anchor>`.
  Tiling,
  /// The marked foralls mapped to blocks and threads, then vectorization
  /// and register-level clean-up (or vectorization only, with
  /// `stopBeforeGpuMapping`).
  Mapping,
};

/// The text of a `module attributes {transform.with_named_sequence}` holding
/// `@__transform_main`, which applies the schedules of `ops`.
std::string buildScheduleScript(ArrayRef<ScheduledOp> ops,
                                const ScheduleScriptOptions &options,
                                ScheduleScriptPart part = ScheduleScriptPart::Full);

/// Name of the entry point of the script.
constexpr llvm::StringLiteral kScheduleEntryPoint = "__transform_main";

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_SCHEDULESCRIPT_H
