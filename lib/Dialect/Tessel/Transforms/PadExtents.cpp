//===- PadExtents.cpp - Padding contractions with awkward extents ---------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/PadExtents.h"
#include "tessel/Dialect/Tessel/IR/BoundaryBlocks.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tessel;

/// What an awkward extent above 1024 is padded to a multiple of.
static constexpr int64_t kPadMultiple = 128;
/// What an awkward extent up to 1024 is padded to a multiple of (at most
/// 31 iterations of waste: 1021 -> 1024, 131 -> 160).
static constexpr int64_t kSmallPadMultiple = 32;

/// Whether a loop of `extent` iterations up to 1024 has no tile that both
/// gives a block a useful share of it (16 to 128 iterations) and divides
/// it: a prime such as 1021 otherwise runs as 1,021 blocks of one row.
static bool isAwkwardBelow1024(int64_t extent) {
  if (extent <= 128 || extent > 1024)
    return false;
  for (int64_t tile = 16; tile <= 128; ++tile)
    if (extent % tile == 0)
      return false;
  return true;
}

/// The multiple an awkward contraction loop is padded to, or 0.
static int64_t getPadMultiple(int64_t extent) {
  if (!getBoundaryBlockThreads(extent).empty())
    return kPadMultiple;
  if (isAwkwardBelow1024(extent))
    return kSmallPadMultiple;
  return 0;
}

int64_t tessel::getPaddedExtent(int64_t extent) {
  int64_t multiple = getPadMultiple(extent);
  return multiple ? llvm::alignTo(extent, multiple) : extent;
}

namespace {
/// Pads the awkward loops of a contraction with zeros (exact: padded
/// reduction iterations add products of zeros, padded parallel iterations
/// are sliced away).
struct PadAwkwardContraction
    : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op->getNumResults() != 1 ||
        !linalg::isaContractionOpInterface(op))
      return rewriter.notifyMatchFailure(op, "not a contraction on tensors");
    if (!llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
          return map.isProjectedPermutation();
        }))
      return rewriter.notifyMatchFailure(op, "maps are not permutations");
    SmallVector<int64_t> extents = op.getStaticLoopRanges();
    if (llvm::any_of(extents, ShapedType::isDynamic))
      return rewriter.notifyMatchFailure(op, "dynamic shapes");
    SmallVector<int64_t> dims, multiples;
    for (auto [loop, extent] : llvm::enumerate(extents)) {
      int64_t multiple = getPadMultiple(extent);
      if (!multiple)
        continue;
      dims.push_back(loop);
      multiples.push_back(multiple);
    }
    if (dims.empty())
      return rewriter.notifyMatchFailure(op, "no awkward extent");
    SmallVector<Attribute> zeros;
    for (OpOperand &operand : op->getOpOperands())
      zeros.push_back(
          rewriter.getZeroAttr(getElementTypeOrSelf(operand.get().getType())));
    linalg::LinalgPaddingOptions options;
    options.setPaddingDimensions(dims)
        .setPadToMultipleOf(multiples)
        .setPaddingValues(zeros)
        .setCopyBackOp(linalg::LinalgPaddingOptions::CopyBackOp::None);
    linalg::LinalgOp padded;
    SmallVector<Value> replacements;
    SmallVector<tensor::PadOp> pads;
    if (failed(linalg::rewriteAsPaddedOp(rewriter, op, options, padded,
                                         replacements, pads)))
      return rewriter.notifyMatchFailure(op, "upstream padding failed");
    rewriter.replaceOp(op, replacements);
    return success();
  }
};
} // namespace

void tessel::populatePadAwkwardContractionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<PadAwkwardContraction>(patterns.getContext());
}
