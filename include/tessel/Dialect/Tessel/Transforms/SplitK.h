//===- SplitK.h - Contractions split along their reduction ------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_SPLITK_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_SPLITK_H

#include "mlir/IR/Operation.h"

namespace mlir {
namespace tessel {

/// Splits the reduction of every linalg op under `root` that carries
/// `tessel.split_k = S` into a partial op of `S` parallel parts and a
/// combining reduction (upstream's linalg::splitReduction, the split dim
/// outermost), and with `factor` > 1 every contraction without the
/// attribute whose reduction extent `factor` divides. Fails, with an error
/// at the op, when an op asked for it by attribute cannot be split.
/// `applyTesselFusion` calls it first (factor 0), so tasks, records and
/// kernels see the split ops wherever fusion runs.
LogicalResult applySplitK(Operation *root, int64_t factor = 0);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_SPLITK_H
