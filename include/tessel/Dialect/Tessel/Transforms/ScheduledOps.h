//===- ScheduledOps.h - The ops a schedule script applies to ----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Before the transform script of the schedules is generated
// (ScheduleScript.h), every annotated op is checked and described: its loop
// nest, its fused consumers and the producer of its init, its inlined
// producers (a `tensor.pad` is rewritten into a gather first) and the
// footprints of its shared operands. Its schedule attributes are replaced by
// `tessel.anchor` markers, which the script matches.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_SCHEDULEDOPS_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_SCHEDULEDOPS_H

#include "tessel/Dialect/Tessel/IR/Schedule.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <vector>

namespace mlir {
namespace tessel {

/// One op whose schedule the script applies.
struct ScheduledOp {
  /// Value of the `tessel.anchor` marker of the op.
  int64_t anchor = 0;
  /// Markers of the fused elementwise consumers, in chain order.
  SmallVector<int64_t> consumerAnchors;
  /// Marker of the linalg op producing the op's init, when it is fused.
  std::optional<int64_t> initAnchor;
  SketchAttr sketch;
  ConfigAttr config;
  LoopNest nest;
  /// For every fused consumer, the op loop that each consumer loop runs.
  SmallVector<SmallVector<unsigned>> consumerLoops;
  /// For the fused init producer, the op loop of each of its loops.
  SmallVector<unsigned> initLoops;
  /// Per shared operand, the block-level footprint of each of its dims.
  SmallVector<SmallVector<int64_t>> sharedFootprints;
  /// Markers of the inlined producers, one per `sketch.getInlined()` operand.
  /// Each is an injective linalg op with an identity init map (a
  /// `tensor.pad` is rewritten into one, see rewritePadAsGather).
  SmallVector<int64_t> inlinedAnchors;
  /// Whether the op can be vectorized (projected-permutation maps, or
  /// window indices that its register-level tile reads through strided
  /// views, see WindowAccesses.h), which register accumulation relies on.
  bool vectorizable = false;
  /// Whether its register-level tile is vectorizable only once it reads
  /// window views.
  bool readsWindows = false;
};

/// Replaces the schedule attributes of every annotated op in `module` by
/// `tessel.anchor` markers and describes each op. Reports a diagnostic and
/// fails when a schedule cannot be applied.
FailureOr<std::vector<ScheduledOp>> prepareScheduledOps(ModuleOp module);

/// Gives every linalg op of `module` that is outside any `scf.forall` and
/// `gpu.launch` (ops created by bufferization, such as copies) a default
/// schedule and describes it, numbering markers from `firstAnchor`.
FailureOr<std::vector<ScheduledOp>> prepareLeftoverOps(ModuleOp module,
                                                       int64_t firstAnchor);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_SCHEDULEDOPS_H
