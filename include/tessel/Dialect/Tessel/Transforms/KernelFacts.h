//===- KernelFacts.h - What a scheduled op asks of the GPU ------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The facts of one kernel that follow from an op and its schedule, before
// anything is compiled: the work it does, the bytes it moves through global
// and shared memory, its register tile, its access widths. Materialization
// records them on every kernel it creates (`tessel.kernel_facts` on the
// module, keyed by the outlined kernel module), so a model of the GPU
// (`sim:<device>`) can time the compiled kernel together with what ptxas
// reported. The formulas are listed in docs/SimulatedGpu.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_KERNELFACTS_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_KERNELFACTS_H

#include "tessel/Dialect/Tessel/IR/Schedule.h"
#include "tessel/Dialect/Tessel/IR/TesselDialect.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <optional>
#include <string>

namespace mlir {
namespace tessel {

/// Schedule facts of one kernel; byte and FLOP counts are for the whole grid.
struct KernelFacts {
  /// Name of the op the kernel runs, without its dialect (e.g. "matmul").
  std::string opName;
  /// Floating-point (or integer) operations of the grid; an FMA counts 2.
  double flops = 0;
  /// Unique bytes read from and written to global memory.
  int64_t globalBytesRead = 0;
  int64_t globalBytesWritten = 0;
  /// Bytes requested from global memory by all blocks together, counting
  /// data that several blocks (or unstaged threads) read again.
  int64_t globalBytesRequested = 0;
  /// Bytes stored to and loaded from shared memory by the grid.
  int64_t sharedBytesMoved = 0;
  /// Independent accumulators per thread held in registers.
  int64_t registerTile = 1;
  /// Elements per global load of the staged operands.
  int64_t vectorWidth = 1;
  /// Bytes per element of the result.
  int64_t elementBytes = 4;
  /// Whether adjacent threads of a warp touch adjacent result elements.
  bool coalesced = true;
  /// Threads of a warp that read the same shared-memory bank (1 = none).
  int64_t bankConflictDegree = 1;
  /// The largest bank-conflict degree of the kernel's shared loads and of
  /// its shared stores, from the addresses of its first warp
  /// (SharedBankConflicts.h; 0 when not analyzed or none).
  int64_t sharedLoadConflicts = 0;
  int64_t sharedStoreConflicts = 0;
  /// Barriers one thread executes over the kernel, and of them those that
  /// wait for a synchronous global load (BarrierCounts.h; -1 when not
  /// counted: the facts of a schedule, not of a compiled kernel).
  int64_t barriersPerThread = -1;
  int64_t loadBarriersPerThread = -1;
  /// Unroll factor of the innermost loops (1 when not unrolled).
  int64_t unroll = 1;
  /// Share of the lanes that carry data in the rounds of the cooperative
  /// loads into shared memory (1 when every round keeps every thread busy,
  /// or nothing is staged); below 1 when the threads do not divide a tile
  /// and the load is predicated (getCooperativeLoadChunk).
  double loadLaneUse = 1;
  /// Shared-memory buffers per staged operand: the `stages` of a pipelined
  /// staging loop (1 = synchronous staging).
  int64_t pipelineStages = 1;
  /// Vector loads one thread issues per staging step, all staged operands
  /// together (0 when nothing is staged).
  int64_t loadsPerStep = 0;
  /// Tensor-core kernels: the 16x8x16 mma.sync tiles one warp computes per
  /// step of 16 along K, and the ldmatrix loads of their operand fragments
  /// (0 for other kernels).
  int64_t mmaTilesPerWarp = 0;
  int64_t mmaLoadsPerWarp = 0;
  /// Tensor-core kernels of f32 inputs: mma.sync m16n8k8 in TF32 (the tiles
  /// above are 16x8 per step of 8 along K).
  bool tf32 = false;

  /// The facts as a dictionary attribute (integers as i64, flops as f64).
  /// `mma_tiles` and `mma_loads` only for tensor-core kernels, `tf32` only
  /// for TF32 ones;
  /// `stages` and `loads_per_step` are written only for pipelined kernels,
  /// so the facts of other kernels read as before.
  DictionaryAttr toAttribute(MLIRContext *context) const;
  /// Reads facts written by toAttribute; std::nullopt if a field is missing.
  static std::optional<KernelFacts> fromAttribute(DictionaryAttr attr);
};

/// Arithmetic operations per iteration of the body of `op`: every arith or
/// math op that computes a non-index value (constants excluded), and 2 for a
/// contraction (a multiply-add, whatever extensions of its operands the body
/// spells out); a convolution's or pooling's extensions (f16 inputs) are not
/// counted either. The FLOPs of `op` are this count times its iterations (a
/// matmul: 2MNK).
int64_t countBodyOperations(linalg::LinalgOp op);

/// Computes the facts of `op` scheduled by `sketch` and `config`, with its
/// fused elementwise `consumers` (in chain order; the last one writes the
/// result). Fails for dynamic shapes.
FailureOr<KernelFacts> computeKernelFacts(linalg::LinalgOp op,
                                          ArrayRef<linalg::LinalgOp> consumers,
                                          SketchAttr sketch, ConfigAttr config);

/// Name of the module attribute mapping each outlined kernel module to the
/// facts of its kernel.
constexpr llvm::StringLiteral kKernelFactsAttrName =
    TesselDialect::kKernelFactsAttrName;
/// Name of the attribute carrying the facts of a kernel on its `gpu.launch`
/// until the kernel is outlined.
constexpr llvm::StringLiteral kLaunchFactsAttrName =
    TesselDialect::kFactsAttrName;

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_KERNELFACTS_H
