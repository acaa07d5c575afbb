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

#include "tessel/Dialect/Tessel/IR/Schedule.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineMap.h"

#include <optional>

namespace mlir {
namespace tessel {

/// The chain of single-use elementwise consumers that `op`'s sketch fuses.
/// Empty when the sketch fuses none or `op` has no sketch.
SmallVector<Operation *> getFusedConsumers(linalg::LinalgOp op);

/// The producer of `op`'s init that the kernel of `op`, scheduled with
/// `sketch`, computes: with fused consumers, the single-use producer of the
/// init into a `tensor.empty` (the block's accumulator); without, a
/// single-use `linalg.fill` of a `tensor.empty` when `sketch` is a
/// `multi_level_tiling` of an op with a reduction loop written through a
/// projected permutation (each thread fills the accumulators it updates).
/// Null when the kernel reads its init from memory.
Operation *getKernelInitProducer(linalg::LinalgOp op, SketchAttr sketch);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_FUSIONANALYSIS_H
