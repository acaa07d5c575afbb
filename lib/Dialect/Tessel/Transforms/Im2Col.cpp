//===- Im2Col.cpp - 2-D convolutions as im2col and a matmul ---------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/Im2Col.h"
#include "tessel/Dialect/Tessel/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELIM2COL
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;
using namespace mlir::tessel;

namespace {
/// The shapes, strides and dilations of a 2-D convolution, by role.
struct Conv2D {
  bool channelsLast = false;
  int64_t n = 0, c = 0, f = 0, kh = 0, kw = 0, oh = 0, ow = 0;
  int64_t strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
};
} // namespace

static FailureOr<Conv2D> getConv2D(linalg::LinalgOp op, std::string *reason) {
  auto fail = [&](StringRef why) -> FailureOr<Conv2D> {
    if (reason)
      *reason = why.str();
    return failure();
  };
  Conv2D conv;
  DenseIntElementsAttr strides, dilations;
  if (auto nhwc = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op.getOperation())) {
    conv.channelsLast = true;
    strides = nhwc.getStrides();
    dilations = nhwc.getDilations();
  } else if (auto nchw =
                 dyn_cast<linalg::Conv2DNchwFchwOp>(op.getOperation())) {
    strides = nchw.getStrides();
    dilations = nchw.getDilations();
  } else {
    return fail("im2col rewrites linalg.conv_2d_nhwc_hwcf and "
                "linalg.conv_2d_nchw_fchw");
  }
  if (!op.hasPureTensorSemantics() || op.hasDynamicShape())
    return fail("im2col needs static tensor shapes");
  auto shape = [&](unsigned operand) {
    return cast<ShapedType>(op->getOperand(operand).getType()).getShape();
  };
  ArrayRef<int64_t> filter = shape(1), output = shape(2);
  if (conv.channelsLast) {
    conv.n = output[0], conv.oh = output[1], conv.ow = output[2];
    conv.f = output[3];
    conv.kh = filter[0], conv.kw = filter[1], conv.c = filter[2];
  } else {
    conv.n = output[0], conv.f = output[1], conv.oh = output[2];
    conv.ow = output[3];
    conv.c = filter[1], conv.kh = filter[2], conv.kw = filter[3];
    if (conv.n != 1)
      return fail("im2col of linalg.conv_2d_nchw_fchw needs batch 1 (its "
                  "matmul would broadcast the filter over the batch)");
  }
  SmallVector<int64_t> s(strides.getValues<int64_t>()),
      d(dilations.getValues<int64_t>());
  conv.strideH = s[0], conv.strideW = s[1];
  conv.dilationH = d[0], conv.dilationW = d[1];
  return conv;
}

std::string tessel::getIm2ColBlocker(linalg::LinalgOp op) {
  std::string reason;
  return succeeded(getConv2D(op, &reason)) ? "" : reason;
}

FailureOr<linalg::MatmulOp>
tessel::rewriteConvAsIm2ColMatmul(RewriterBase &rewriter, linalg::LinalgOp op) {
  FailureOr<Conv2D> conv = getConv2D(op, nullptr);
  if (failed(conv))
    return failure();
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  Value input = op.getDpsInputOperand(0)->get();
  Value filter = op.getDpsInputOperand(1)->get();
  Value init = op.getDpsInitOperand(0)->get();
  Type inputElement = getElementTypeOrSelf(input.getType());
  Type outputElement = getElementTypeOrSelf(init.getType());

  // The patches: one loop per patch dim, the input read at
  // (o * stride + k * dilation) along each spatial dim.
  auto spatial = [](AffineExpr o, AffineExpr k, int64_t stride,
                    int64_t dilation) { return o * stride + k * dilation; };
  SmallVector<int64_t> colsShape;
  AffineMap inputMap;
  SmallVector<ReassociationIndices> colsGroups, filterGroups, outputGroups;
  if (conv->channelsLast) {
    AffineExpr n, oh, ow, kh, kw, c;
    bindDims(ctx, n, oh, ow, kh, kw, c);
    colsShape = {conv->n, conv->oh, conv->ow, conv->kh, conv->kw, conv->c};
    inputMap = AffineMap::get(
        6, 0,
        {n, spatial(oh, kh, conv->strideH, conv->dilationH),
         spatial(ow, kw, conv->strideW, conv->dilationW), c},
        ctx);
    colsGroups = {{0, 1, 2}, {3, 4, 5}};
    filterGroups = {{0, 1, 2}, {3}};
    outputGroups = {{0, 1, 2}, {3}};
  } else {
    // Loops (c, kh, kw, oh, ow); the batch is 1.
    AffineExpr c, kh, kw, oh, ow;
    bindDims(ctx, c, kh, kw, oh, ow);
    colsShape = {conv->c, conv->kh, conv->kw, conv->oh, conv->ow};
    inputMap = AffineMap::get(
        5, 0,
        {getAffineConstantExpr(0, ctx), c,
         spatial(oh, kh, conv->strideH, conv->dilationH),
         spatial(ow, kw, conv->strideW, conv->dilationW)},
        ctx);
    colsGroups = {{0, 1, 2}, {3, 4}};
    filterGroups = {{0}, {1, 2, 3}};
    outputGroups = {{0, 1}, {2, 3}};
  }
  AffineMap colsMap = AffineMap::getMultiDimIdentityMap(colsShape.size(), ctx);
  // A 1x1 window of stride 1 reads each input element once, in order: the
  // patches are the input itself, reshaped, and need no copy.
  auto inputShape = cast<ShapedType>(input.getType()).getShape();
  bool pointwise = conv->kh == 1 && conv->kw == 1 && conv->strideH == 1 &&
                   conv->strideW == 1 &&
                   inputShape[conv->channelsLast ? 1 : 2] == conv->oh &&
                   inputShape[conv->channelsLast ? 2 : 3] == conv->ow;
  Value colsMatrix;
  if (pointwise) {
    // The input has the output's layout: its spatial dims collapse alike.
    colsMatrix =
        tensor::CollapseShapeOp::create(rewriter, loc, input, outputGroups);
  } else {
    Value colsInit =
        tensor::EmptyOp::create(rewriter, loc, colsShape, inputElement);
    SmallVector<utils::IteratorType> parallel(colsShape.size(),
                                              utils::IteratorType::parallel);
    auto cols = linalg::GenericOp::create(
        rewriter, loc, colsInit.getType(), ValueRange{input},
        ValueRange{colsInit}, ArrayRef<AffineMap>{inputMap, colsMap}, parallel,
        [](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(b, l, args[0]);
        });
    colsMatrix = tensor::CollapseShapeOp::create(rewriter, loc,
                                                 cols.getResult(0), colsGroups);
  }
  Value filterMatrix =
      tensor::CollapseShapeOp::create(rewriter, loc, filter, filterGroups);

  // The accumulator: a fill of the convolution's init stays a fill (so that
  // kernels may keep it in registers), anything else is reshaped.
  auto outputType = cast<RankedTensorType>(init.getType());
  Value matrixInit;
  if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
    RankedTensorType collapsed =
        tensor::CollapseShapeOp::inferCollapsedType(outputType, outputGroups);
    Value empty = tensor::EmptyOp::create(rewriter, loc, collapsed.getShape(),
                                          outputElement);
    matrixInit =
        linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], empty)
            .getResult(0);
  } else {
    matrixInit =
        tensor::CollapseShapeOp::create(rewriter, loc, init, outputGroups);
  }
  Value lhs = conv->channelsLast ? colsMatrix : filterMatrix;
  Value rhs = conv->channelsLast ? filterMatrix : colsMatrix;
  auto matmul =
      linalg::MatmulOp::create(rewriter, loc, matrixInit.getType(),
                               ValueRange{lhs, rhs}, ValueRange{matrixInit});
  Value result = tensor::ExpandShapeOp::create(
      rewriter, loc, outputType, matmul.getResult(0), outputGroups);
  rewriter.replaceOp(op, result);
  // The convolution's own fill is dead now.
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    if (fill->use_empty())
      rewriter.eraseOp(fill);
  return matmul;
}

namespace {
struct TesselIm2ColPass
    : public tessel::impl::TesselIm2ColBase<TesselIm2ColPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> convs;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (getIm2ColBlocker(op).empty())
        convs.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp conv : convs)
      if (failed(rewriteConvAsIm2ColMatmul(rewriter, conv)))
        return signalPassFailure();
  }
};
} // namespace
