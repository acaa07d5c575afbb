//===- WarpMma.cpp - Warp-level contractions as mma.sync ------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/WarpMma.h"

#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::tessel;

LogicalResult tessel::convertWarpContractionsToMmaSync(RewriterBase &rewriter,
                                                       Operation *root,
                                                       bool allowTf32) {
  // The init's zeros go straight into the accumulators; its stores, which
  // the final stores overwrite, disappear.
  vector::transferOpflowOpt(rewriter, root);
  MLIRContext *ctx = root->getContext();
  // Extensions first: the layout patterns transpose operands, and an
  // extension under a transpose no longer folds.
  RewritePatternSet extensions(ctx);
  vector::populateFoldArithExtensionPatterns(extensions);
  RewritePatternSet layout(ctx);
  populatePrepareVectorToMMAPatterns(layout, /*useNvGpu=*/true);
  if (failed(applyPatternsGreedily(root, std::move(extensions))))
    return root->emitError("tensor_core: folding the input extensions into "
                           "the warp contractions did not converge");
  // TF32 is a decision of the user, not of the schedule: refuse it before
  // rewriting anything else. (f16 inputs are f16 again once their
  // extensions are folded.)
  WalkResult strictF32 = root->walk([&](vector::ContractionOp contract) {
    if (allowTf32 || !getElementTypeOrSelf(contract.getLhsType()).isF32())
      return WalkResult::advance();
    root->emitError("tensor_core on f32 inputs computes in TF32 (inputs "
                    "rounded to a 10-bit mantissa); allow it explicitly "
                    "(allow-tf32)");
    return WalkResult::interrupt();
  });
  if (strictF32.wasInterrupted())
    return failure();
  if (failed(applyPatternsGreedily(root, std::move(layout))))
    return root->emitError("tensor_core: preparing the warp contractions for "
                           "mma.sync did not converge");
  if (failed(convertVectorToNVVMCompatibleMMASync(rewriter, root)))
    return root->emitError("tensor_core: converting the warp contractions to "
                           "mma.sync failed");
  // Upstream builds f32 mma.sync without saying TF32, which NVGPU's
  // lowering needs.
  root->walk([&](nvgpu::MmaSyncOp mma) {
    if (mma.getMatrixA().getType().getElementType().isF32())
      mma.setTf32Enabled(true);
  });
  // The conversion leaves the replaced vector ops dead; sweep them.
  (void)applyPatternsGreedily(root, RewritePatternSet(ctx));
  // Reported at the kernel, which carries the location of the user's op.
  WalkResult leftover = root->walk([&](vector::ContractionOp contract) {
    root->emitError("tensor_core: a warp contraction did not become "
                    "mma.sync")
            .attachNote()
        << "the contraction: " << *contract.getOperation();
    return WalkResult::interrupt();
  });
  return failure(leftover.wasInterrupted());
}
