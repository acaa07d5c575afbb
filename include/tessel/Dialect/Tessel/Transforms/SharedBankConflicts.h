//===- SharedBankConflicts.h - Banks a warp's shared accesses hit -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The static bank-conflict degree of each shared-memory access of a kernel,
// from the addresses the lanes of its first warp compute (block 0, every
// loop at its first iteration). Shared memory serves a warp's request in
// phases: all 32 lanes for accesses of up to 4 bytes a lane, 16 lanes for 8
// bytes, 8 for 16 (a quarter warp of ld.shared.v4). Within a phase, lanes
// reading the same 4-byte word share it (a broadcast); distinct words in
// one of the 32 banks of 4 bytes are served one after the other. The degree
// of an access is the most distinct words of one bank in any phase: 1 is
// conflict-free.
//
// The widths are those of the PTX: like LLVM's load/store vectorizer, the
// analysis combines accesses of one buffer in one block (no barrier, region
// op or access of the other direction between them) whose lanes' addresses
// are the first's plus one offset each and together cover an aligned 8 or
// 16 bytes in every lane (the scalar reads of a register fragment become one
// ld.shared.v4).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_SHAREDBANKCONFLICTS_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_SHAREDBANKCONFLICTS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace tessel {

/// The bank-conflict degree of one shared-memory access of a warp.
struct SharedAccessConflicts {
  Operation *op = nullptr;
  bool isLoad = true;
  /// Bytes one lane accesses.
  int64_t bytesPerLane = 0;
  /// Most distinct words one bank serves in one phase; 0 when the address
  /// is not a function of the thread id, the block id, loop induction
  /// variables and constants, or the buffer's layout is unknown.
  int64_t degree = 0;
};

/// The shared-memory accesses of `launch`, combined as above
/// (`vector.load` / `vector.store` of
/// rank-1 vectors, `memref.load` / `memref.store`, the shared destination
/// of `nvgpu.device_async_copy`) with their degree over the first warp of
/// the block, in program order; a combined access is reported at its first
/// op, with the combined bytes a lane. Buffers are workgroup `memref.get_global`s
/// and `memref.alloca`s, seen through `memref.view` and `memref.subview`.
/// Empty when the block size is not constant.
SmallVector<SharedAccessConflicts>
getSharedBankConflicts(gpu::LaunchOp launch, int64_t banks = 32);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_SHAREDBANKCONFLICTS_H
