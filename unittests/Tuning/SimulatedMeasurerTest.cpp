//===- SimulatedMeasurerTest.cpp - Tests of the simulated GPU -------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Measure/SimulatedMeasurer.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

class SimulatedMeasurerTest : public ::testing::Test {
protected:
  SimulatedMeasurerTest() {
    llvm::Expected<DeviceDescription> found = findDevice("h100");
    if (!found) {
      ADD_FAILURE() << llvm::toString(found.takeError());
      return;
    }
    device = *found;
  }

  /// A 1024^3 FP32 matmul tiled 128x64 per block, 256 threads with a 32-entry
  /// register tile: compute-bound on H100.
  static MeasureCandidate matmul() {
    MeasureCandidate c;
    c.key = "matmul";
    c.gridBlocks = 128;
    c.blockThreads = 256;
    c.resources.name = "matmul_kernel";
    c.resources.registers = 96;
    c.resources.sharedMemoryBytes = 24 * 1024;
    c.facts.flops = 2.0 * 1024 * 1024 * 1024;
    c.facts.globalBytesRead = 2 * 1024 * 1024 * 4;
    c.facts.globalBytesWritten = 1024 * 1024 * 4;
    c.facts.globalBytesRequested = 128 * (128 + 64) * 1024 * 4 + 1024 * 1024 * 4;
    c.facts.sharedBytesMoved = 2 * c.facts.globalBytesRequested + (int64_t(1) << 30);
    c.facts.registerTile = 32;
    c.facts.vectorWidth = 4;
    c.facts.unroll = 4;
    return c;
  }

  /// An elementwise add of two 64 MiB vectors: DRAM-bound.
  static MeasureCandidate elementwise() {
    MeasureCandidate c;
    c.key = "add";
    int64_t elements = 16 * 1024 * 1024;
    c.blockThreads = 256;
    c.gridBlocks = elements / 4 / 256;
    c.resources.registers = 16;
    c.facts.flops = static_cast<double>(elements);
    c.facts.globalBytesRead = 2 * elements * 4;
    c.facts.globalBytesWritten = elements * 4;
    c.facts.vectorWidth = 4;
    return c;
  }

  /// matmul() with the memory sides out of the way (no re-reads, nothing
  /// staged): for comparisons of compute models.
  static MeasureCandidate computeOnlyMatmul() {
    MeasureCandidate c = matmul();
    c.facts.sharedBytesMoved = 0;
    c.facts.globalBytesRequested =
        c.facts.globalBytesRead + c.facts.globalBytesWritten;
    return c;
  }

  /// `c` as a tensor-core kernel: 32 mma tiles and 12 fragment loads per
  /// warp per K step.
  static MeasureCandidate onTensorCores(MeasureCandidate c) {
    c.facts.mmaTilesPerWarp = 32;
    c.facts.mmaLoadsPerWarp = 12;
    return c;
  }

  double timeOf(const MeasureCandidate &candidate) {
    SimulatedMeasurer measurer(device, /*seed=*/1, /*noiseStddev=*/0);
    SimulatedEstimate e = measurer.estimate(candidate);
    EXPECT_EQ(e.status, MeasureStatus::Ok) << e.message;
    return e.totalUs;
  }

  DeviceDescription device;
};

TEST_F(SimulatedMeasurerTest, PlausibleMagnitudes) {
  // Not a calibration, only a sanity check of units: the matmul is within
  // 1.2x-20x of the FP32 peak's time, the add within 1x-3x of the DRAM time.
  double peakUs = matmul().facts.flops / (device.fp32PeakGflops * 1e3);
  double matmulUs = timeOf(matmul());
  EXPECT_GT(matmulUs, 1.2 * peakUs);
  EXPECT_LT(matmulUs, 20 * peakUs);
  double dramUs = static_cast<double>(elementwise().getFootprintBytes()) /
                  (device.dramBandwidthGbps * 1e3);
  double addUs = timeOf(elementwise());
  EXPECT_GT(addUs, dramUs);
  EXPECT_LT(addUs, 3 * dramUs);
}

// The same matmul on tensor cores (mma.sync, 2 warps x 32 mma tiles per
// block): faster than on CUDA cores, never faster than the mma.sync ceiling
// (0.66 of the tensor peak on sm_90); more mma tiles per warp (more
// independent mma and fewer ldmatrix per mma) are faster; a device without
// a tensor peak falls back to the FP32 model.
TEST_F(SimulatedMeasurerTest, TensorCoresAreFasterAndBoundedByTheirPeak) {
  MeasureCandidate cuda = computeOnlyMatmul();
  MeasureCandidate tensor = onTensorCores(cuda);
  double cudaUs = timeOf(cuda), tensorUs = timeOf(tensor);
  EXPECT_LT(tensorUs, cudaUs / 4);
  double ceilingUs = device.launchOverheadUs +
                     tensor.facts.flops /
                         (device.fp16TensorPeakGflops * 0.66 * 1e3);
  EXPECT_GT(tensorUs, ceilingUs);
  MeasureCandidate fewer = tensor;
  fewer.facts.mmaTilesPerWarp = 2;
  fewer.facts.mmaLoadsPerWarp = 3;
  EXPECT_GT(timeOf(fewer), tensorUs);
  device.fp16TensorPeakGflops = 0;
  EXPECT_DOUBLE_EQ(timeOf(tensor), cudaUs);
}

// TF32 (m16n8k8, half the work per mma at half the peak of f16 on the
// datasheets): between the f16 tensor cores and the CUDA cores, never
// faster than its own mma.sync ceiling; without a TF32 peak, the FP32 model.
TEST_F(SimulatedMeasurerTest, Tf32IsBoundedByItsOwnPeak) {
  MeasureCandidate cuda = computeOnlyMatmul();
  MeasureCandidate half = onTensorCores(cuda);
  MeasureCandidate tf32 = half;
  tf32.facts.tf32 = true;
  double cudaUs = timeOf(cuda), halfUs = timeOf(half), tf32Us = timeOf(tf32);
  EXPECT_LT(halfUs, tf32Us);
  EXPECT_LT(tf32Us, cudaUs);
  ASSERT_GT(device.tf32TensorPeakGflops, 0);
  double ceilingUs = device.launchOverheadUs +
                     tf32.facts.flops /
                         (device.tf32TensorPeakGflops * 0.66 * 1e3);
  EXPECT_GT(tf32Us, ceilingUs);
  device.tf32TensorPeakGflops = 0;
  EXPECT_DOUBLE_EQ(timeOf(tf32), cudaUs);
}

TEST_F(SimulatedMeasurerTest, MoreSpillsAreSlower) {
  MeasureCandidate c = matmul();
  double none = timeOf(c);
  c.resources.spillStoreBytes = 32;
  c.resources.spillLoadBytes = 32;
  double some = timeOf(c);
  c.resources.spillStoreBytes = 256;
  c.resources.spillLoadBytes = 256;
  double many = timeOf(c);
  EXPECT_LT(none, some);
  EXPECT_LT(some, many);
}

TEST_F(SimulatedMeasurerTest, BlocksBeyondOneWaveAddAWave) {
  MeasureCandidate c = matmul();
  SimulatedMeasurer measurer(device, 1, 0);
  int64_t blocksPerSm = measurer.estimate(c).occupancy.blocksPerSm;
  ASSERT_GT(blocksPerSm, 0);
  double flopsPerBlock = c.facts.flops / static_cast<double>(c.gridBlocks);

  c.gridBlocks = blocksPerSm * device.smCount;
  c.facts.flops = flopsPerBlock * static_cast<double>(c.gridBlocks);
  SimulatedEstimate full = measurer.estimate(c);
  EXPECT_EQ(full.waves.waves, 1);

  c.gridBlocks += 1;
  c.facts.flops = flopsPerBlock * static_cast<double>(c.gridBlocks);
  SimulatedEstimate extra = measurer.estimate(c);
  EXPECT_EQ(extra.waves.waves, 2);
  // One more block costs a whole wave.
  EXPECT_GT(extra.totalUs, 1.8 * (full.totalUs - 3.0));
}

TEST_F(SimulatedMeasurerTest, BiggerRegisterTileIsFasterUntilSpills) {
  MeasureCandidate c = matmul();
  auto withTile = [&](int64_t tile, int64_t registers, int64_t spills) {
    c.facts.registerTile = tile;
    c.resources.registers = registers;
    c.resources.spillStoreBytes = spills;
    c.resources.spillLoadBytes = spills;
    return timeOf(c);
  };
  double tile1 = withTile(1, 32, 0);
  double tile4 = withTile(4, 40, 0);
  double tile16 = withTile(16, 64, 0);
  double tile64 = withTile(64, 128, 0);
  double tile128 = withTile(128, 255, 512);
  EXPECT_GT(tile1, tile4);
  EXPECT_GT(tile4, tile16);
  EXPECT_GT(tile16, tile64);
  EXPECT_GT(tile128, tile64);
}

TEST_F(SimulatedMeasurerTest, LowOccupancyHurtsMemoryBoundKernels) {
  MeasureCandidate c = elementwise();
  c.facts.vectorWidth = 1;
  double full = timeOf(c);
  c.resources.registers = 255;
  SimulatedMeasurer measurer(device, 1, 0);
  EXPECT_EQ(measurer.estimate(c).occupancy.limit, OccupancyLimit::Registers);
  EXPECT_GT(timeOf(c), full);
}

TEST_F(SimulatedMeasurerTest, PredicatedLoadsHurtMemoryBoundKernels) {
  MeasureCandidate c = elementwise();
  c.facts.vectorWidth = 1;
  double full = timeOf(c);
  c.facts.loadLaneUse = 0.5;
  EXPECT_GT(timeOf(c), full);
}

TEST_F(SimulatedMeasurerTest, UncoalescedIsSlower) {
  MeasureCandidate c = elementwise();
  double coalesced = timeOf(c);
  c.facts.coalesced = false;
  EXPECT_GT(timeOf(c), coalesced);

  c = matmul();
  coalesced = timeOf(c);
  c.facts.coalesced = false;
  c.facts.vectorWidth = 1;
  EXPECT_GT(timeOf(c), coalesced);
}

TEST_F(SimulatedMeasurerTest, FootprintBeyondL2IsSlower) {
  // The same requested traffic costs more when the footprint misses L2.
  MeasureCandidate c = elementwise();
  c.facts.globalBytesRead = 8 * 1024 * 1024;
  c.facts.globalBytesWritten = 0;
  c.facts.globalBytesRequested = 512 * 1024 * 1024;
  double fits = timeOf(c);
  c.facts.globalBytesRead = 256 * 1024 * 1024;
  EXPECT_GT(timeOf(c), fits);
}

TEST_F(SimulatedMeasurerTest, BankConflictsAreSlower) {
  MeasureCandidate c = matmul();
  double none = timeOf(c);
  c.facts.bankConflictDegree = 2;
  double twoWay = timeOf(c);
  c.facts.bankConflictDegree = 8;
  double eightWay = timeOf(c);
  EXPECT_LT(none, twoWay);
  EXPECT_LT(twoWay, eightWay);
}

TEST_F(SimulatedMeasurerTest, BarrierChainIsAFloorPerWave) {
  // matmul() takes about 60 us; with 8,192 barriers a thread (1,024 of them
  // after global loads) its wave takes at least the block's chain of waits.
  MeasureCandidate c = matmul();
  SimulatedMeasurer sim(device, /*seed=*/1, /*noiseStddev=*/0);
  SimulatedEstimate without = sim.estimate(c);
  EXPECT_EQ(without.latencyUs, 0.0);
  c.facts.barriersPerThread = 8192;
  c.facts.loadBarriersPerThread = 1024;
  SimulatedEstimate with = sim.estimate(c);
  ASSERT_EQ(with.status, MeasureStatus::Ok);
  double expected = (1024 * device.loadBarrierLatencyNs +
                     (8192 - 1024) * device.barrierLatencyNs) *
                    1e-3;
  ASSERT_GT(device.barrierLatencyNs, 0.0);
  EXPECT_DOUBLE_EQ(with.latencyUs, expected);
  EXPECT_EQ(with.bound, "latency");
  EXPECT_DOUBLE_EQ(with.totalUs,
                   device.launchOverheadUs + with.waves.waves * expected);
  // Fewer barriers: the other units bound it again, as without counts.
  c.facts.barriersPerThread = 2;
  c.facts.loadBarriersPerThread = 1;
  EXPECT_DOUBLE_EQ(sim.estimate(c).totalUs, without.totalUs);
}

TEST_F(SimulatedMeasurerTest, DeterministicWithSeed) {
  std::vector<MeasureCandidate> candidates = {matmul(), elementwise()};
  SimulatedMeasurer a(device, 42), b(device, 42), c(device, 43);
  std::vector<MeasureResult> ra = a.measure(candidates);
  std::vector<MeasureResult> rb = b.measure(candidates);
  std::vector<MeasureResult> rc = c.measure(candidates);
  ASSERT_EQ(ra.size(), 2u);
  ASSERT_EQ(rb.size(), 2u);
  ASSERT_EQ(rc.size(), 2u);
  for (size_t i = 0; i < ra.size(); ++i) {
    EXPECT_EQ(ra[i].timing.medianUs, rb[i].timing.medianUs);
    EXPECT_EQ(ra[i].timing.minUs, rb[i].timing.minUs);
    EXPECT_EQ(ra[i].timing.maxUs, rb[i].timing.maxUs);
    EXPECT_EQ(ra[i].timing.stddevUs, rb[i].timing.stddevUs);
    EXPECT_NE(ra[i].timing.medianUs, rc[i].timing.medianUs);
  }
}

TEST_F(SimulatedMeasurerTest, NoiseOffGivesIdenticalRepeats) {
  SimulatedMeasurer measurer(device, 7, /*noiseStddev=*/0);
  measurer.setRepeats(5);
  MeasureCandidate c = matmul();
  std::vector<MeasureResult> first = measurer.measure(c);
  std::vector<MeasureResult> second = measurer.measure(c);
  ASSERT_EQ(first.size(), 1u);
  const TimingStats &t = first[0].timing;
  EXPECT_EQ(t.repeats, 5);
  EXPECT_EQ(t.minUs, t.maxUs);
  EXPECT_EQ(t.medianUs, t.minUs);
  EXPECT_EQ(t.stddevUs, 0);
  EXPECT_EQ(t.medianUs, measurer.estimate(c).totalUs);
  EXPECT_EQ(second[0].timing.medianUs, t.medianUs);
}

TEST_F(SimulatedMeasurerTest, NoiseIsSmallAndCentered) {
  SimulatedMeasurer measurer(device, 3, /*noiseStddev=*/0.02);
  measurer.setRepeats(101);
  MeasureCandidate c = matmul();
  double expected = measurer.estimate(c).totalUs;
  MeasureResult r = measurer.measure(c).front();
  EXPECT_GT(r.timing.stddevUs, 0);
  EXPECT_LT(r.timing.minUs, r.timing.maxUs);
  EXPECT_NEAR(r.timing.medianUs / expected, 1.0, 0.01);
  EXPECT_NEAR(r.timing.stddevUs / expected, 0.02, 0.006);
}

TEST_F(SimulatedMeasurerTest, ResultsAreMarkedSimulated) {
  SimulatedMeasurer measurer(device, 1);
  EXPECT_EQ(measurer.name(), "sim:h100-sxm");
  EXPECT_TRUE(measurer.isSimulated());
  MeasureCandidate bad = matmul();
  bad.resources.registers = 300;
  for (const MeasureResult &r : measurer.measure({matmul(), bad})) {
    EXPECT_TRUE(r.simulated);
    EXPECT_EQ(r.device, "sim:h100-sxm");
  }
  MeasureResult ok = measurer.measure(matmul()).front();
  EXPECT_EQ(ok.key, "matmul");
  EXPECT_EQ(ok.resources.registers, 96);
  llvm::json::Object json = ok.toJSON();
  EXPECT_EQ(json.getString("status"), "ok");
  EXPECT_EQ(json.getBoolean("simulated"), true);
  EXPECT_EQ(json.getString("device"), "sim:h100-sxm");
  EXPECT_TRUE(json.getNumber("median_us").has_value());
}

TEST_F(SimulatedMeasurerTest, TooManyRegistersPerThread) {
  MeasureCandidate c = matmul();
  c.resources.registers = 256;
  SimulatedMeasurer measurer(device, 1);
  MeasureResult r = measurer.measure(c).front();
  EXPECT_EQ(r.status, MeasureStatus::OutOfResources);
  EXPECT_EQ(r.message, "256 registers per thread exceed the maximum of 255");
  EXPECT_EQ(r.timing.repeats, 0);
}

TEST_F(SimulatedMeasurerTest, TooMuchSharedMemoryPerBlock) {
  MeasureCandidate c = matmul();
  c.resources.sharedMemoryBytes = 232449;
  SimulatedMeasurer measurer(device, 1);
  MeasureResult r = measurer.measure(c).front();
  EXPECT_EQ(r.status, MeasureStatus::OutOfResources);
  EXPECT_EQ(r.message, "232449 bytes of shared memory per block exceed the "
                       "maximum of 232448");
}

TEST_F(SimulatedMeasurerTest, RegisterFileTooSmallForOneBlock) {
  MeasureCandidate c = matmul();
  c.blockThreads = 1024;
  c.resources.registers = 128;
  SimulatedMeasurer measurer(device, 1);
  MeasureResult r = measurer.measure(c).front();
  EXPECT_EQ(r.status, MeasureStatus::OutOfResources);
  EXPECT_EQ(r.message, "too many resources requested for launch: not one "
                       "block fits on an SM (limited by registers)");
}

TEST_F(SimulatedMeasurerTest, InvalidBlockIsALaunchError) {
  MeasureCandidate c = matmul();
  c.blockThreads = 1025;
  SimulatedMeasurer measurer(device, 1);
  MeasureResult r = measurer.measure(c).front();
  EXPECT_EQ(r.status, MeasureStatus::LaunchError);
  EXPECT_EQ(r.message, "invalid block of 1025 threads (max 1024)");
}

TEST(MeasureStatusTest, RoundTripsThroughStrings) {
  for (MeasureStatus status :
       {MeasureStatus::Ok, MeasureStatus::CompileError,
        MeasureStatus::LaunchError, MeasureStatus::WrongResult,
        MeasureStatus::Timeout, MeasureStatus::OutOfResources})
    EXPECT_EQ(symbolizeMeasureStatus(stringifyMeasureStatus(status)), status);
  EXPECT_EQ(stringifyMeasureStatus(MeasureStatus::OutOfResources),
            "out_of_resources");
  EXPECT_EQ(symbolizeMeasureStatus("fast"), std::nullopt);
}

TEST(TimingStatsTest, FromSamples) {
  TimingStats stats = TimingStats::fromSamples({4.0, 1.0, 3.0, 2.0});
  EXPECT_EQ(stats.repeats, 4);
  EXPECT_DOUBLE_EQ(stats.medianUs, 2.5);
  EXPECT_DOUBLE_EQ(stats.minUs, 1.0);
  EXPECT_DOUBLE_EQ(stats.maxUs, 4.0);
  EXPECT_NEAR(stats.stddevUs, 1.2909944, 1e-6);
  EXPECT_EQ(TimingStats::fromSamples({}).repeats, 0);
}

} // namespace
