//===- Occupancy.cpp - CUDA occupancy and wave quantization ---------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Occupancy.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tessel;

llvm::StringRef mlir::tessel::stringifyOccupancyLimit(OccupancyLimit limit) {
  switch (limit) {
  case OccupancyLimit::Blocks:
    return "blocks";
  case OccupancyLimit::Warps:
    return "warps";
  case OccupancyLimit::Registers:
    return "registers";
  case OccupancyLimit::SharedMemory:
    return "shared_memory";
  case OccupancyLimit::BlockSize:
    return "block_size";
  case OccupancyLimit::RegistersPerThread:
    return "registers_per_thread";
  case OccupancyLimit::SharedMemoryPerBlock:
    return "shared_memory_per_block";
  }
  llvm_unreachable("unknown occupancy limit");
}

static int64_t roundUp(int64_t value, int64_t unit) {
  return unit <= 1 ? value : llvm::divideCeil(value, unit) * unit;
}

Occupancy mlir::tessel::computeOccupancy(const DeviceDescription &device,
                                         int64_t threadsPerBlock,
                                         int64_t registersPerThread,
                                         int64_t sharedMemoryPerBlockBytes) {
  Occupancy result;
  if (threadsPerBlock <= 0 || threadsPerBlock > device.maxThreadsPerBlock) {
    result.limit = OccupancyLimit::BlockSize;
    return result;
  }
  if (registersPerThread > device.maxRegistersPerThread) {
    result.limit = OccupancyLimit::RegistersPerThread;
    return result;
  }
  if (sharedMemoryPerBlockBytes > device.maxSharedMemoryPerBlockBytes) {
    result.limit = OccupancyLimit::SharedMemoryPerBlock;
    return result;
  }

  result.warpsPerBlock = llvm::divideCeil(threadsPerBlock, device.warpSize);
  result.blocksLimitByBlocks = device.maxBlocksPerSm;
  result.blocksLimitByWarps = std::min(
      device.maxWarpsPerSm / result.warpsPerBlock,
      device.maxThreadsPerSm / (result.warpsPerBlock * device.warpSize));

  // Registers are allocated per warp, in units of register_allocation_unit.
  result.blocksLimitByRegisters = device.maxBlocksPerSm;
  if (registersPerThread > 0) {
    result.registersPerWarp = roundUp(registersPerThread * device.warpSize,
                                      device.registerAllocationUnit);
    int64_t warpsByRegisters = device.registersPerSm / result.registersPerWarp;
    result.blocksLimitByRegisters = warpsByRegisters / result.warpsPerBlock;
  }

  // Shared memory is allocated per block, in units of the allocation unit,
  // plus what the driver reserves for each block.
  result.sharedMemoryPerBlockBytes =
      roundUp(std::max<int64_t>(sharedMemoryPerBlockBytes, 0),
              device.sharedMemoryAllocationUnitBytes) +
      device.getReservedSharedMemoryPerBlockBytes();
  result.blocksLimitBySharedMemory =
      result.sharedMemoryPerBlockBytes > 0
          ? device.sharedMemoryPerSmBytes / result.sharedMemoryPerBlockBytes
          : device.maxBlocksPerSm;

  // The smallest limit wins. On ties the hardware limits (warps, blocks) go
  // first: registers or shared memory only limit when they allow fewer blocks
  // than the SM would hold anyway.
  std::pair<int64_t, OccupancyLimit> limits[] = {
      {result.blocksLimitByWarps, OccupancyLimit::Warps},
      {result.blocksLimitByBlocks, OccupancyLimit::Blocks},
      {result.blocksLimitByRegisters, OccupancyLimit::Registers},
      {result.blocksLimitBySharedMemory, OccupancyLimit::SharedMemory},
  };
  result.blocksPerSm = limits[0].first;
  result.limit = limits[0].second;
  for (const auto &[blocks, limit] : limits) {
    if (blocks < result.blocksPerSm) {
      result.blocksPerSm = blocks;
      result.limit = limit;
    }
  }
  result.activeWarpsPerSm = result.blocksPerSm * result.warpsPerBlock;
  result.ratio = static_cast<double>(result.activeWarpsPerSm) /
                 static_cast<double>(device.maxWarpsPerSm);
  return result;
}

WaveQuantization mlir::tessel::computeWaves(int64_t blocks, int64_t blocksPerSm,
                                            int64_t smCount) {
  WaveQuantization result;
  if (blocks <= 0 || blocksPerSm <= 0 || smCount <= 0)
    return result;
  result.blocksPerWave = blocksPerSm * smCount;
  result.waves = llvm::divideCeil(blocks, result.blocksPerWave);
  result.efficiency = static_cast<double>(blocks) /
                      static_cast<double>(result.waves * result.blocksPerWave);
  return result;
}
