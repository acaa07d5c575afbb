//===- ScheduleScript.h - Schedules as upstream transform scripts -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A Tessel schedule (sketch + config) is applied by a transform-dialect
// script made of upstream ops only. This header builds that script; the
// materialization pass interprets it and the emission pass writes it out.
// See docs/Materialization.md for the steps of the script.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_SCHEDULESCRIPT_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_SCHEDULESCRIPT_H

#include "tessel/Dialect/Tessel/IR/Schedule.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

#include <string>
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
  /// Whether the op can be vectorized (projected-permutation maps), which
  /// register accumulation relies on.
  bool vectorizable = false;
};

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

/// The chain of single-use elementwise consumers that `op`'s sketch fuses.
/// Empty when the sketch fuses none or `op` has no sketch.
SmallVector<Operation *> getFusedConsumers(linalg::LinalgOp op);

/// The longest chain, of at most `maxCount` ops, of elementwise consumers
/// that a sketch of `op` could fuse: each op of the chain is an all-parallel
/// linalg op with one result that reads the single-use result of the
/// previous one (the first reads `op`'s) once, through a permutation map.
/// Does not look at `op`'s sketch.
SmallVector<Operation *> getFusibleConsumers(linalg::LinalgOp op,
                                             int64_t maxCount);

/// Rewrites `pad`, which must have static shapes and padding and a padding
/// value defined outside its region or by a constant, into an all-parallel
/// `linalg.generic` on `tensor.empty` that reads the source with
/// `tensor.extract` at clamped indices and selects the padding value outside
/// the source. Unlike the pad, the generic can be tiled into static tiles and
/// fused into a consumer's loops. The generic is marked
/// `TesselDialect::kInlinedPadAttrName`.
linalg::GenericOp rewritePadAsGather(RewriterBase &rewriter,
                                     tensor::PadOp pad);

/// Replaces the schedule attributes of every annotated op in `module` by
/// `tessel.anchor` markers and describes each op. Reports a diagnostic and
/// fails when a schedule cannot be applied.
FailureOr<std::vector<ScheduledOp>> prepareScheduledOps(ModuleOp module);

/// The text of a `module attributes {transform.with_named_sequence}` holding
/// `@__transform_main`, which applies the schedules of `ops`.
std::string buildScheduleScript(ArrayRef<ScheduledOp> ops,
                                const ScheduleScriptOptions &options,
                                ScheduleScriptPart part = ScheduleScriptPart::Full);

/// Gives every linalg op of `module` that is outside any `scf.forall` and
/// `gpu.launch` (ops created by bufferization, such as copies) a default
/// schedule and describes it, numbering markers from `firstAnchor`.
FailureOr<std::vector<ScheduledOp>> prepareLeftoverOps(ModuleOp module,
                                                      int64_t firstAnchor);

/// Name of the entry point of the script.
constexpr llvm::StringLiteral kScheduleEntryPoint = "__transform_main";

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_SCHEDULESCRIPT_H
