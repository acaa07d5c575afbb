//===- BoundScoresTest.cpp - Fasor's MS and CS substitutes ----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/BoundScores.h"

#include "gtest/gtest.h"

using namespace mlir::tessel;
using namespace mlir::tessel::fasor;

namespace {

DeviceDescription getH100() {
  llvm::Expected<DeviceDescription> device = findDevice("h100");
  EXPECT_TRUE(static_cast<bool>(device)) << llvm::toString(device.takeError());
  return device ? *device : DeviceDescription();
}

/// A kernel of one second that moves half the DRAM bandwidth's bytes and
/// does a quarter of the FP32 peak's FLOP: MS 0.5, CS 0.25.
TEST(BoundScoresTest, FractionsOfThePeaks) {
  DeviceDescription h100 = getH100();
  ASSERT_GT(h100.dramBandwidthGbps, 0);
  KernelFacts facts;
  facts.globalBytesRead = static_cast<int64_t>(h100.dramBandwidthGbps * 1e9 * 0.4);
  facts.globalBytesWritten = static_cast<int64_t>(h100.dramBandwidthGbps * 1e9 * 0.1);
  facts.flops = h100.fp32PeakGflops * 1e9 * 0.25;
  BoundScores scores = getBoundScores(facts, 1e6, h100);
  EXPECT_NEAR(scores.memoryBound, 0.5, 1e-9);
  EXPECT_NEAR(scores.computeBound, 0.25, 1e-9);
  // Twice as fast: twice the fractions.
  scores = getBoundScores(facts, 0.5e6, h100);
  EXPECT_NEAR(scores.memoryBound, 1.0, 1e-9);
  EXPECT_NEAR(scores.computeBound, 0.5, 1e-9);
  // Faster than the peaks (a cached or simulated run): clamped.
  scores = getBoundScores(facts, 0.25e6, h100);
  EXPECT_EQ(scores.memoryBound, 1.0);
  EXPECT_NEAR(scores.computeBound, 1.0, 1e-9);
  // No time: no scores.
  scores = getBoundScores(facts, 0, h100);
  EXPECT_EQ(scores.memoryBound, 0);
  EXPECT_EQ(scores.computeBound, 0);
}

/// Tensor-core kernels are measured against the tensor peak of their
/// inputs' type.
TEST(BoundScoresTest, TensorCorePeaks) {
  DeviceDescription h100 = getH100();
  ASSERT_GT(h100.fp16TensorPeakGflops, 0);
  ASSERT_GT(h100.tf32TensorPeakGflops, 0);
  KernelFacts facts;
  facts.mmaTilesPerWarp = 32;
  facts.flops = h100.fp16TensorPeakGflops * 1e9 * 0.5;
  EXPECT_NEAR(getBoundScores(facts, 1e6, h100).computeBound, 0.5, 1e-9);
  facts.tf32 = true;
  facts.flops = h100.tf32TensorPeakGflops * 1e9 * 0.5;
  EXPECT_NEAR(getBoundScores(facts, 1e6, h100).computeBound, 0.5, 1e-9);
}

} // namespace
