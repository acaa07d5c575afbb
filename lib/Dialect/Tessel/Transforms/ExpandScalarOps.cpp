//===- ExpandScalarOps.cpp - Give 0-d linalg ops one loop -----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELEXPANDSCALAROPS
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;

/// `tensor<T>` -> `tensor<1xT>`.
static Value expandScalar(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  auto expanded = RankedTensorType::get({1}, type.getElementType());
  return tensor::ExpandShapeOp::create(b, loc, expanded, value,
                                       ArrayRef<ReassociationIndices>{});
}

/// Rewrites a loop-less linalg op on 0-d tensors into a one-loop generic.
static LogicalResult expand(linalg::LinalgOp op, IRRewriter &rewriter) {
  if (op.getNumLoops() != 0 || !op.hasPureTensorSemantics())
    return success();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  MLIRContext *ctx = op->getContext();
  AffineMap scalarMap = AffineMap::get(1, 0, {}, ctx);
  AffineMap elementMap = AffineMap::getMultiDimIdentityMap(1, ctx);
  SmallVector<Value> inputs, inits;
  SmallVector<AffineMap> maps;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    // Scalars stay scalars; 0-d tensors are read through a broadcast map.
    inputs.push_back(operand->get());
    maps.push_back(scalarMap);
  }
  for (OpOperand &operand : op.getDpsInitsMutable()) {
    inits.push_back(expandScalar(rewriter, loc, operand.get()));
    maps.push_back(elementMap);
  }
  if (isa<linalg::FillOp>(op.getOperation())) {
    // A fill's scalar input is not a shaped operand of a generic body.
    auto fill = linalg::FillOp::create(rewriter, loc, inputs, inits);
    SmallVector<Value> results;
    for (Value result : fill->getResults())
      results.push_back(tensor::CollapseShapeOp::create(
          rewriter, loc, result, ArrayRef<ReassociationIndices>{}));
    rewriter.replaceOp(op, results);
    return success();
  }
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange(ValueRange(inits)), inputs, inits, maps,
      SmallVector<utils::IteratorType>{utils::IteratorType::parallel});
  rewriter.inlineRegionBefore(op->getRegion(0), generic.getRegion(),
                              generic.getRegion().begin());
  SmallVector<Value> results;
  for (Value result : generic->getResults())
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
      if (op.getNumLoops() == 0)
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      // Only generic and fill ops have a form with one loop here.
      if (!isa<linalg::GenericOp, linalg::FillOp>(op.getOperation())) {
        op->emitError() << "cannot compile '" << op->getName()
                        << "' without loops for the GPU";
        return signalPassFailure();
      }
      if (failed(expand(op, rewriter)))
        return signalPassFailure();
    }
  }
};
} // namespace
