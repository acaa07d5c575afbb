//===- LowerBf16MmaSync.cpp - bf16 nvgpu.mma.sync to NVVM -----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Upstream's NVGPU-to-NVVM conversion has no PTX type for bf16 fragments
// ("failed to deduce operand PTX types"), although NVVM's mma.sync takes
// them: bf16 multiplicands travel as 32-bit registers of two values each.
// This pass lowers bf16 `nvgpu.mma.sync` at the vector level, before that
// conversion, so the later vector and LLVM conversions see ordinary ops.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/Passes.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELLOWERBF16MMASYNC
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;

namespace {
/// Rewrites one bf16 `nvgpu.mma.sync` accumulating in f32 into
/// `nvvm.mma.sync` (A row-major, B column-major, as NVGPU's fragments are).
struct LowerBf16MmaSync : OpRewritePattern<nvgpu::MmaSyncOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(nvgpu::MmaSyncOp mma,
                                PatternRewriter &rewriter) const override {
    VectorType aType = mma.getMatrixA().getType();
    VectorType cType = mma.getMatrixC().getType();
    if (!aType.getElementType().isBF16() ||
        !mma.getMatrixB().getType().getElementType().isBF16())
      return rewriter.notifyMatchFailure(mma, "not a bf16 mma.sync");
    if (!cType.getElementType().isF32())
      return rewriter.notifyMatchFailure(mma, "bf16 accumulates in f32");
    Location loc = mma.getLoc();
    // Each row of a multiplicand fragment (two bf16) is one 32-bit register.
    // Its bits may come from a fragment of another 16-bit type through a
    // bitcast of the same shape (Tessel converts bf16 tiles as f16, WarpMma.h);
    // the rows are read from that fragment, so no n-D bitcast is left.
    auto registers = [&](Value fragment) {
      while (auto cast = fragment.getDefiningOp<vector::BitCastOp>()) {
        if (cast.getSourceVectorType().getShape() !=
            cast.getResultVectorType().getShape())
          break;
        fragment = cast.getSource();
      }
      auto type = cast<VectorType>(fragment.getType());
      auto word = VectorType::get({1}, rewriter.getI32Type());
      SmallVector<Value> values;
      for (int64_t row = 0; row < type.getDimSize(0); ++row) {
        Value pair = vector::ExtractOp::create(rewriter, loc, fragment, row);
        Value bits = vector::BitCastOp::create(rewriter, loc, word, pair);
        values.push_back(vector::ExtractOp::create(rewriter, loc, bits, 0));
      }
      return values;
    };
    SmallVector<Value> a = registers(mma.getMatrixA());
    SmallVector<Value> b = registers(mma.getMatrixB());
    // The accumulator's values in row-major order, as the result struct
    // returns them.
    SmallVector<Value> accumulators;
    for (int64_t row = 0; row < cType.getDimSize(0); ++row)
      for (int64_t col = 0; col < cType.getDimSize(1); ++col)
        accumulators.push_back(vector::ExtractOp::create(
            rewriter, loc, mma.getMatrixC(), ArrayRef<int64_t>{row, col}));
    auto resultType = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(),
        SmallVector<Type>(accumulators.size(), rewriter.getF32Type()));
    Value result = NVVM::MmaOp::create(
        rewriter, loc, resultType, a, b, accumulators, mma.getMmaShapeAsArray(),
        /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
        std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                      NVVM::MMATypes::bf16},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    SmallVector<Value> elements;
    for (int64_t i = 0, e = accumulators.size(); i < e; ++i)
      elements.push_back(LLVM::ExtractValueOp::create(rewriter, loc, result,
                                                      ArrayRef<int64_t>{i}));
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(mma, cType, elements);
    return success();
  }
};

struct TesselLowerBf16MmaSyncPass
    : public tessel::impl::TesselLowerBf16MmaSyncBase<
          TesselLowerBf16MmaSyncPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<LowerBf16MmaSync>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
