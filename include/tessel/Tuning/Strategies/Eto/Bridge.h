//===- Bridge.h - ETO's bridge operators (Definition 5) ---------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A bridge operator gamma of two tasks alpha and beta of the same kind is the
// op with the element-wise minimum of their loop extents, unit strides and
// dilations and no padding (ETO, Definition 5): smaller than both, so gamma's
// best program can be reused for alpha and for beta even when neither of them
// can be reused for the other. Bridges are tuned but never emitted with the
// model. A bridge task has no fused consumers and no inlined producers, its
// init is a zero fill and its weight is 0 (it does not occur in the model);
// see docs/EtoSelection.md for these decisions.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_ETO_BRIDGE_H
#define TESSEL_TUNING_STRATEGIES_ETO_BRIDGE_H

#include "tessel/Tuning/Search/Task.h"

#include "llvm/Support/Error.h"

#include <vector>

namespace mlir {
namespace tessel {

/// How two loop extent vectors compare (Definition 2's size condition).
enum class ExtentOrder {
  /// Every extent equal.
  Equal,
  /// Every extent <=, one <.
  Smaller,
  /// Every extent >=, one >.
  Larger,
  /// Some extent <, some >: neither is a reuse partner of the other.
  Incomparable,
  /// Different numbers of loops.
  Mismatched,
};

/// How `a` compares with `b`, extent by extent.
ExtentOrder compareExtents(ArrayRef<int64_t> a, ArrayRef<int64_t> b);

/// The loop extents of the task's target op (static loop ranges).
SmallVector<int64_t> getLoopExtents(const TuningTask &task);

/// Whether the two sketch lists hold the same sketches once fused consumers
/// and inlined producers are ignored (as sets: order does not matter). A
/// bridge's sketches differ from its operands' at most in those.
bool haveSameSketchStructure(ArrayRef<SketchAttr> a, ArrayRef<SketchAttr> b);

/// Succeeds when bridges can be built from ops like `op`: a named matmul,
/// batch matmul, convolution (plain, depthwise, grouped) or pooling op on
/// static tensors with one init, whose indexing maps become sums of loop
/// dimensions once strides and dilations are 1. The error names the op and
/// says why not.
llvm::Error checkBridgeable(linalg::LinalgOp op);

/// The task of an op like `like` (same name, element types and attributes)
/// with loop extents `extents`, strides and dilations 1, inputs read from
/// function arguments, and its init a zero fill: the operand shapes are the
/// indexing maps evaluated at the largest index of every loop, plus one. The
/// task is made by extractTasks on the built module (key, FLOPs, sketches
/// the Tessel way), with weight 0.
llvm::Expected<TuningTask>
buildTaskWithExtents(linalg::LinalgOp like, ArrayRef<int64_t> extents,
                     MLIRContext *context,
                     const TaskExtractionOptions &options = {});

/// The bridge of `alpha` and `beta` (Definition 5): the op of `alpha`'s kind
/// with the element-wise minimum of both tasks' loop extents. Fails when the
/// tasks differ in op, element types or attributes other than strides and
/// dilations, or checkBridgeable fails.
llvm::Expected<TuningTask>
buildBridge(const TuningTask &alpha, const TuningTask &beta,
            MLIRContext *context, const TaskExtractionOptions &options = {});

/// A bridge and the first pair of tasks (by index) it bridges.
struct BridgeTask {
  TuningTask task;
  size_t alpha = 0;
  size_t beta = 0;
};

/// Options of findOneHopBridges.
struct BridgeOptions {
  /// Only bridge tasks whose sketches have the same structure
  /// (haveSameSketchStructure), and keep a bridge only when its own do too
  /// (otherwise it is a reuse partner of neither, Definition 2).
  bool requireSameSketches = true;
  /// How bridge tasks are extracted from their modules.
  TaskExtractionOptions extraction;
};

/// The 1-hop bridge set of `tasks` (ETO section 6.2): the bridge of every
/// pair of bridgeable tasks with the same op, element types and attributes
/// (strides and dilations aside) whose extents are Incomparable (not already
/// a reuse pair), deduplicated by workload key, without bridges whose key is
/// that of a task or of a task's plain form (its op alone with unit strides
/// and dilations, as buildTaskWithExtents makes it). Tasks that cannot be
/// bridged are skipped. In order of the first pair (alpha < beta).
llvm::Expected<std::vector<BridgeTask>>
findOneHopBridges(ArrayRef<TuningTask> tasks, MLIRContext *context,
                  const BridgeOptions &options = {});
/// The same over tasks held elsewhere (a tuning session's).
llvm::Expected<std::vector<BridgeTask>>
findOneHopBridges(ArrayRef<const TuningTask *> tasks, MLIRContext *context,
                  const BridgeOptions &options = {});

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_ETO_BRIDGE_H
