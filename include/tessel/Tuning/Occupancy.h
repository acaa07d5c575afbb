//===- Occupancy.h - CUDA occupancy and wave quantization -------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The CUDA occupancy calculation (as in the toolkit's cuda_occupancy.h, at
// the granularity that the device files describe): how many blocks of a
// kernel are resident on one SM, which resource limits them, and how many
// waves a grid takes.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_OCCUPANCY_H
#define TESSEL_TUNING_OCCUPANCY_H

#include "tessel/Tuning/Device.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir {
namespace tessel {

/// The resource that bounds the number of resident blocks per SM. The last
/// three mean that not even one block fits (blocksPerSm == 0).
enum class OccupancyLimit {
  /// max_blocks_per_sm.
  Blocks,
  /// max_warps_per_sm (equivalently max_threads_per_sm, in whole warps).
  Warps,
  /// The register file, allocated per warp in register_allocation_unit.
  Registers,
  /// Shared memory, allocated per block in shared_memory_allocation_unit.
  SharedMemory,
  /// The block has more threads than max_threads_per_block (or none).
  BlockSize,
  /// A thread uses more than max_registers_per_thread.
  RegistersPerThread,
  /// A block uses more than max_shared_memory_per_block_bytes.
  SharedMemoryPerBlock,
};

/// "blocks", "warps", "registers", "shared_memory", "block_size", ...
llvm::StringRef stringifyOccupancyLimit(OccupancyLimit limit);

/// The occupancy of one kernel on one SM.
struct Occupancy {
  /// Resident blocks per SM; 0 when the kernel cannot launch.
  int64_t blocksPerSm = 0;
  /// The resource that sets `blocksPerSm`. On ties, the first of warps,
  /// blocks, registers, shared memory: registers and shared memory only
  /// limit when they allow fewer blocks than the SM's own limits.
  OccupancyLimit limit = OccupancyLimit::Blocks;
  /// Warps in one block (threads rounded up to whole warps).
  int64_t warpsPerBlock = 0;
  /// blocksPerSm * warpsPerBlock.
  int64_t activeWarpsPerSm = 0;
  /// activeWarpsPerSm / max_warps_per_sm, in [0, 1].
  double ratio = 0;

  /// Blocks per SM allowed by each resource on its own.
  int64_t blocksLimitByBlocks = 0;
  int64_t blocksLimitByWarps = 0;
  int64_t blocksLimitByRegisters = 0;
  int64_t blocksLimitBySharedMemory = 0;

  /// Registers one warp is allocated (rounded up to the allocation unit).
  int64_t registersPerWarp = 0;
  /// Shared memory one block is allocated, with the allocation unit and the
  /// per-block reservation of the driver.
  int64_t sharedMemoryPerBlockBytes = 0;

  bool canLaunch() const { return blocksPerSm > 0; }
};

/// Computes the occupancy of a kernel with `threadsPerBlock` threads,
/// `registersPerThread` registers (0: unknown, no register limit) and
/// `sharedMemoryPerBlockBytes` of shared memory per block on `device`.
Occupancy computeOccupancy(const DeviceDescription &device,
                           int64_t threadsPerBlock, int64_t registersPerThread,
                           int64_t sharedMemoryPerBlockBytes);

/// How a grid maps onto the SMs in waves of `blocksPerSm * smCount` blocks.
struct WaveQuantization {
  /// ceil(blocks / (blocksPerSm * smCount)).
  int64_t waves = 0;
  /// Blocks resident in one full wave: blocksPerSm * smCount.
  int64_t blocksPerWave = 0;
  /// blocks / (waves * blocksPerWave): the fraction of the waves' block
  /// slots that do work, in (0, 1].
  double efficiency = 0;
};

/// Wave quantization of a grid of `blocks` blocks; all zero when `blocks`,
/// `blocksPerSm` or `smCount` is not positive.
WaveQuantization computeWaves(int64_t blocks, int64_t blocksPerSm,
                              int64_t smCount);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_OCCUPANCY_H
