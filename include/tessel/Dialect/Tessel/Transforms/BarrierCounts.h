//===- BarrierCounts.h - Barriers a kernel's threads wait at ---*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// How often one thread of a kernel waits at a block barrier over its whole
// run: the dynamic count, not the static one. The measured H200 and H100
// data (docs/SimulatedGpu.md, "Barriers") say that this count, times the
// waves of blocks, ranks synchronously staged kernels better than their
// arithmetic: a barrier after a round of global loads makes every warp of
// the block wait for the slowest load, so each such barrier exposes a
// global memory latency.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_BARRIERCOUNTS_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_BARRIERCOUNTS_H

#include "tessel/Dialect/Tessel/IR/Schedule.h"
#include "tessel/Dialect/Tessel/IR/TesselAttrs.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

#include <optional>

namespace mlir {
namespace tessel {

/// The barriers one thread of a kernel executes.
struct KernelBarrierCounts {
  /// `gpu.barrier`s executed per thread: each barrier counted once for
  /// every iteration of its enclosing loops.
  int64_t barriers = 0;
  /// Of these, the barriers that wait for a synchronous global load: the
  /// thread loaded global memory (`memref.load`, `vector.load`,
  /// `vector.transfer_read`, `vector.maskedload` of a buffer outside
  /// shared and private memory) since its previous barrier, in program
  /// order (the loads after a loop body's last barrier count for the first
  /// barrier of the next iteration). Asynchronous copies (`cp.async`) do not
  /// count: a pipelined loop waits for copies issued steps earlier.
  int64_t loadBarriers = 0;
  /// Whether every enclosing loop had a constant trip count; otherwise the
  /// counts use the loops' constant upper bounds, or one iteration where
  /// there is none.
  bool exact = true;
};

/// Counts the barriers of the body of `launch` (loops: `scf.for` with
/// constant bounds, nested `scf.if` branches both visited).
KernelBarrierCounts countKernelBarriers(gpu::LaunchOp launch);

/// The counts `countKernelBarriers` gives the kernel of `op` scheduled by
/// `sketch` and `config` under the default barrier placement
/// (`barriers=dependences`, docs/Barriers.md), without compiling it, where
/// they follow from the schedule alone: a contraction (matmul, batch
/// matmul) under a `multi_level_tiling` sketch with register accumulators
/// and no fused consumers or inlined producers. A
/// synchronously staged kernel waits twice per step of its staging loops
/// (after the copy, which waits for the global loads, and before the next
/// copy overwrites the tiles), a pipelined one (`stages` > 1) once, for
/// copies issued steps earlier; an unstaged one never. std::nullopt for
/// other schedules (convolutions stage their windows in more rounds).
std::optional<KernelBarrierCounts>
estimateKernelBarriers(linalg::LinalgOp op, SketchAttr sketch,
                       ConfigAttr config, const LoopNest &nest);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_BARRIERCOUNTS_H
