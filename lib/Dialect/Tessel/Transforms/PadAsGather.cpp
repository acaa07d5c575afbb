//===- PadAsGather.cpp - Pads rewritten into tileable gathers -------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/PadAsGather.h"
#include "tessel/Dialect/Tessel/IR/TesselDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tessel;

linalg::GenericOp tessel::rewritePadAsGather(RewriterBase &rewriter,
                                             tensor::PadOp pad) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(pad);
  Location loc = pad.getLoc();
  RankedTensorType resultType = pad.getResultType();
  ArrayRef<int64_t> sourceShape = pad.getSourceType().getShape();
  SmallVector<int64_t> low = llvm::to_vector(pad.getStaticLow());
  SmallVector<int64_t> high = llvm::to_vector(pad.getStaticHigh());
  Value padding = pad.getConstantPaddingValue();
  // A constant defined in the pad's region moves out with the pad.
  if (pad.getRegion().isAncestor(padding.getParentRegion()))
    padding = rewriter.clone(*padding.getDefiningOp())->getResult(0);
  Value source = pad.getSource();
  Value empty = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                        resultType.getElementType());
  int64_t rank = resultType.getRank();
  SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{resultType}, ValueRange{}, ValueRange{empty},
      maps, iterators, [&](OpBuilder &b, Location l, ValueRange) {
        auto constant = [&](int64_t v) -> Value {
          return arith::ConstantIndexOp::create(b, l, v);
        };
        SmallVector<Value> indices;
        Value outside;
        for (int64_t d = 0; d < rank; ++d) {
          Value index = linalg::IndexOp::create(b, l, d);
          if (low[d] == 0 && high[d] == 0) {
            indices.push_back(index);
            continue;
          }
          Value shifted =
              low[d] ? arith::SubIOp::create(b, l, index, constant(low[d]))
                           .getResult()
                     : index;
          // Unsigned: a negative index is out of bounds too.
          Value out =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::uge, shifted,
                                    constant(sourceShape[d]));
          outside =
              outside ? arith::OrIOp::create(b, l, outside, out).getResult()
                      : out;
          // Clamped, so that the read stays inside the source.
          Value clamped = arith::MinSIOp::create(
              b, l, arith::MaxSIOp::create(b, l, shifted, constant(0)),
              constant(sourceShape[d] - 1));
          indices.push_back(clamped);
        }
        Value value = tensor::ExtractOp::create(b, l, source, indices);
        if (outside)
          value = arith::SelectOp::create(b, l, outside, padding, value);
        linalg::YieldOp::create(b, l, value);
      });
  generic->setAttr(TesselDialect::kInlinedPadAttrName, rewriter.getUnitAttr());
  rewriter.replaceOp(pad, generic->getResults());
  return generic;
}
