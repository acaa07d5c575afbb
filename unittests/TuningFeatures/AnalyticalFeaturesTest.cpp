//===- AnalyticalFeaturesTest.cpp - Tests of the "af" feature extractor ---===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Every expectation is computed by hand from the formulas of
// docs/AnalyticalFeatures.md.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Features/AnalyticalFeatures.h"
#include "tessel/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr StringLiteral kMatmul = R"mlir(
func.func @mm(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>,
              %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>)
                     outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}
)mlir";

constexpr StringLiteral kTallMatmul = R"mlir(
func.func @mm(%a: tensor<1280x64xf32>, %b: tensor<64x64xf32>,
              %c: tensor<1280x64xf32>) -> tensor<1280x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<1280x64xf32>, tensor<64x64xf32>)
                     outs(%c : tensor<1280x64xf32>) -> tensor<1280x64xf32>
  return %0 : tensor<1280x64xf32>
}
)mlir";

constexpr StringLiteral kDynamic = R"mlir(
func.func @mm(%a: tensor<?x256xf32>, %b: tensor<256x64xf32>,
              %c: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x256xf32>, tensor<256x64xf32>)
                     outs(%c : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}
)mlir";

class AnalyticalFeaturesTest : public ::testing::Test {
protected:
  AnalyticalFeaturesTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    llvm::Expected<DeviceDescription> found = findDevice("h100");
    if (!found)
      ADD_FAILURE() << llvm::toString(found.takeError());
    else
      device = *found;
  }

  linalg::LinalgOp parseOp(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    linalg::LinalgOp found;
    if (module)
      module->walk([&](linalg::LinalgOp op) { found = op; });
    return found;
  }

  SketchAttr sketch(bool registers = true, ArrayRef<int64_t> shared = {0, 1}) {
    return SketchAttr::get(&context, SketchKind::MultiLevelTiling, "SSSRRSRS",
                           shared, registers, 0);
  }

  ConfigAttr config(ArrayRef<SmallVector<int64_t>> tiles,
                    ArrayRef<int64_t> vector = {1, 1}) {
    return ConfigAttr::get(&context, tiles, 64, vector);
  }

  AnalyticalQuantities quantities(linalg::LinalgOp op, SketchAttr s,
                                  ConfigAttr c) {
    FailureOr<AnalyticalQuantities> q =
        computeAnalyticalQuantities(op, {}, s, c, device);
    EXPECT_TRUE(succeeded(q));
    return succeeded(q) ? *q : AnalyticalQuantities();
  }

  std::vector<float> extract(linalg::LinalgOp op, SketchAttr s, ConfigAttr c) {
    FailureOr<std::vector<float>> f = extractor.extract(op, {}, s, c, device);
    EXPECT_TRUE(succeeded(f));
    return succeeded(f) ? *f : std::vector<float>(7, NAN);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  DeviceDescription device;
  AnalyticalFeatureExtractor extractor;
};

TEST_F(AnalyticalFeaturesTest, NamesAndFactory) {
  EXPECT_EQ(extractor.width(), 7u);
  EXPECT_EQ(extractor.featureNames(),
            (std::vector<std::string>{"OI_Global_Mem", "OI_Shared_Mem",
                                      "Reg_Reuse_Factor", "ILP", "WLP",
                                      "Estimated_Occupancy",
                                      "Wave_Efficiency"}));
  auto created = createFeatureExtractor("af");
  ASSERT_TRUE(static_cast<bool>(created)) << llvm::toString(created.takeError());
  EXPECT_EQ((*created)->name(), "af");
  EXPECT_EQ((*created)->width(), 7u);
  std::vector<std::string> names = getFeatureExtractorNames();
  EXPECT_TRUE(llvm::is_contained(names, "af"));
}

// The paper's example (section 4.1.3): 128 SMs, 320 blocks, one block per
// SM: 3 waves of which 2.5 are useful.
TEST_F(AnalyticalFeaturesTest, WaveEfficiencyPaperExample) {
  EXPECT_DOUBLE_EQ(computeWaveEfficiency(320, 1, 128), 2.5 / 3);
  EXPECT_NEAR(computeWaveEfficiency(320, 1, 128), 0.83, 0.005);
  EXPECT_DOUBLE_EQ(computeWaveEfficiency(256, 1, 128), 1.0);
  // Two blocks per SM: one wave of 256 slots, then 64 of 256 used.
  EXPECT_DOUBLE_EQ(computeWaveEfficiency(320, 2, 128), 1.25 / 2);
  EXPECT_DOUBLE_EQ(computeWaveEfficiency(64, 1, 128), 0.5);
  EXPECT_EQ(computeWaveEfficiency(0, 1, 128), 0);
  EXPECT_EQ(computeWaveEfficiency(320, 0, 128), 0);
}

// The same example through the extractor: a grid of 320 blocks on a device
// of 128 SMs that holds one block per SM.
TEST_F(AnalyticalFeaturesTest, WaveEfficiencyFromConfig) {
  linalg::LinalgOp op = parseOp(kTallMatmul);
  device.smCount = 128;
  device.maxBlocksPerSm = 1;
  // 1280 = 320 blocks x 4 threads; 64 = 64 threads; K in one step of 64.
  ConfigAttr c = config({{320, 1, 4, 1, 1}, {1, 1, 64, 1, 1}, {1, 8, 8}});
  AnalyticalQuantities q = quantities(op, sketch(), c);
  EXPECT_EQ(q.blocks, 320);
  EXPECT_EQ(q.occupancy.blocksPerSm, 1);
  std::vector<float> f = extract(op, sketch(), c);
  EXPECT_NEAR(f[6], 2.5 / 3, 1e-6);
  EXPECT_NEAR(f[6], 0.83, 0.005);
}

// Blocks 4x4, vthreads 2x1, threads 8x16, register tile 2x1, K staged in
// 32 steps of 8 (2 x 4).
TEST_F(AnalyticalFeaturesTest, HandComputedMatmul) {
  linalg::LinalgOp op = parseOp(kMatmul);
  ConfigAttr c = config({{4, 2, 8, 2, 1}, {4, 1, 16, 1, 1}, {32, 2, 4}});
  AnalyticalQuantities q = quantities(op, sketch(), c);
  EXPECT_EQ(q.blocks, 16);
  EXPECT_EQ(q.threadsPerBlock, 128);
  EXPECT_DOUBLE_EQ(q.ops, 2.0 * 128 * 64 * 256);
  // Block tile 32x16, K step 8: A 32x8 + B 8x16 per step; 16 blocks x 32
  // steps.
  EXPECT_DOUBLE_EQ(q.globalReads, 16.0 * 32 * (32 * 8 + 8 * 16));
  // Thread tile 4x1 (vthread 2 x register 2 rows), 8 of K: A 4x8, B 8x1
  // per thread per step, 4 warps; A is a broadcast (j is the fastest thread
  // loop), B has stride 1: no conflicts.
  EXPECT_EQ(getSharedBankConflictDegree(op, sketch(), c, 0), 1);
  EXPECT_EQ(getSharedBankConflictDegree(op, sketch(), c, 1), 1);
  EXPECT_DOUBLE_EQ(q.sharedTransactions, 16.0 * 32 * 4 * (4 * 8 + 8 * 1));
  EXPECT_DOUBLE_EQ(q.outputTraffic, 128.0 * 64);
  EXPECT_EQ(q.registerTile, 4);
  // Registers: 4 accumulators + A 4x4 + B 4x1 + 2 staged loads + 24.
  EXPECT_EQ(q.registersPerThread, 4 + 16 + 4 + 2 + 24);
  EXPECT_EQ(q.sharedMemoryBytes, (32 * 8 + 8 * 16) * 4);
  // 50 registers -> 1600 per warp, 1792 allocated: 36 warps = 9 blocks.
  EXPECT_EQ(q.occupancy.blocksPerSm, 9);

  std::vector<float> f = extract(op, sketch(), c);
  EXPECT_FLOAT_EQ(f[0], 4194304.0 / 196608.0);         // OI_Global_Mem
  EXPECT_FLOAT_EQ(f[1], 4194304.0 / 81920.0);          // OI_Shared_Mem
  EXPECT_FLOAT_EQ(f[2], 4194304.0 / 8192.0);           // Reg_Reuse_Factor
  EXPECT_FLOAT_EQ(f[3], 4);                            // ILP
  EXPECT_FLOAT_EQ(f[4], 16.0 / 132 * 4);               // WLP: 16 blocks
  EXPECT_FLOAT_EQ(f[5], 36.0 / 64);                    // Estimated_Occupancy
  EXPECT_FLOAT_EQ(f[6], 16.0 / (132 * 9));             // Wave_Efficiency
}

// Adjacent threads two elements apart along B's contiguous dimension: a
// 2-way conflict on B.
TEST_F(AnalyticalFeaturesTest, BankConflictFromInnerTile) {
  linalg::LinalgOp op = parseOp(kMatmul);
  ConfigAttr c = config({{4, 2, 8, 2, 1}, {4, 1, 8, 2, 1}, {32, 2, 4}});
  EXPECT_EQ(getSharedBankConflictDegree(op, sketch(), c, 0), 1);
  EXPECT_EQ(getSharedBankConflictDegree(op, sketch(), c, 1), 2);
  AnalyticalQuantities q = quantities(op, sketch(), c);
  // 64 threads (2 warps); thread tile 4x2: A 4x8, B 8x2 (x2 for conflicts).
  EXPECT_DOUBLE_EQ(q.sharedTransactions,
                   16.0 * 32 * 2 * (4 * 8 + 8 * 2 * 2));
  EXPECT_EQ(q.registerTile, 8);
  std::vector<float> f = extract(op, sketch(), c);
  EXPECT_FLOAT_EQ(f[1], 4194304.0 / (16.0 * 32 * 2 * 64));
  EXPECT_FLOAT_EQ(f[3], 8);
}

// Threads only along i: adjacent threads read A rows 2 apart, rows of the
// 32x8 shared tile of A are 8 floats: stride 16 words, a 16-way conflict.
TEST_F(AnalyticalFeaturesTest, BankConflictAcrossRows) {
  linalg::LinalgOp op = parseOp(kMatmul);
  ConfigAttr c = config({{4, 2, 8, 2, 1}, {4, 1, 1, 16, 1}, {32, 2, 4}});
  EXPECT_EQ(getSharedBankConflictDegree(op, sketch(), c, 0), 16);
  EXPECT_EQ(getSharedBankConflictDegree(op, sketch(), c, 1), 1);
}

// Without a register accumulator the result is updated in memory on every
// iteration; without staging every thread reads its inputs from global
// memory and there is no shared traffic.
TEST_F(AnalyticalFeaturesTest, NoRegisterTileNoStaging) {
  linalg::LinalgOp op = parseOp(kMatmul);
  SketchAttr s = sketch(/*registers=*/false, /*shared=*/{});
  ConfigAttr c = config({{4, 2, 8, 2, 1}, {4, 1, 16, 1, 1}, {32, 2, 4}}, {});
  AnalyticalQuantities q = quantities(op, s, c);
  EXPECT_DOUBLE_EQ(q.outputTraffic, 128.0 * 64 * 256);
  EXPECT_EQ(q.registerTile, 1);
  EXPECT_DOUBLE_EQ(q.sharedTransactions, 0);
  // 16 blocks x 32 steps x 128 threads x (A 4x8 + B 8x1).
  EXPECT_DOUBLE_EQ(q.globalReads, 16.0 * 32 * 128 * (32 + 8));
  std::vector<float> f = extract(op, s, c);
  EXPECT_FLOAT_EQ(f[1], 0);
  EXPECT_FLOAT_EQ(f[2], 2);
  EXPECT_FLOAT_EQ(f[3], 1);
}

// Occupancy limited by shared memory: 40 KiB + 1 KiB reserved per block.
TEST_F(AnalyticalFeaturesTest, OccupancyAndWlp) {
  linalg::LinalgOp op = parseOp(kMatmul);
  // Block tile 128x64, K step 32 (4 steps): (128 + 64) x 32 x 4 = 24 KiB.
  ConfigAttr c = config({{1, 1, 16, 8, 1}, {1, 1, 16, 4, 1}, {8, 4, 8}});
  AnalyticalQuantities q = quantities(op, sketch(), c);
  EXPECT_EQ(q.sharedMemoryBytes, (128 + 64) * 32 * 4);
  EXPECT_EQ(q.threadsPerBlock, 256);
  // 233472 / (24576 + 1024) = 9 blocks by shared memory; registers:
  // 32 + 8x8 + 8x4 + 2 + 24 = 154 -> 4928 per warp, 5120 allocated:
  // 12 warps = 1 block of 8 warps.
  EXPECT_EQ(q.registersPerThread, 32 + 64 + 32 + 2 + 24);
  EXPECT_EQ(q.occupancy.blocksPerSm, 1);
  std::vector<float> f = extract(op, sketch(), c);
  // One block on the whole GPU: 1/132 of a block per SM, 8 warps each.
  EXPECT_FLOAT_EQ(f[4], 8.0 / 132);
  EXPECT_FLOAT_EQ(f[5], 8.0 / 64);
  EXPECT_FLOAT_EQ(f[6], 1.0 / 132);
}

TEST_F(AnalyticalFeaturesTest, FailsOnBadInput) {
  linalg::LinalgOp op = parseOp(kMatmul);
  // Tiles of i multiply to 64, not 128.
  ConfigAttr bad = config({{2, 2, 8, 2, 1}, {4, 1, 16, 1, 1}, {32, 2, 4}});
  EXPECT_TRUE(failed(extractor.extract(op, {}, sketch(), bad, device)));
  linalg::LinalgOp dynamic = parseOp(kDynamic);
  ConfigAttr c = config({{4, 2, 8, 2, 1}, {4, 1, 16, 1, 1}, {32, 2, 4}});
  EXPECT_TRUE(failed(extractor.extract(dynamic, {}, sketch(), c, device)));
}

} // namespace
