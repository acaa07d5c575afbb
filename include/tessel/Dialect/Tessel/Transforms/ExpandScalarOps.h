//===- ExpandScalarOps.h - Give ops without a parallel loop one -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Every kernel maps a parallel loop to blocks and threads. A linalg op
// without one (an op on 0-d tensors, or a reduction to a scalar) gets a
// leading parallel loop of extent 1, on `tensor<1xT>` inits between
// `tensor.expand_shape` and `tensor.collapse_shape`. Used by
// `--tessel-expand-scalar-ops` and, for reductions to a scalar, by the
// fusion (Fusion.h) so that tasks and records see the rewritten op.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_EXPANDSCALAROPS_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_EXPANDSCALAROPS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace tessel {

/// Whether `op` is a reduction to a scalar: it works on tensors with static
/// loop ranges, has loops but none of them parallel, and its inits are 0-d.
bool isReductionToScalar(linalg::LinalgOp op);

/// Replaces `op`, a linalg op on tensors without a parallel loop whose inits
/// are 0-d, by an op with one more, leading, parallel loop of extent 1: a
/// `linalg.fill` stays a fill, other ops become a `linalg.generic` (named
/// ops through their generic form) whose inits are `tensor<1xT>` indexed by
/// the new loop, whose other operands keep their indexing, and whose
/// `linalg.index` ops follow the shift. Fails, with an error at `op`, for an
/// op that has no generic form.
LogicalResult addUnitParallelLoop(RewriterBase &rewriter, linalg::LinalgOp op);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_EXPANDSCALAROPS_H
