//===- AnalyticCandidateTest.cpp - Schedules timed without compiling ------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "SearchTestUtils.h"

#include "tessel/Dialect/Tessel/Transforms/KernelFacts.h"
#include "tessel/Tuning/Measure/SimulatedMeasurer.h"
#include "tessel/Tuning/Tuner/AnalyticCandidate.h"

#include "mlir/AsmParser/AsmParser.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

class AnalyticCandidateTest : public SearchTest {
protected:
  void SetUp() override {
    llvm::Expected<DeviceDescription> found = findDevice("h100");
    ASSERT_TRUE(static_cast<bool>(found)) << llvm::toString(found.takeError());
    device = *found;
    tasks = extract(kMatmul1024);
    ASSERT_EQ(tasks.size(), 1u);
    state.task = &tasks.front();
    sketch = cast<SketchAttr>(parseAttribute(
        "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\", shared = [0, 1], "
        "register_accumulator>",
        &context));
    FailureOr<SearchSpace> space =
        SearchSpace::get(state.task->getTargetOp(), sketch, device);
    ASSERT_TRUE(succeeded(space));
    state.spaces.push_back(std::move(*space));
  }

  Candidate candidate(StringRef config) {
    Candidate c;
    c.sketch = sketch;
    c.config = cast<ConfigAttr>(parseAttribute(config, &context));
    return c;
  }

  DeviceDescription device;
  std::vector<TuningTask> tasks;
  TaskSearchState state;
  SketchAttr sketch;
};

TEST_F(AnalyticCandidateTest, FieldsFollowFromTheSchedule) {
  Candidate c = candidate(
      "#tessel.config<tiles = [[16, 1, 16, 4, 1], [16, 1, 16, 4, 1], "
      "[128, 8, 1]], unroll = 16, vector = [2, 2]>");
  std::string why;
  FailureOr<MeasureCandidate> m = buildAnalyticCandidate(state, c, &why);
  ASSERT_TRUE(succeeded(m)) << why;
  // 16 x 16 blocks of 16 x 16 threads.
  EXPECT_EQ(m->gridBlocks, 256);
  EXPECT_EQ(m->blockThreads, 256);
  // Staged tiles per block: A 64x8 and B 8x64 floats.
  EXPECT_EQ(m->resources.sharedMemoryBytes, (64 * 8 + 8 * 64) * 4);
  // 4x4 accumulators, 4 + 4 operand values, 2 + 2 staged-load values and
  // 24 registers of overhead; no spills.
  EXPECT_EQ(m->resources.registers, 16 + 8 + 4 + 24);
  EXPECT_EQ(m->resources.spillStoreBytes, 0);
  EXPECT_EQ(m->facts.flops, 2.0 * 1024 * 1024 * 1024);
  EXPECT_EQ(m->planFlops, state.task->flops);
  EXPECT_FALSE(m->plan);
  EXPECT_EQ(m->key, c.getKey());

  // The facts are those materialization records.
  FailureOr<KernelFacts> facts = computeKernelFacts(
      state.task->getTargetOp(), state.consumers, c.sketch, c.config);
  ASSERT_TRUE(succeeded(facts));
  EXPECT_EQ(m->facts.globalBytesRead, facts->globalBytesRead);
  EXPECT_EQ(m->facts.globalBytesWritten, facts->globalBytesWritten);
  EXPECT_EQ(m->facts.globalBytesRequested, facts->globalBytesRequested);
  EXPECT_EQ(m->facts.sharedBytesMoved, facts->sharedBytesMoved);
  EXPECT_EQ(m->facts.registerTile, 16);
  EXPECT_EQ(m->facts.vectorWidth, facts->vectorWidth);
  EXPECT_EQ(m->facts.unroll, facts->unroll);

  // The simulated GPU times it like a launch of a compiled plan.
  SimulatedMeasurer sim(device, /*seed=*/1, /*noiseStddev=*/0);
  SimulatedEstimate e = sim.estimate(*m);
  EXPECT_EQ(e.status, MeasureStatus::Ok) << e.message;
  EXPECT_GT(e.totalUs, 0);
  std::vector<MeasureResult> results = sim.measure({*m});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].simulated);
  EXPECT_DOUBLE_EQ(results[0].timing.medianUs, e.totalUs);
}

// A multiply-add is 2 FLOP whatever extensions the body spells out: an f16
// convolution counts as its f32 twin (2 x its iterations), pooling 1 each.
TEST_F(AnalyticCandidateTest, HalfConvolutionCountsMultiplyAdds) {
  std::vector<TuningTask> half = extract(R"mlir(
func.func @f(%x: tensor<1x8x10x10xf16>, %w: tensor<16x8x3x3xf16>, %y: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x10x10xf16>, tensor<16x8x3x3xf16>) outs(%y : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %0 : tensor<1x16x8x8xf32>
})mlir");
  ASSERT_EQ(half.size(), 1u);
  EXPECT_EQ(countBodyOperations(half.front().getTargetOp()), 2);
  EXPECT_EQ(half.front().flops, 2.0 * 16 * 8 * 8 * 8 * 3 * 3);
  std::vector<TuningTask> pool = extract(R"mlir(
func.func @f(%x: tensor<1x8x10x10xf32>, %k: tensor<3x3xf32>, %y: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k : tensor<1x8x10x10xf32>, tensor<3x3xf32>) outs(%y : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
})mlir");
  ASSERT_EQ(pool.size(), 1u);
  EXPECT_EQ(countBodyOperations(pool.front().getTargetOp()), 1);
}

TEST_F(AnalyticCandidateTest, ConfigThatDoesNotFitIsExplained) {
  // The tiles of the first loop multiply to 512, not 1024.
  Candidate c = candidate(
      "#tessel.config<tiles = [[8, 1, 16, 4, 1], [16, 1, 16, 4, 1], "
      "[128, 8, 1]], unroll = 16, vector = [2, 2]>");
  std::string why;
  EXPECT_TRUE(failed(buildAnalyticCandidate(state, c, &why)));
  EXPECT_NE(why.find("1024"), std::string::npos) << why;

  c.space = 3;
  EXPECT_TRUE(failed(buildAnalyticCandidate(state, c, &why)));
  EXPECT_EQ(why, "the candidate's sketch is not a search space of the task");
}

// A proposal beyond what the compiler accepts (a strategy's own config, not
// drawn from the space) is a failure, never timed: 128 x 256 of A and
// 256 x 128 of B staged are 256 KiB of shared memory, above the H100's
// opt-in limit of 227 KiB.
TEST_F(AnalyticCandidateTest, ConfigBeyondTheCompilersLimitsIsAFailure) {
  Candidate c = candidate(
      "#tessel.config<tiles = [[8, 1, 16, 8, 1], [8, 1, 16, 8, 1], "
      "[4, 256, 1]], unroll = 16, vector = [1, 1]>");
  std::string why;
  EXPECT_TRUE(failed(buildAnalyticCandidate(state, c, &why)));
  EXPECT_EQ(why, "262144 bytes of shared memory per block; h100-sxm allows "
                 "232448");
}

TEST(SimFidelityTest, RoundTrips) {
  for (SimFidelity f : {SimFidelity::Compiled, SimFidelity::Analytic})
    EXPECT_EQ(symbolizeSimFidelity(stringifySimFidelity(f)), f);
  EXPECT_EQ(symbolizeSimFidelity("exact"), std::nullopt);
}

} // namespace
