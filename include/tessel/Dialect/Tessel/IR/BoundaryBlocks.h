//===- BoundaryBlocks.h - Tiles that cover awkward extents ------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A loop whose extent no good tile divides (a prime) can be covered by
// ceil(extent / T) blocks of T threads, the last block partly idle. The
// `two_level_injective` sketch allows such boundary blocks
// (docs/SearchSpace.md).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_IR_BOUNDARYBLOCKS_H
#define TESSEL_DIALECT_TESSEL_IR_BOUNDARYBLOCKS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
namespace tessel {

/// Threads per block with which a `two_level_injective` schedule may cover a
/// loop of `extent` iterations with boundary blocks (ceil(extent / threads)
/// blocks, the last one partly idle): the powers of two from 32 to 1024, when
/// the extent is awkward, i.e. larger than 1024 with no divisor from 32 to
/// 1024 (a prime such as 8191, 50257 = 29 * 1733). Empty for other extents:
/// one of their divisors (at most 1024: the extent itself) is a good tile.
SmallVector<int64_t> getBoundaryBlockThreads(int64_t extent);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_IR_BOUNDARYBLOCKS_H
