//===- TargetSpaceTest.cpp - Tests of Pruner's target space and strategy --===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Psa/PsaStrategy.h"
#include "tessel/Tuning/Strategies/Psa/TargetSpace.h"
#include "tessel/InitAllDialects.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/DenseSet.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr StringLiteral kMatmul = R"mlir(
func.func @f(%a: tensor<256x512xf32>, %b: tensor<512x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<256x512xf32>, tensor<512x256xf32>) outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
})mlir";

class TargetSpaceTest : public ::testing::Test {
protected:
  TargetSpaceTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    llvm::Expected<DeviceDescription> found = findDevice("h100");
    if (!found) {
      ADD_FAILURE() << llvm::toString(found.takeError());
      return;
    }
    device = *found;
    module = parseSourceString<ModuleOp>(kMatmul, &context);
    EXPECT_TRUE(module);
    if (!module)
      return;
    llvm::Expected<std::vector<TuningTask>> extracted =
        extractTasks(*module, &context);
    if (!extracted) {
      ADD_FAILURE() << llvm::toString(extracted.takeError());
      return;
    }
    tasks = std::move(*extracted);
    EXPECT_EQ(tasks.size(), 1u);
  }

  /// A fresh search state of the matmul task.
  TaskSearchState makeState(uint64_t seed) {
    TaskSearchState state;
    state.task = &tasks.front();
    state.rng = RandomEngine(seed);
    for (SketchAttr sketch : state.task->sketches) {
      FailureOr<SearchSpace> space =
          SearchSpace::get(state.task->getTargetOp(), sketch, device);
      if (succeeded(space))
        state.spaces.push_back(std::move(*space));
    }
    EXPECT_FALSE(state.spaces.empty());
    return state;
  }

  /// `count` distinct random candidates.
  std::vector<Candidate> distinctSamples(TaskSearchState &state, int count) {
    std::vector<Candidate> samples;
    llvm::DenseSet<std::pair<Attribute, Attribute>> ids;
    for (int tries = 0; static_cast<int>(samples.size()) < count &&
                        tries < 100 * count;
         ++tries)
      if (std::optional<Candidate> c = sampleCandidate(state))
        if (ids.insert(c->getId()).second)
          samples.push_back(*c);
    EXPECT_EQ(static_cast<int>(samples.size()), count);
    return samples;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::vector<TuningTask> tasks;
  DeviceDescription device;
};

TEST(TargetSpaceCountTest, UnprunedShare) {
  // 57 of 569 is 10.0%.
  EXPECT_EQ(getUnprunedCount(512, 0.1), 57);
  EXPECT_EQ(getUnprunedCount(512, 0.2), 128);
  EXPECT_EQ(getUnprunedCount(8, 0.2), 2);
  EXPECT_EQ(getUnprunedCount(512, 0), 0);
  EXPECT_EQ(getUnprunedCount(0, 0.1), 0);
}

TEST_F(TargetSpaceTest, SelectKeepsLowestAndShare) {
  TaskSearchState state = makeState(1);
  std::vector<Candidate> c = distinctSamples(state, 16);
  ASSERT_EQ(c.size(), 16u);
  // Latencies 16, 15, ..., 1 (candidate i has 16 - i), candidate 15 (the
  // lowest) twice and candidate 3 twice with another latency.
  std::vector<ScoredCandidate> sampled;
  for (int i = 0; i < 16; ++i)
    sampled.push_back({c[i], double(16 - i)});
  sampled.push_back({c[15], 1});
  sampled.push_back({c[3], 0.5});
  TargetSpaceOptions options;
  options.size = 8;
  options.unprunedShare = 0.2;
  // Fresh samples: one already kept (c[14]), then c[0], c[1], c[2].
  std::vector<Candidate> fresh = {c[14], c[0], c[1], c[2]};
  TargetSpace space = selectTargetSpace(sampled, fresh, options);
  EXPECT_EQ(space.scored, 16u);
  // The 8 lowest, ascending: c[3] at 0.5, then c[15] (1), c[14] (2), ...,
  // c[9] (7); each once.
  std::vector<std::pair<Candidate, double>> expected = {
      {c[3], 0.5}, {c[15], 1}, {c[14], 2}, {c[13], 3},
      {c[12], 4},  {c[11], 5}, {c[10], 6}, {c[9], 7}};
  ASSERT_EQ(space.pruned.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(space.pruned[i].candidate.getId(), expected[i].first.getId())
        << "at " << i;
    EXPECT_EQ(space.pruned[i].latency, expected[i].second) << "at " << i;
  }
  // round(8 * 0.2 / 0.8) = 2 unpruned: c[0] and c[1].
  ASSERT_EQ(space.unpruned.size(), 2u);
  EXPECT_EQ(space.unpruned[0].getId(), c[0].getId());
  EXPECT_EQ(space.unpruned[1].getId(), c[1].getId());
}

TEST_F(TargetSpaceTest, GenerationKeepsExactlyTheLowestPsaLatencies) {
  StaticAnalyzer analyzer(device, PsaOptions{});
  TargetSpaceOptions options;
  options.size = 32;
  options.samples = 200;
  options.generations = 0;
  TaskSearchState state = makeState(7);
  TargetSpace space = generateTargetSpace(state, analyzer, options);

  // The same draws, scored one by one.
  TaskSearchState replay = makeState(7);
  std::vector<std::pair<double, Candidate>> all;
  llvm::DenseSet<std::pair<Attribute, Attribute>> ids;
  for (int i = 0; i < options.samples; ++i)
    if (std::optional<Candidate> c = sampleCandidate(replay))
      if (ids.insert(c->getId()).second && canBeResident(replay, *c)) {
        llvm::Expected<double> latency = getPsaLatency(analyzer, replay, *c);
        ASSERT_TRUE(static_cast<bool>(latency))
            << llvm::toString(latency.takeError());
        all.push_back({*latency, *c});
      }
  std::stable_sort(all.begin(), all.end(), [](const auto &a, const auto &b) {
    return a.first < b.first;
  });
  ASSERT_GE(all.size(), 32u);
  // Some samples cannot be resident (too many registers for their block).
  EXPECT_LT(all.size(), ids.size());
  EXPECT_EQ(space.scored, all.size());
  ASSERT_EQ(space.pruned.size(), 32u);
  for (size_t i = 0; i < 32; ++i) {
    EXPECT_EQ(space.pruned[i].candidate.getId(), all[i].second.getId())
        << "at " << i;
    EXPECT_EQ(space.pruned[i].latency, all[i].first) << "at " << i;
  }
  // round(32 * 0.1 / 0.9) = 4 unpruned samples, none of them kept.
  ASSERT_EQ(space.unpruned.size(), 4u);
  llvm::DenseSet<std::pair<Attribute, Attribute>> kept;
  for (const ScoredCandidate &c : space.pruned)
    kept.insert(c.candidate.getId());
  for (const Candidate &c : space.unpruned)
    EXPECT_FALSE(kept.contains(c.getId()));
}

TEST_F(TargetSpaceTest, EvolutionLowersTheTargetSpace) {
  // Two PSA-driven generations never make the kept latencies worse.
  StaticAnalyzer analyzer(device, PsaOptions{});
  TargetSpaceOptions options;
  options.size = 32;
  options.samples = 200;
  options.generations = 0;
  TaskSearchState plain = makeState(3);
  TargetSpace before = generateTargetSpace(plain, analyzer, options);
  options.generations = 2;
  TaskSearchState evolved = makeState(3);
  TargetSpace after = generateTargetSpace(evolved, analyzer, options);
  ASSERT_EQ(before.pruned.size(), 32u);
  ASSERT_EQ(after.pruned.size(), 32u);
  for (size_t i = 0; i < 32; ++i)
    EXPECT_LE(after.pruned[i].latency, before.pruned[i].latency) << "at " << i;
  EXPECT_GT(after.scored, before.scored);
}

TEST_F(TargetSpaceTest, StrategyProposesLowestPsaFirst) {
  llvm::Expected<std::unique_ptr<SearchStrategy>> strategy =
      createStrategy("psa target-size=32 samples=200", device, /*seed=*/0);
  ASSERT_TRUE(static_cast<bool>(strategy))
      << llvm::toString(strategy.takeError());
  EXPECT_EQ((*strategy)->name(), "psa");
  TaskSearchState state = makeState(5);
  std::vector<Candidate> batch = (*strategy)->propose(state, 10);
  ASSERT_EQ(batch.size(), 10u);
  // Without a model: 9 by ascending PSA latency, 1 random (epsilon 0.1).
  StaticAnalyzer analyzer(device, PsaOptions{});
  double previous = 0;
  for (int i = 0; i < 9; ++i) {
    llvm::Expected<double> latency = getPsaLatency(analyzer, state, batch[i]);
    ASSERT_TRUE(static_cast<bool>(latency));
    EXPECT_GE(*latency, previous) << "at " << i;
    previous = *latency;
  }
  llvm::DenseSet<std::pair<Attribute, Attribute>> ids;
  for (const Candidate &c : batch) {
    EXPECT_TRUE(ids.insert(c.getId()).second);
    EXPECT_TRUE(state.seen.contains(c.getId()));
  }
  // Measured (made up: throughput by position), the model trains and the
  // next batch is new.
  std::vector<Trial> trials;
  for (auto [i, c] : llvm::enumerate(batch)) {
    Trial t;
    t.candidate = c;
    t.result.status = MeasureStatus::Ok;
    t.gflops = 100 + i;
    trials.push_back(t);
    state.record(t);
  }
  ASSERT_FALSE(static_cast<bool>((*strategy)->observe(state, trials)));
  std::vector<Candidate> next = (*strategy)->propose(state, 10);
  EXPECT_EQ(next.size(), 10u);
  for (const Candidate &c : next)
    EXPECT_FALSE(ids.contains(c.getId()));
}

TEST_F(TargetSpaceTest, StrategyRejectsBadOptions) {
  llvm::Expected<std::unique_ptr<SearchStrategy>> bad =
      createStrategy("psa unpruned-share=1", device, /*seed=*/0);
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "strategy 'psa': unpruned-share=1 is out of range: 0 to below 1");
  bad = createStrategy("psa", device, 0, "xgboost init=/nonexistent/model.ubj");
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "cannot read the cost model '/nonexistent/model.ubj': No such "
            "file or directory");
}

} // namespace
