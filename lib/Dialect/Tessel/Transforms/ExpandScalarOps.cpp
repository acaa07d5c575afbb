//===- ExpandScalarOps.cpp - Give ops without a parallel loop one ---------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/ExpandScalarOps.h"
#include "tessel/Dialect/Tessel/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELEXPANDSCALAROPS
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;
using namespace mlir::tessel;

/// `tensor<T>` -> `tensor<1xT>`.
static Value expandScalar(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  auto expanded = RankedTensorType::get({1}, type.getElementType());
  return tensor::ExpandShapeOp::create(b, loc, expanded, value,
                                       ArrayRef<ReassociationIndices>{});
}

bool tessel::isReductionToScalar(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumLoops() == 0 ||
      op.getNumParallelLoops() != 0 ||
      llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
    return false;
  return llvm::all_of(op.getDpsInits(), [](Value init) {
    return cast<RankedTensorType>(init.getType()).getRank() == 0;
  });
}

LogicalResult tessel::addUnitParallelLoop(RewriterBase &rewriter,
                                          linalg::LinalgOp op) {
  rewriter.setInsertionPoint(op);
  if (!isa<linalg::GenericOp, linalg::FillOp>(op.getOperation())) {
    // Named ops have no form with another loop: go through the generic one
    // (a loop-less named op keeps its old diagnostic).
    FailureOr<linalg::GenericOp> generic = failure();
    if (op.getNumLoops() != 0)
      generic = linalg::generalizeNamedOp(rewriter, op);
    if (failed(generic))
      return op->emitError() << "cannot compile '" << op->getName()
                             << "' without loops for the GPU";
    op = *generic;
  }
  Location loc = op.getLoc();
  MLIRContext *ctx = op->getContext();
  int64_t loops = op.getNumLoops() + 1;
  AffineMap elementMap = AffineMap::get(loops, 0, getAffineDimExpr(0, ctx));
  SmallVector<Value> inputs, inits;
  SmallVector<AffineMap> maps;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    // Scalars stay scalars; 0-d tensors are read through a broadcast map.
    inputs.push_back(operand->get());
    maps.push_back(op.getMatchingIndexingMap(operand).shiftDims(1));
  }
  for (OpOperand &operand : op.getDpsInitsMutable()) {
    inits.push_back(expandScalar(rewriter, loc, operand.get()));
    maps.push_back(elementMap);
  }
  Operation *expanded;
  if (isa<linalg::FillOp>(op.getOperation())) {
    // A fill's scalar input is not a shaped operand of a generic body.
    expanded = linalg::FillOp::create(rewriter, loc, inputs, inits);
  } else {
    SmallVector<utils::IteratorType> iterators = {
        utils::IteratorType::parallel};
    llvm::append_range(iterators, op.getIteratorTypesArray());
    auto generic =
        linalg::GenericOp::create(rewriter, loc, TypeRange(ValueRange(inits)),
                                  inputs, inits, maps, iterators);
    rewriter.inlineRegionBefore(op->getRegion(0), generic.getRegion(),
                                generic.getRegion().begin());
    generic.getRegion().walk([&](linalg::IndexOp index) {
      rewriter.modifyOpInPlace(index,
                               [&] { index.setDim(index.getDim() + 1); });
    });
    expanded = generic;
  }
  SmallVector<Value> results;
  for (Value result : expanded->getResults())
    results.push_back(tensor::CollapseShapeOp::create(
        rewriter, loc, result, ArrayRef<ReassociationIndices>{}));
  rewriter.replaceOp(op, results);
  return success();
}

namespace {
struct TesselExpandScalarOpsPass
    : public tessel::impl::TesselExpandScalarOpsBase<
          TesselExpandScalarOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.getNumLoops() == 0 || isReductionToScalar(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      // Loop-less generics and fills on buffers are left to the lowering.
      if (!op.hasPureTensorSemantics() &&
          isa<linalg::GenericOp, linalg::FillOp>(op.getOperation()))
        continue;
      if (failed(addUnitParallelLoop(rewriter, op)))
        return signalPassFailure();
    }
  }
};
} // namespace
