//===- TransferTest.cpp - Moving Fasor's cost model to a new device -------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/Transfer.h"

#include "tessel/Tuning/Strategies/Fasor/ScheduleTokens.h"

#include "FasorTestUtils.h"

#include "gtest/gtest.h"

#include <set>

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::fasor;

namespace {

/// Three groups of tasks whose features rank alike within a group
/// (increasing, decreasing, low in the middle): k = 3 picks one of each.
TEST(TransferTest, DiverseTasksComeFromDifferentClusters) {
  std::vector<std::vector<double>> features = {
      {1, 2, 3, 4, 5},   {2, 3, 4, 5, 6},   {1, 3, 5, 7, 9},
      {5, 4, 3, 2, 1},   {9, 7, 5, 3, 1},   {6, 5, 4, 3, 2},
      {5, 2, 1, 3, 6},   {9, 4, 1, 2, 8},   {7, 3, 1, 2, 9},
  };
  std::vector<size_t> chosen = selectDiverseTasks(features, 3);
  ASSERT_EQ(chosen.size(), 3u);
  std::set<size_t> groups;
  for (size_t index : chosen)
    groups.insert(index / 3);
  EXPECT_EQ(groups, (std::set<size_t>{0, 1, 2}));
  // At most k items: all of them.
  EXPECT_EQ(selectDiverseTasks(llvm::ArrayRef(features).take_front(2), 3),
            (std::vector<size_t>{0, 1}));
}

/// transfer() measures k tasks' schedules and evaluates on all the others.
TEST(TransferTest, MeasuresKTasksAndEvaluatesTheRest) {
  RandomDataset random(15, 2, "t4", 8);
  ASSERT_FALSE(random.schedules.empty());
  const std::vector<LabeledSchedule> *dataset = &random.schedules;

  TransformerOptions small;
  small.layers = 1;
  small.hidden = 32;
  small.heads = 4;
  auto model = TransformerCostModel::create(kTokenWidth, small, 1);
  ASSERT_TRUE(static_cast<bool>(model));
  TransferOptions options;
  options.tasks = 4;
  options.fineTune.epochs = 2;
  options.fineTune.keepLatencyScale = false;
  auto result = transfer(*model, *dataset, options);
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->measuredTasks.size(), 4u);
  EXPECT_EQ(std::set<std::string>(result->measuredTasks.begin(),
                                  result->measuredTasks.end())
                .size(),
            4u);
  EXPECT_EQ(result->measuredSchedules + result->evaluatedSchedules,
            static_cast<int64_t>(dataset->size()));
  int64_t measured = 0;
  for (const LabeledSchedule &labeled : *dataset)
    measured += llvm::is_contained(result->measuredTasks, labeled.workloadKey);
  EXPECT_EQ(measured, result->measuredSchedules);

  // Fewer tasks than it measures: nothing left to evaluate on.
  options.tasks = 100;
  auto tooMany = transfer(*model, *dataset, options);
  ASSERT_FALSE(static_cast<bool>(tooMany));
  EXPECT_EQ(llvm::toString(tooMany.takeError()),
            "fasor: transfer needs more tasks than it measures, to evaluate "
            "on");
}

} // namespace
