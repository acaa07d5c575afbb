//===- CrossThreadReduction.cpp - Ops a cross-thread reduction fits -------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A cross_thread_reduction schedule splits the reduction of each output
// element over the threads of a block with upstream
// `transform.structured.split_reduction`, which needs one reduction loop, one
// result, inputs indexed by loops and a recognizable combiner with a neutral
// element (the value every thread's partial result starts from).
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/IR/Schedule.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AffineExpr.h"

using namespace mlir;
using namespace mlir::tessel;

int64_t tessel::getCrossThreadCombineWidth(int64_t threads) {
  constexpr int64_t kWarpSize = 32;
  if (threads <= kWarpSize)
    return 1;
  for (int64_t width = kWarpSize; width > 1; --width)
    if (threads % width == 0)
      return width;
  return 1;
}

std::string tessel::getCrossThreadReductionBlocker(linalg::LinalgOp op,
                                                   int64_t fusedConsumers) {
  unsigned numReductions = op.getNumReductionLoops();
  if (numReductions != 1)
    return "cross_thread_reduction needs exactly one reduction loop; the op "
           "has " +
           std::to_string(numReductions);
  if (op.getNumDpsInits() != 1 || op->getNumResults() > 1)
    return "cross_thread_reduction needs an op with one result";
  if (op.hasIndexSemantics())
    return "cross_thread_reduction cannot split an op whose body reads "
           "linalg.index";
  for (OpOperand *input : op.getDpsInputOperands())
    if (!op.getMatchingIndexingMap(input).isProjectedPermutation())
      return "cross_thread_reduction needs inputs indexed by loops "
             "(projected permutations); input " +
             std::to_string(input->getOperandNumber()) + " is not";
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  for (AffineExpr expr : outMap.getResults()) {
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (!isa<AffineDimExpr>(expr) && !(constant && constant.getValue() == 0))
      return "cross_thread_reduction needs a result indexed by loops or the "
             "constant 0";
  }
  // Fused consumers stay in the block's loop space: the result must be
  // indexed by loops only (a kept unit dim, `(d0, 0)`, is folded away when
  // the op is alone in its kernel).
  if (fusedConsumers > 0 && !outMap.isProjectedPermutation())
    return "cross_thread_reduction with fused consumers needs a result "
           "indexed by loops only";
  SmallVector<Operation *> combiners;
  if (!matchReduction(op.getRegionOutputArgs(), 0, combiners) ||
      combiners.size() != 1)
    return "cross_thread_reduction needs a body that combines the "
           "accumulator with one operation";
  if (!arith::getNeutralElement(combiners.front()))
    return "cross_thread_reduction needs a combiner with a neutral element "
           "(such as arith.addf or arith.maximumf), not '" +
           combiners.front()->getName().getStringRef().str() + "'";
  return "";
}
