//===- WarpMma.h - Warp-level contractions as mma.sync ------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The last step of a tensor_core schedule: after vectorization and hoisting,
// each warp holds its accumulators as 16x8 vectors carried by the staging
// loop, updated by 16x8x16 `vector.contract`s of operand tiles read from
// shared memory. Upstream's VectorToGPU (NVGPU flavour) turns them into
// `nvgpu.mma.sync` on per-lane fragments and the reads into `nvgpu.ldmatrix`.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_WARPMMA_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_WARPMMA_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace tessel {

/// Rewrites the warp-level vector contractions under `root` (a `gpu.launch`
/// of a tensor_core schedule) into `nvgpu.mma.sync`: first forwards the
/// init's stores into the accumulators' first reads, folds input extensions
/// into the contractions and puts them into the instruction's layout, then
/// runs the conversion. Fails with an error on `root` when a contraction is
/// left over (the schedule would silently compute on CUDA cores). Contractions
/// of f32 inputs become TF32 `mma.sync` only with `allowTf32`; without it
/// they are an error, since TF32 rounds the inputs to a 10-bit mantissa.
/// Contractions of bf16 inputs are converted on their staged tiles viewed as
/// f16 (same fragment layouts) and become bf16 `mma.sync`, which
/// `tessel-lower-bf16-mma-sync` lowers to NVVM.
LogicalResult convertWarpContractionsToMmaSync(RewriterBase &rewriter,
                                               Operation *root,
                                               bool allowTf32 = false);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_WARPMMA_H
