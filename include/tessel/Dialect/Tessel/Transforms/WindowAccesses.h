//===- WindowAccesses.h - Window indices as strided views -------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The rewrite of ops whose window indices (a convolution's `oh * s + kh`)
// are read through strided views (IR/WindowViews.h), before vectorization.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_WINDOWACCESSES_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_WINDOWACCESSES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace tessel {

/// Rewrites `op` (buffer semantics, static loop ranges, an indexing map that
/// is not a projected permutation) as a `linalg.generic` of the same body
/// that reads window views (`memref.subview`s) through projected
/// permutations. Fails, changing nothing, when getWindowViews does.
FailureOr<linalg::GenericOp> rewriteWindowAccesses(RewriterBase &rewriter,
                                                   linalg::LinalgOp op);

/// Applies rewriteWindowAccesses to every linalg op under `root` that has
/// static loop ranges and an indexing map that is not a projected
/// permutation; returns how many were rewritten.
int64_t rewriteWindowAccessesIn(RewriterBase &rewriter, Operation *root);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_WINDOWACCESSES_H
