//===- OccupancyTest.cpp - Tests of the occupancy calculation -------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Occupancy.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

DeviceDescription getDevice(llvm::StringRef id) {
  llvm::Expected<DeviceDescription> device = findDevice(id);
  if (!device) {
    ADD_FAILURE() << llvm::toString(device.takeError());
    return DeviceDescription();
  }
  return *device;
}

TEST(OccupancyTest, H100LimitedByRegisters) {
  // 64 regs * 32 threads = 2048 registers per warp (a multiple of 256);
  // 65536 / 2048 = 32 warps = 4 blocks of 8 warps.
  Occupancy occ = computeOccupancy(getDevice("h100"), 256, 64, 0);
  EXPECT_EQ(occ.blocksPerSm, 4);
  EXPECT_EQ(occ.limit, OccupancyLimit::Registers);
  EXPECT_EQ(occ.warpsPerBlock, 8);
  EXPECT_EQ(occ.registersPerWarp, 2048);
  EXPECT_EQ(occ.activeWarpsPerSm, 32);
  EXPECT_DOUBLE_EQ(occ.ratio, 0.5);
  EXPECT_EQ(occ.blocksLimitByWarps, 8);
  EXPECT_EQ(occ.blocksLimitByBlocks, 32);
}

TEST(OccupancyTest, RegisterAllocationUnitRoundsUp) {
  // 33 regs * 32 = 1056, rounded up to 1280 per warp: 65536 / 1280 = 51
  // warps = 6 blocks of 8 warps (not 7 as 65536 / 1056 = 62 warps gives).
  Occupancy occ = computeOccupancy(getDevice("h100"), 256, 33, 0);
  EXPECT_EQ(occ.registersPerWarp, 1280);
  EXPECT_EQ(occ.blocksPerSm, 6);
  EXPECT_EQ(occ.limit, OccupancyLimit::Registers);
}

TEST(OccupancyTest, H100LimitedBySharedMemory) {
  // 48 KiB + 1 KiB reserved per block; 228 KiB / 49 KiB = 4.
  Occupancy occ = computeOccupancy(getDevice("h100"), 128, 32, 48 * 1024);
  EXPECT_EQ(occ.blocksPerSm, 4);
  EXPECT_EQ(occ.limit, OccupancyLimit::SharedMemory);
  EXPECT_EQ(occ.sharedMemoryPerBlockBytes, 49 * 1024);
}

TEST(OccupancyTest, SharedMemoryAllocationUnitRoundsUp) {
  // V100: 256-byte units and no reservation. 32769 bytes round up to 33024
  // and 98304 / 33024 = 2, where 32768 bytes give 3.
  DeviceDescription v100 = getDevice("v100");
  Occupancy occ = computeOccupancy(v100, 64, 32, 32769);
  EXPECT_EQ(occ.sharedMemoryPerBlockBytes, 33024);
  EXPECT_EQ(occ.blocksPerSm, 2);
  EXPECT_EQ(occ.limit, OccupancyLimit::SharedMemory);
  occ = computeOccupancy(v100, 64, 32, 32768);
  EXPECT_EQ(occ.blocksPerSm, 3);
}

TEST(OccupancyTest, LimitedByWarpsAndBlocks) {
  DeviceDescription h100 = getDevice("h100");
  Occupancy occ = computeOccupancy(h100, 1024, 32, 0);
  EXPECT_EQ(occ.blocksPerSm, 2);
  EXPECT_EQ(occ.limit, OccupancyLimit::Warps);
  EXPECT_DOUBLE_EQ(occ.ratio, 1.0);

  occ = computeOccupancy(h100, 32, 32, 0);
  EXPECT_EQ(occ.blocksPerSm, 32);
  EXPECT_EQ(occ.limit, OccupancyLimit::Blocks);
  EXPECT_DOUBLE_EQ(occ.ratio, 0.5);

  // A partial warp still takes a whole warp.
  occ = computeOccupancy(h100, 80, 0, 0);
  EXPECT_EQ(occ.warpsPerBlock, 3);
  EXPECT_EQ(occ.blocksPerSm, 21);
  EXPECT_EQ(occ.limit, OccupancyLimit::Warps);
}

TEST(OccupancyTest, CannotLaunch) {
  DeviceDescription h100 = getDevice("h100");
  Occupancy occ = computeOccupancy(h100, 1025, 32, 0);
  EXPECT_FALSE(occ.canLaunch());
  EXPECT_EQ(occ.limit, OccupancyLimit::BlockSize);

  occ = computeOccupancy(h100, 128, 256, 0);
  EXPECT_FALSE(occ.canLaunch());
  EXPECT_EQ(occ.limit, OccupancyLimit::RegistersPerThread);

  occ = computeOccupancy(h100, 128, 32, 232449);
  EXPECT_FALSE(occ.canLaunch());
  EXPECT_EQ(occ.limit, OccupancyLimit::SharedMemoryPerBlock);

  // 1024 threads * 128 registers = 131072 > 65536: not one block fits.
  occ = computeOccupancy(h100, 1024, 128, 0);
  EXPECT_FALSE(occ.canLaunch());
  EXPECT_EQ(occ.limit, OccupancyLimit::Registers);
}

TEST(OccupancyTest, Waves) {
  WaveQuantization waves = computeWaves(320, 1, 128);
  EXPECT_EQ(waves.waves, 3);
  EXPECT_EQ(waves.blocksPerWave, 128);
  EXPECT_NEAR(waves.efficiency, 0.8333, 1e-4);

  waves = computeWaves(528, 4, 132);
  EXPECT_EQ(waves.waves, 1);
  EXPECT_DOUBLE_EQ(waves.efficiency, 1.0);

  waves = computeWaves(529, 4, 132);
  EXPECT_EQ(waves.waves, 2);
  EXPECT_NEAR(waves.efficiency, 529.0 / 1056.0, 1e-12);

  waves = computeWaves(10, 0, 132);
  EXPECT_EQ(waves.waves, 0);
  EXPECT_EQ(waves.efficiency, 0);
}

TEST(OccupancyTest, LimitNames) {
  EXPECT_EQ(stringifyOccupancyLimit(OccupancyLimit::Registers), "registers");
  EXPECT_EQ(stringifyOccupancyLimit(OccupancyLimit::SharedMemory),
            "shared_memory");
}

} // namespace
