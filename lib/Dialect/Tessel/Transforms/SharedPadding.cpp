//===- SharedPadding.cpp - Padded rows of promoted shared tiles -----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A matmul's A tile is stored M-major in shared memory (the layout of A in
// global memory, so the cooperative copy writes whole vectors). When the
// lanes of a warp that read A in one request phase hold different rows,
// their addresses are a row pitch apart, and a pitch that is a multiple of
// 128 bytes puts them in the same banks. Padding each row by the vector
// width (`pad` in the config, issue 41 item 4) skews consecutive rows by
// that many words, as CUTLASS's padded shared layouts do, while every row
// stays aligned for vector and cp.async copies.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/SharedPadding.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::tessel;

/// Whether every use of `value`, through subviews, is an operand of a linalg
/// op (the op itself and the cooperative copy into the tile).
static bool isUsedByLinalgOpsOnly(Value value) {
  return llvm::all_of(value.getUsers(), [](Operation *user) {
    if (auto subview = dyn_cast<memref::SubViewOp>(user))
      return isUsedByLinalgOpsOnly(subview.getResult());
    return isa<linalg::LinalgOp>(user);
  });
}

/// Replaces every use of `from` by `to`, a view of the same elements with
/// another layout: subviews are rebuilt on `to` (their result types follow
/// the new strides), linalg ops take it as it is.
static void replaceTileUses(RewriterBase &rewriter, Value from, Value to) {
  for (OpOperand &use : llvm::make_early_inc_range(from.getUses())) {
    Operation *user = use.getOwner();
    if (auto subview = dyn_cast<memref::SubViewOp>(user)) {
      rewriter.setInsertionPoint(subview);
      Value rebuilt = memref::SubViewOp::create(
          rewriter, subview.getLoc(), to, subview.getMixedOffsets(),
          subview.getMixedSizes(), subview.getMixedStrides());
      replaceTileUses(rewriter, subview.getResult(), rebuilt);
      rewriter.eraseOp(subview);
      continue;
    }
    rewriter.modifyOpInPlace(user, [&] { use.set(to); });
  }
}

LogicalResult tessel::padPromotedTile(RewriterBase &rewriter,
                                      OpOperand &operand, int64_t pad,
                                      std::string &why) {
  if (pad == 0)
    return success();
  Value tile = operand.get();
  if (auto partial = tile.getDefiningOp<memref::SubViewOp>())
    tile = partial.getSource();
  auto view = tile.getDefiningOp<memref::ViewOp>();
  auto bytes =
      view ? view.getSource().getDefiningOp<memref::AllocaOp>() : nullptr;
  if (!view || !bytes || !bytes->hasOneUse())
    return why = "operand " + std::to_string(operand.getOperandNumber()) +
                 " is not a promoted shared tile",
           failure();
  // Promote views the byte array with constant sizes (its full tile).
  MemRefType type = view.getType();
  SmallVector<int64_t> shape;
  unsigned dynamicIndex = 0;
  for (int64_t size : type.getShape()) {
    if (!ShapedType::isDynamic(size)) {
      shape.push_back(size);
      continue;
    }
    std::optional<int64_t> constant =
        getConstantIntValue(view.getSizes()[dynamicIndex++]);
    if (!constant)
      break;
    shape.push_back(*constant);
  }
  if (shape.size() != static_cast<size_t>(type.getRank()) ||
      type.getRank() == 0 || !type.getLayout().isIdentity() ||
      !type.getElementType().isIntOrFloat() ||
      type.getElementTypeBitWidth() % 8 != 0 ||
      !bytes.getType().hasStaticShape())
    return why = "the shared tile of operand " +
                 std::to_string(operand.getOperandNumber()) +
                 " has no static row-major shape",
           failure();
  if (!isUsedByLinalgOpsOnly(view.getResult()))
    return why = "the shared tile of operand " +
                 std::to_string(operand.getOperandNumber()) +
                 " is used by an op other than linalg's",
           failure();

  SmallVector<int64_t> paddedShape(shape);
  paddedShape.back() += pad;
  int64_t elementBytes = type.getElementTypeBitWidth() / 8;
  // The byte array grows by the padding (whatever the view's byte shift).
  int64_t paddedBytes = bytes.getType().getNumElements() +
                        (ShapedType::getNumElements(paddedShape) -
                         ShapedType::getNumElements(shape)) *
                            elementBytes;
  Location loc = view.getLoc();
  rewriter.setInsertionPoint(bytes);
  auto paddedBytesType = MemRefType::get(
      {paddedBytes}, bytes.getType().getElementType(),
      MemRefLayoutAttrInterface(), bytes.getType().getMemorySpace());
  auto paddedBuffer = memref::AllocaOp::create(
      rewriter, bytes.getLoc(), paddedBytesType, bytes.getAlignmentAttr());
  rewriter.setInsertionPoint(view);
  auto paddedType =
      MemRefType::get(paddedShape, type.getElementType(),
                      MemRefLayoutAttrInterface(), type.getMemorySpace());
  Value paddedView =
      memref::ViewOp::create(rewriter, loc, paddedType, paddedBuffer,
                             view.getByteShift(), ValueRange());
  SmallVector<OpFoldResult> offsets(type.getRank(), rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes;
  for (int64_t size : shape)
    sizes.push_back(rewriter.getIndexAttr(size));
  SmallVector<OpFoldResult> strides(type.getRank(), rewriter.getIndexAttr(1));
  Value rows = memref::SubViewOp::create(rewriter, loc, paddedView, offsets,
                                         sizes, strides);
  replaceTileUses(rewriter, view.getResult(), rows);
  rewriter.eraseOp(view);
  rewriter.eraseOp(bytes);
  return success();
}
