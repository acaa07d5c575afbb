//===- SketchRules.h - Ansor's GPU sketch rules for linalg ops --*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The sketches of a task follow Ansor's GPU derivation rules (TVM
// auto_scheduler, sketch_policy_rules.cc) applied to one linalg op:
//
// * multi-level tiling "SSSRRSRS" for ops with data reuse, with the reused
//   inputs staged in shared memory, a register accumulator and the fused
//   elementwise consumers;
// * the simple "skip" sketch for other reductions: multi-level tiling
//   without staging or register tiles;
// * cross-thread reduction "SRR" for reductions with little space
//   parallelism and one reduction loop;
// * two-level "SS" for injective ops.
//
// The conditions and thresholds are listed in docs/SearchSpace.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_SEARCH_SKETCHRULES_H
#define TESSEL_TUNING_SEARCH_SKETCHRULES_H

#include "tessel/Dialect/Tessel/IR/TesselAttrs.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <vector>

namespace mlir {
namespace tessel {

/// Options of the sketch rules.
struct SketchOptions {
  /// Also return cross_thread_reduction sketches where the rule applies.
  bool includeCrossThreadReduction = true;
  /// Also return a tensor_core sketch for f16 matmul-like contractions
  /// without fused consumers (its space is empty on chips before sm_80).
  bool includeTensorCore = true;
  /// Also return a tensor_core sketch for f32 contractions, computed in
  /// TF32 (inputs rounded to a 10-bit mantissa): only when the user allows
  /// results that differ from strict fp32.
  bool includeTf32 = false;
};

/// Below this many reads of each of its elements over the op's loops, an
/// input is not worth staging in shared memory (TVM stages every input of a
/// tiled op; Tessel also tries without staging such inputs).
constexpr int64_t kMinSharedReuse = 16;
/// Largest space extent product (TVM: max_threads_per_block) under which a
/// data-reuse op also gets a cross-thread reduction sketch, when its
/// reduction is longer than its space.
constexpr int64_t kCrossThreadMaxSpace = 1024;
/// Reductions without data reuse get a cross-thread reduction sketch when
/// their reduction extent product exceeds this (TVM: the warp size).
constexpr int64_t kCrossThreadMinReduction = 32;

/// Whether `op` has data reuse in Ansor's sense (TVM's
/// NeedsMultiLevelTiling): a reduction loop and an input that some space
/// loop does not index, or two such inputs.
bool hasDataReuse(linalg::LinalgOp op);

/// Reads of each element of input `input` over the whole loop nest of `op`:
/// the iterations divided by the elements the input's map touches.
double getInputReuse(linalg::LinalgOp op, int64_t input);

/// Whether the materialization pass can apply sketches of `sketch`'s kind.
bool isMaterializable(SketchAttr sketch);

/// The sketches of `op` fusing its first `fusedConsumers` elementwise
/// consumers, most promising first. Every sketch inlines the strict-inlinable
/// producers (getInlinableProducer) of the inputs it stages in shared memory.
/// Empty for ops Tessel cannot schedule (dynamic shapes, no parallel loop).
std::vector<SketchAttr> generateSketches(linalg::LinalgOp op,
                                         int64_t fusedConsumers,
                                         const SketchOptions &options = {});

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_SEARCH_SKETCHRULES_H
