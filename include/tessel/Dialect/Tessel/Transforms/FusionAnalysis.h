//===- FusionAnalysis.h - Elementwise consumers a sketch fuses --*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Which elementwise consumers of a linalg op a sketch can fuse into the op's
// kernel (`fused_consumers`), and how each consumer reads the value it fuses
// on. Shared by the default schedules, the tuner's tasks and the
// materialization (see docs/SearchSpace.md).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_FUSIONANALYSIS_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_FUSIONANALYSIS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineMap.h"

#include <optional>

namespace mlir {
namespace tessel {

/// The indexing map through which `user` reads `value`, when `user` is an
/// all-parallel linalg op that uses `value` once through a permutation map.
std::optional<AffineMap> getElementwiseUseMap(linalg::LinalgOp user,
                                              Value value);

/// The chain of single-use elementwise consumers that `op`'s sketch fuses.
/// Empty when the sketch fuses none or `op` has no sketch.
SmallVector<Operation *> getFusedConsumers(linalg::LinalgOp op);

/// The longest chain, of at most `maxCount` ops, of elementwise consumers
/// that a sketch of `op` could fuse: each op of the chain is an all-parallel
/// linalg op with one result that reads the single-use result of the
/// previous one (the first reads `op`'s) once, through a permutation map.
/// Does not look at `op`'s sketch.
SmallVector<Operation *> getFusibleConsumers(linalg::LinalgOp op,
                                             int64_t maxCount);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_FUSIONANALYSIS_H
