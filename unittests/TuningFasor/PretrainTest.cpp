//===- PretrainTest.cpp - Pretraining Fasor's cost model ------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/Pretrain.h"

#include "FasorTestUtils.h"

#include "gtest/gtest.h"

#include <cmath>
#include <set>

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::fasor;

namespace {

/// The split is by task: every task on one side, a fifth of them (at least
/// one) held out; the run is deterministic for a seed.
TEST(PretrainTest, SplitsByTask) {
  RandomDataset random(12, 1, "v100", 12);
  ASSERT_FALSE(random.schedules.empty());
  const std::vector<LabeledSchedule> *dataset = &random.schedules;
  std::set<std::string> keys;
  for (const LabeledSchedule &labeled : *dataset)
    keys.insert(labeled.workloadKey);

  PretrainOptions options;
  options.seed = 4;
  options.network.layers = 1;
  options.network.hidden = 32;
  options.network.heads = 4;
  options.training.epochs = 2;
  auto result = pretrain(*dataset, options);
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->trainTasks + result->testTasks,
            static_cast<int64_t>(keys.size()));
  EXPECT_EQ(result->testTasks, std::lround(0.2 * keys.size()));
  EXPECT_EQ(result->trainSchedules + result->testSchedules,
            static_cast<int64_t>(dataset->size()));
  EXPECT_EQ(result->losses.size(), 2u);
  EXPECT_TRUE(std::isfinite(result->test.latency));

  auto again = pretrain(*dataset, options);
  ASSERT_TRUE(static_cast<bool>(again));
  EXPECT_EQ(again->test.latency, result->test.latency);
  EXPECT_EQ(again->test.memoryBound, result->test.memoryBound);

  // One task cannot be split.
  std::vector<LabeledSchedule> single;
  for (const LabeledSchedule &labeled : *dataset)
    if (labeled.workloadKey == dataset->front().workloadKey)
      single.push_back(labeled);
  auto none = pretrain(single, options);
  ASSERT_FALSE(static_cast<bool>(none));
  EXPECT_EQ(llvm::toString(none.takeError()),
            "fasor: pretraining needs schedules of at least two tasks");
}

} // namespace
