//===- SketchRules.cpp - Ansor's GPU sketch rules for linalg ops ----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Search/SketchRules.h"
#include "tessel/Dialect/Tessel/IR/TensorCore.h"
#include "tessel/Dialect/Tessel/IR/Schedule.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tessel;

/// Inputs that the body reads: tensors whose block argument is used. A
/// pooling op's window operand, which only carries the window shape, is not.
static SmallVector<int64_t> getReadInputs(linalg::LinalgOp op) {
  SmallVector<int64_t> inputs;
  for (int64_t i = 0, e = op.getNumDpsInputs(); i < e; ++i) {
    OpOperand *operand = op.getDpsInputOperand(i);
    if (isa<ShapedType>(operand->get().getType()) &&
        op.payloadUsesValueFromOperand(operand))
      inputs.push_back(i);
  }
  return inputs;
}

bool tessel::hasDataReuse(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0)
    return false;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  // Loops of extent 1 (a unit loop added for a keepdim result) repeat
  // nothing.
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  int64_t missing = 0;
  for (int64_t input : getReadInputs(op)) {
    AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(input));
    for (auto [loop, type] : llvm::enumerate(iterators)) {
      if (type == utils::IteratorType::parallel && extents[loop] != 1 &&
          !map.isFunctionOfDim(loop)) {
        ++missing;
        break;
      }
    }
  }
  // TVM: two inputs that miss a space loop, or one in an op that reduces.
  return missing >= 1;
}

double tessel::getInputReuse(linalg::LinalgOp op, int64_t input) {
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  if (llvm::any_of(extents, ShapedType::isDynamic))
    return 1;
  double iterations = 1;
  for (int64_t extent : extents)
    iterations *= static_cast<double>(extent);
  AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(input));
  return iterations / static_cast<double>(getFootprint(map, extents));
}

bool tessel::isMaterializable(SketchAttr sketch) {
  // Every kind materializes; cross_thread_reduction since its sketches are
  // generated only for ops that getCrossThreadReductionBlocker accepts.
  (void)sketch;
  return true;
}

std::vector<SketchAttr>
tessel::generateSketches(linalg::LinalgOp op, int64_t fusedConsumers,
                         const SketchOptions &options) {
  std::vector<SketchAttr> sketches;
  FailureOr<LoopNest> nest = LoopNest::get(op);
  if (failed(nest) || !llvm::is_contained(nest->isReduction, false))
    return sketches;
  MLIRContext *ctx = op->getContext();
  // Ansor always inlines strict-inlinable producers. Here their computation
  // moves into the cooperative load of the operand's shared tile, so a
  // sketch inlines the producers of the operands it stages; the others stay
  // kernels of their own.
  SmallVector<int64_t> inlinable = getInlinableInputs(op);
  auto make = [&](SketchKind kind, ArrayRef<int64_t> shared,
                  bool registerAccumulator) {
    SmallVector<int64_t> inlined;
    for (int64_t operand : shared)
      if (llvm::is_contained(inlinable, operand))
        inlined.push_back(operand);
    sketches.push_back(SketchAttr::get(
        ctx, kind, SketchAttr::getDefaultStructure(kind), shared,
        registerAccumulator, fusedConsumers, inlined));
  };

  // Injective ops: blocks and threads (TVM inlines or skips them; a
  // standalone injective kernel is bound to blocks and threads).
  if (op.getNumReductionLoops() == 0) {
    make(SketchKind::TwoLevelInjective, {}, false);
    return sketches;
  }

  int64_t space = 1, reduction = 1;
  for (auto [extent, isReduction] : llvm::zip(nest->extents, nest->isReduction))
    (isReduction ? reduction : space) *= extent;

  bool reuse = hasDataReuse(op);
  if (reuse) {
    // Multi-level tiling (with fusion), the reused inputs staged in shared
    // memory (TVM's CacheRead(shared)) and the output tile accumulated in
    // registers (CacheWrite(local)).
    SmallVector<int64_t> all = getReadInputs(op);
    SmallVector<int64_t> reused;
    for (int64_t input : all)
      if (getInputReuse(op, input) >= kMinSharedReuse)
        reused.push_back(input);
    // Inputs read only a few times each may be cheaper straight from global
    // memory: then also try staging only the reused ones, and nothing.
    make(SketchKind::MultiLevelTiling, all, true);
    if (reused != all) {
      make(SketchKind::MultiLevelTiling, reused, true);
      if (!reused.empty())
        make(SketchKind::MultiLevelTiling, {}, true);
    }
  } else {
    // Other reductions: TVM's Skip rule, each thread reduces its outputs
    // serially, accumulating in registers (the default schedule's; a
    // column sum or split-K's combining kernel then runs no barrier) or
    // in the output.
    make(SketchKind::MultiLevelTiling, {}, true);
    make(SketchKind::MultiLevelTiling, {}, false);
  }

  // Tensor cores (not an Ansor rule): warps of mma.sync, accumulators in
  // their fragments. The epilogue of fused consumers would read fragments
  // other lanes wrote, so only unfused contractions get it.
  // Nor does it inline producers. f32 contractions compute in TF32, only
  // when the user allows it.
  if (options.includeTensorCore && fusedConsumers == 0 && inlinable.empty() &&
      getTensorCoreBlocker(op).empty() &&
      (options.includeTf32 || !isTf32Contraction(op)))
    make(SketchKind::TensorCore, {0, 1}, false);

  // Cross-thread reduction (TVM's RuleCrossThreadReduction on GPU).
  bool crossThread = reuse ? space <= kCrossThreadMaxSpace && space < reduction
                           : reduction > kCrossThreadMinReduction;
  // The split over threads needs one reduction loop and a combiner with a
  // neutral element (Schedule.h).
  if (crossThread && options.includeCrossThreadReduction &&
      getCrossThreadReductionBlocker(op, fusedConsumers).empty())
    make(SketchKind::CrossThreadReduction, {}, false);
  return sketches;
}
