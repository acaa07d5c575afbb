//===- EvolutionaryStrategyTest.cpp - Ansor's search, by its behaviour ----===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Issue 44, item 2: what the evolutionary search is for, checked on a
// made-up landscape with one best region (no simulator): roulette selection
// favours fitter members in proportion, mutations stay in the space and
// move, and the search under its XGBoost model finds faster schedules than
// random sampling with the same measurements.
//
//===----------------------------------------------------------------------===//

#include "SearchTestUtils.h"

#include "tessel/Tuning/Tuner/Strategy.h"
#include "tessel/Tuning/Tuner/StrategyRegistry.h"

#include <set>

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr const char *kMatmul = R"mlir(
func.func @f(%a: tensor<512x256xf32>, %b: tensor<256x512xf32>) -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<512x256xf32>, tensor<256x512xf32>) outs(%init : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
})mlir";

class EvolutionaryStrategyTest : public SearchTest {
protected:
  void SetUp() override {
    llvm::Expected<DeviceDescription> found = findDevice("h100");
    ASSERT_TRUE(static_cast<bool>(found)) << llvm::toString(found.takeError());
    device = *found;
    tasks = extract(kMatmul);
    ASSERT_EQ(tasks.size(), 1u);
  }

  TaskSearchState makeState(uint64_t seed) {
    TaskSearchState state = TaskSearchState::create(tasks.front(), device, seed);
    EXPECT_FALSE(state.spaces.empty());
    return state;
  }

  /// A made-up throughput with one best region: 256 threads a block
  /// (log-distance from it costs), an 8 x 8 register tile, unroll 64. Not
  /// the simulator: nothing here knows GPUs, so the search has to learn it.
  static double landscape(const Candidate &c) {
    ArrayRef<int64_t> i = c.config.getLoopTiles(0);
    ArrayRef<int64_t> j = c.config.getLoopTiles(1);
    if (i.size() != 5 || j.size() != 5)
      return 1;
    double threads = std::log2(double(i[2] * j[2]));
    double tileI = std::log2(double(i[1] * i[3] * i[4]));
    double tileJ = std::log2(double(j[1] * j[3] * j[4]));
    double unroll = c.config.getUnroll() == 64 ? 0 : 1;
    double distance = std::abs(threads - 8) + std::abs(tileI - 3) +
                      std::abs(tileJ - 3) + unroll;
    return 1000 / (1 + distance);
  }

  /// The best throughput `strategy` reaches with `rounds` batches of
  /// `batch` measurements on the landscape.
  double bestAfter(SearchStrategy &strategy, TaskSearchState &state,
                   int rounds, int batch) {
    double best = 0;
    for (int r = 0; r < rounds; ++r) {
      std::vector<Candidate> candidates = strategy.propose(state, batch);
      std::vector<Trial> trials;
      for (const Candidate &c : candidates) {
        EXPECT_TRUE(succeeded(state.spaces[c.space].check(c.config)))
            << c.getKey();
        Trial trial;
        trial.candidate = c;
        trial.result.status = MeasureStatus::Ok;
        trial.gflops = landscape(c);
        trial.result.timing.medianUs = 1000 / trial.gflops;
        best = std::max(best, trial.gflops);
        trials.push_back(trial);
      }
      for (const Trial &trial : trials)
        state.record(trial);
      llvm::Error error = strategy.observe(state, trials);
      EXPECT_FALSE(static_cast<bool>(error))
          << llvm::toString(std::move(error));
    }
    return best;
  }

  DeviceDescription device;
  std::vector<TuningTask> tasks;
};

// Each member is drawn in proportion to its score above the lowest: scores
// 1, 2, 4, 9 give weights 0, 1, 3, 8 (of 12), and the lowest is (almost)
// never drawn.
TEST_F(EvolutionaryStrategyTest, RouletteFavoursFitterMembersInProportion) {
  RandomEngine rng(3);
  RouletteWheel wheel(ArrayRef<double>{1, 2, 4, 9});
  int counts[4] = {0, 0, 0, 0};
  constexpr int kDraws = 120000;
  for (int i = 0; i < kDraws; ++i)
    ++counts[wheel.pick(rng)];
  EXPECT_EQ(counts[0], 0);
  EXPECT_NEAR(counts[1] / double(kDraws), 1.0 / 12, 0.005);
  EXPECT_NEAR(counts[2] / double(kDraws), 3.0 / 12, 0.005);
  EXPECT_NEAR(counts[3] / double(kDraws), 8.0 / 12, 0.005);
  // Equal scores: uniform.
  RouletteWheel flat(ArrayRef<double>{5, 5, 5});
  int flatCounts[3] = {0, 0, 0};
  for (int i = 0; i < 30000; ++i)
    ++flatCounts[flat.pick(rng)];
  for (int count : flatCounts)
    EXPECT_NEAR(count / 30000.0, 1.0 / 3, 0.01);
}

// A mutation keeps a candidate valid in its space and, most of the time,
// changes it.
TEST_F(EvolutionaryStrategyTest, MutationsStayInTheSpaceAndMove) {
  TaskSearchState state = makeState(11);
  int changed = 0, total = 0;
  for (int i = 0; i < 200; ++i) {
    std::optional<Candidate> parent = sampleCandidate(state);
    ASSERT_TRUE(parent.has_value());
    Candidate child = mutateCandidate(state, *parent);
    EXPECT_EQ(child.space, parent->space);
    EXPECT_TRUE(succeeded(state.spaces[child.space].check(child.config)))
        << child.getKey();
    changed += child.config != parent->config;
    ++total;
  }
  EXPECT_GT(changed, total * 3 / 4) << changed << " of " << total;
}

// With the same 64 measurements (8 rounds of 8), the search under its
// model ends faster than random sampling on most seeds and by 1.5x on
// average.
TEST_F(EvolutionaryStrategyTest, BeatsRandomSamplingOnALandscape) {
  int wins = 0;
  double evolutionarySum = 0, randomSum = 0;
  constexpr int kSeeds = 5;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    llvm::Expected<std::unique_ptr<SearchStrategy>> evolutionary =
        createStrategy("evolutionary population=256 generations=3", device,
                       seed);
    ASSERT_TRUE(static_cast<bool>(evolutionary))
        << llvm::toString(evolutionary.takeError());
    llvm::Expected<std::unique_ptr<SearchStrategy>> random =
        createStrategy("random", device, seed);
    ASSERT_TRUE(static_cast<bool>(random))
        << llvm::toString(random.takeError());
    TaskSearchState searched = makeState(seed);
    TaskSearchState sampled = makeState(seed);
    double e = bestAfter(**evolutionary, searched, 8, 8);
    double r = bestAfter(**random, sampled, 8, 8);
    wins += e > r;
    evolutionarySum += e;
    randomSum += r;
  }
  // (At this commit: 4 of 5, 900 against 467 on average; with a random
  // cost model in place of XGBoost, 2 of 5 and 567: the model is what wins.)
  EXPECT_GE(wins, 3) << "evolutionary " << evolutionarySum / kSeeds
                     << ", random " << randomSum / kSeeds;
  EXPECT_GT(evolutionarySum, 1.5 * randomSum);
}

} // namespace
