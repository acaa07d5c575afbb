//===- DgdStrategyTest.cpp - The dgd strategy on a real task --------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// DgdStrategy driven as tessel-tune drives it (propose, measure, record,
// observe), with a scripted measurement and a fake clock.
//
//===----------------------------------------------------------------------===//

#include "SearchTestUtils.h"

#include "tessel/Tuning/CostModel/RandomCostModel.h"
#include "tessel/Tuning/CostModel/XGBoostCostModel.h"
#include "tessel/Tuning/Strategies/Dgd/DgdStrategy.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr const char *kMatmul256 = R"mlir(
func.func @f(%a: tensor<256x128xf32>, %b: tensor<128x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<256x128xf32>, tensor<128x256xf32>) outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
})mlir";

class DgdStrategyTest : public SearchTest {
protected:
  void SetUp() override {
    llvm::Expected<DeviceDescription> found = findDevice("h100");
    ASSERT_TRUE(static_cast<bool>(found)) << llvm::toString(found.takeError());
    device = *found;
    tasks = extract(kMatmul256);
    ASSERT_EQ(tasks.size(), 1u);
    state.task = &tasks.front();
    state.rng = RandomEngine(7);
    for (SketchAttr sketch : state.task->sketches) {
      FailureOr<SearchSpace> space =
          SearchSpace::get(state.task->getTargetOp(), sketch, device);
      if (succeeded(space))
        state.spaces.push_back(std::move(*space));
    }
    ASSERT_FALSE(state.spaces.empty());
  }

  std::unique_ptr<DgdStrategy> make(const DgdOptions &dgd,
                                    DgdStrategy::Clock clock = {},
                                    bool xgboost = false) {
    auto extractor = createFeatureExtractor("af");
    EXPECT_TRUE(static_cast<bool>(extractor));
    std::unique_ptr<CostModel> model;
    if (xgboost)
      model = std::make_unique<XGBoostCostModel>(XGBoostCostModelOptions());
    else
      model = std::make_unique<RandomCostModel>(3);
    return std::make_unique<DgdStrategy>(dgd, device,
                                         std::move(*extractor),
                                         std::move(model), std::move(clock));
  }

  /// A made-up throughput: more threads and a squarer thread tile are
  /// better (deterministic, with a single best region).
  static double fakeGflops(const Candidate &c) {
    ArrayRef<int64_t> i = c.config.getLoopTiles(0);
    ArrayRef<int64_t> j = c.config.getLoopTiles(1);
    if (i.size() < 5 || j.size() < 5)
      return 1;
    double threads = i[2] * j[2];
    double tile = i[3] * i[4] * j[3] * j[4];
    return 10 + threads / 8 + 50 - std::abs(tile - 16);
  }

  /// One tessel-tune round; returns the batch size.
  size_t round(DgdStrategy &strategy, int count = 64) {
    std::vector<Candidate> batch = strategy.propose(state, count);
    std::vector<Trial> trials;
    for (const Candidate &c : batch) {
      EXPECT_TRUE(succeeded(state.spaces[c.space].check(c.config)))
          << c.getKey();
      EXPECT_FALSE(measured.count(c.getKey())) << "measured twice: "
                                               << c.getKey();
      measured.insert(c.getKey());
      Trial trial;
      trial.candidate = c;
      trial.result.status = MeasureStatus::Ok;
      trial.gflops = fakeGflops(c);
      trial.result.timing.medianUs = 1;
      trials.push_back(trial);
    }
    for (const Trial &trial : trials)
      state.record(trial);
    EXPECT_FALSE(static_cast<bool>(strategy.observe(state, trials)));
    return batch.size();
  }

  DeviceDescription device;
  std::vector<TuningTask> tasks;
  TaskSearchState state;
  std::set<std::string> measured;
};

// The budget is a hard cap on proposals; batches after the initial samples
// are single start points or windows of at most 3.
TEST_F(DgdStrategyTest, RespectsBudget) {
  DgdOptions dgd;
  dgd.initialSamples = 16;
  dgd.budget = 40;
  std::unique_ptr<DgdStrategy> strategy = make(dgd);
  size_t total = 0;
  std::vector<size_t> sizes;
  for (int i = 0; i < 200; ++i) {
    size_t n = round(*strategy);
    if (n == 0)
      break;
    sizes.push_back(n);
    total += n;
  }
  EXPECT_EQ(total, 40u);
  EXPECT_EQ(sizes.front(), 16u);
  for (size_t i = 1; i < sizes.size(); ++i)
    EXPECT_LE(sizes[i], 3u);
  EXPECT_TRUE(strategy->propose(state, 64).empty());
  const DgdSearch *search = strategy->getSearch(state);
  ASSERT_TRUE(search);
  EXPECT_TRUE(search->isDone());
  EXPECT_EQ(search->getBudgetUsed(), 40);
}

// The time limit (a fake clock, one second per call) ends the search.
TEST_F(DgdStrategyTest, RespectsTimeLimit) {
  DgdOptions dgd;
  dgd.initialSamples = 8;
  dgd.timeLimit = 20;
  double now = 0;
  std::unique_ptr<DgdStrategy> strategy =
      make(dgd, [&now] { return now += 1; });
  int rounds = 0;
  while (round(*strategy) > 0)
    ++rounds;
  EXPECT_GT(rounds, 1);
  EXPECT_GE(now, 20);
  // Each propose reads the clock once (plus once to start): 20 seconds are
  // spent after 19 proposals.
  EXPECT_LE(rounds, 19);
  EXPECT_TRUE(strategy->propose(state, 64).empty());
}

// With a learned model DGD climbs: it moves, every move goes to a better
// point (with the performance the measurer gave it), and the best found is
// at least the best of the initial samples.
TEST_F(DgdStrategyTest, ClimbsWithAModel) {
  DgdOptions dgd;
  dgd.initialSamples = 4;
  dgd.budget = 120;
  std::unique_ptr<DgdStrategy> strategy = make(dgd, {}, /*xgboost=*/true);
  round(*strategy);
  double initialBest = state.getBest()->gflops;
  while (round(*strategy) > 0) {
  }
  EXPECT_GE(state.getBest()->gflops, initialBest);
  const DgdSearch *search = strategy->getSearch(state);
  double current = 0;
  int moves = 0;
  for (const DgdEvent &e : search->getEvents()) {
    if (e.kind == DgdEvent::Start)
      current = e.value;
    if (e.kind == DgdEvent::Move) {
      EXPECT_GT(e.value, current);
      current = e.value;
      ++moves;
      const Candidate *c = strategy->getPoint(state, e.point);
      ASSERT_TRUE(c);
      EXPECT_DOUBLE_EQ(fakeGflops(*c), e.value);
    }
  }
  EXPECT_GT(moves, 0);
}

TEST_F(DgdStrategyTest, FactoryAndValidation) {
  auto created = createStrategy("dgd", device, /*seed=*/0, "", "af");
  ASSERT_TRUE(static_cast<bool>(created)) << llvm::toString(created.takeError());
  EXPECT_EQ((*created)->name(), "dgd");
  EXPECT_TRUE(getStrategyRegistry().lookup("dgd"));
  auto invalid = createStrategy("dgd score-stop=sometimes", device, 0);
  ASSERT_FALSE(static_cast<bool>(invalid));
  EXPECT_EQ(llvm::toString(invalid.takeError()),
            "strategy 'dgd': score-stop=sometimes is not one of: prefix, all");
  auto hops = createStrategy("dgd max-hops=0", device, 0);
  ASSERT_FALSE(static_cast<bool>(hops));
  EXPECT_EQ(llvm::toString(hops.takeError()),
            "strategy 'dgd': max-hops=0 is out of range: at least 1");
}

} // namespace
