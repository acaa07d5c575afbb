//===- PadExtents.h - Padding contractions with awkward extents -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A contraction whose loop extent no good tile divides (a prime such as
// 8191, or 1021) has only tiles of 1 and the whole extent. Tessel's fusion
// pads such loops to a multiple of 128 (32 up to 1024) with zeros: the
// operands become `tensor.pad`s, which the staged loads compute with
// predication (inlined producers), and the result is the slice of the
// padded op's result (docs/Fusion.md).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_PADEXTENTS_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_PADEXTENTS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
class RewritePatternSet;

namespace tessel {

/// The extent Tessel pads an awkward contraction loop of `extent` to, or
/// `extent` when it is not awkward: above 1024 with no divisor from 32 to
/// 1024 (getBoundaryBlockThreads), the next multiple of 128; from 129 to
/// 1024 with no divisor from 16 to 128 (a prime such as 1021), the next
/// multiple of 32.
int64_t getPaddedExtent(int64_t extent);

/// Adds the pattern that pads the awkward loops of contractions (ops of
/// the contraction interface on static tensors whose maps are projected
/// permutations) with zeros.
void populatePadAwkwardContractionPatterns(RewritePatternSet &patterns);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_PADEXTENTS_H
