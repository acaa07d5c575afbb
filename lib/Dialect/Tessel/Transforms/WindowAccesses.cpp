//===- WindowAccesses.cpp - Window indices as strided views ---------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/WindowAccesses.h"
#include "tessel/Dialect/Tessel/IR/WindowViews.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tessel;

FailureOr<linalg::GenericOp>
tessel::rewriteWindowAccesses(RewriterBase &rewriter, linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op->getNumRegions() != 1)
    return failure();
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  if (llvm::any_of(extents, ShapedType::isDynamic))
    return failure();
  FailureOr<SmallVector<WindowView>> views =
      getWindowViews(op.getIndexingMapsArray(), extents);
  if (failed(views))
    return failure();
  // Every view must lie within its operand's static shape.
  for (auto [operand, view] : llvm::zip(op->getOpOperands(), *views)) {
    if (view.unchanged)
      continue;
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !type.hasStaticShape())
      return failure();
    for (auto [dim, size] : llvm::enumerate(type.getShape()))
      if (view.offsets[dim] + (view.sizes[dim] - 1) * view.strides[dim] >=
          size)
        return failure();
  }

  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  for (auto [operand, view] : llvm::zip(op->getOpOperands(), *views)) {
    maps.push_back(view.map);
    if (view.unchanged) {
      operands.push_back(operand.get());
      continue;
    }
    operands.push_back(memref::SubViewOp::create(
        rewriter, loc, operand.get(), view.offsets, view.sizes, view.strides));
  }
  unsigned numInputs = op.getNumDpsInputs();
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange(),
      ArrayRef<Value>(operands).take_front(numInputs),
      ArrayRef<Value>(operands).drop_front(numInputs), maps,
      op.getIteratorTypesArray());
  rewriter.inlineRegionBefore(op->getRegion(0), generic.getRegion(),
                              generic.getRegion().begin());
  // Keep the op's markers, not what linalg caches about its structure.
  for (NamedAttribute attr : op->getDiscardableAttrs())
    if (!attr.getName().strref().starts_with("linalg."))
      generic->setAttr(attr.getName(), attr.getValue());
  rewriter.eraseOp(op);
  return generic;
}

int64_t tessel::rewriteWindowAccessesIn(RewriterBase &rewriter,
                                        Operation *root) {
  SmallVector<linalg::LinalgOp> candidates;
  root->walk([&](linalg::LinalgOp op) {
    if (!llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
          return map.isProjectedPermutation();
        }))
      candidates.push_back(op);
  });
  int64_t rewritten = 0;
  for (linalg::LinalgOp op : candidates)
    if (succeeded(rewriteWindowAccesses(rewriter, op)))
      ++rewritten;
  return rewritten;
}
