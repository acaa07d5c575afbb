//===- LowerKernelVectors.cpp - n-D vectors of kernels to 1-D -------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The NVVM lowering converts 1-D vectors only. Kernels whose epilogue or
// inlined producers compute on a register tile with unit dimensions
// (`vector<4x1x1xf32>` for a convolution tile of 4 channels) keep such
// vectors in constants and elementwise ops that the script's vector
// lowering did not see (constants were hoisted out of the launch and sunk
// back when outlining). This pass drops unit dimensions and lowers the
// shape casts, broadcasts and strided slices that remain.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/Passes.h"

#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELLOWERKERNELVECTORS
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;

namespace {
struct TesselLowerKernelVectorsPass
    : public tessel::impl::TesselLowerKernelVectorsBase<
          TesselLowerKernelVectorsPass> {
  using Base::Base;

  void runOnOperation() override {
    // Two phases: the lowering of shape casts creates ops on vectors with
    // unit dims (inserts into `vector<4x1xf32>`) that the unit-dim patterns
    // would turn back into shape casts, without end (seen on MobileBERT).
    RewritePatternSet dropUnitDims(&getContext());
    vector::populateDropUnitDimWithShapeCastPatterns(dropUnitDims);
    vector::populateCastAwayVectorLeadingOneDimPatterns(dropUnitDims);
    if (failed(applyPatternsGreedily(getOperation(), std::move(dropUnitDims))))
      return signalPassFailure();
    RewritePatternSet lower(&getContext());
    vector::populateVectorShapeCastLoweringPatterns(lower);
    vector::populateVectorBroadcastLoweringPatterns(lower);
    // Strided slices of register tiles (a reduction tile split between two
    // consumers) become shuffles: the NVVM lowering has no pattern for them.
    vector::populateVectorInsertExtractStridedSliceTransforms(lower);
    if (failed(applyPatternsGreedily(getOperation(), std::move(lower))))
      return signalPassFailure();
  }
};
} // namespace
