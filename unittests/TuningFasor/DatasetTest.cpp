//===- DatasetTest.cpp - Fasor's simulated dataset ------------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/Dataset.h"
#include "FasorTestUtils.h"

#include "tessel/InitAllDialects.h"
#include "tessel/Tuning/Strategies/Fasor/RandomTasks.h"
#include "tessel/Tuning/Strategies/Fasor/ScheduleTokens.h"

#include "gtest/gtest.h"

#include <set>

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::fasor;

namespace {

class DatasetTest : public ::testing::Test {
protected:
  std::vector<TuningTask> getTasks() { return source.extract(); }

  TaskModule source{kTwoTaskModule};
};

/// Distinct schedules of both tasks, labelled within range, with tokens of
/// the model's shape; the same seed gives the same dataset.
TEST_F(DatasetTest, LabelsAndTokens) {
  llvm::Expected<DeviceDescription> v100 = findDevice("v100");
  ASSERT_TRUE(static_cast<bool>(v100)) << llvm::toString(v100.takeError());
  std::vector<TuningTask> tasks = getTasks();
  ASSERT_EQ(tasks.size(), 2u);
  DatasetOptions options;
  options.schedulesPerTask = 24;
  options.seed = 3;
  auto dataset = buildSimulatedDataset(tasks, *v100, options);
  ASSERT_TRUE(static_cast<bool>(dataset)) << llvm::toString(dataset.takeError());
  std::set<std::string> kinds, schedules;
  for (const LabeledSchedule &labeled : *dataset) {
    kinds.insert(labeled.opKind);
    EXPECT_TRUE(schedules.insert(labeled.workloadKey + labeled.schedule).second)
        << "drawn twice: " << labeled.schedule;
    EXPECT_GT(labeled.sample.label.latencyUs, 0);
    EXPECT_GE(labeled.sample.label.memoryBound, 0);
    EXPECT_LE(labeled.sample.label.memoryBound, 1);
    EXPECT_GE(labeled.sample.label.computeBound, 0);
    EXPECT_LE(labeled.sample.label.computeBound, 1);
    ASSERT_EQ(labeled.sample.tokens.size(),
              static_cast<size_t>(kTokensPerSchedule));
  }
  EXPECT_EQ(kinds.size(), 2u);
  // Most draws run (a few may need more shared memory than the device has).
  EXPECT_GT(dataset->size(), 30u);
  EXPECT_LE(dataset->size(), 48u);
  // Some schedule is far from both peaks, some closer: the labels vary.
  double lowest = 1, highest = 0;
  for (const LabeledSchedule &labeled : *dataset) {
    lowest = std::min(lowest, labeled.sample.label.computeBound);
    highest = std::max(highest, labeled.sample.label.computeBound);
  }
  EXPECT_LT(lowest, highest);

  std::vector<TuningTask> again = getTasks();
  auto repeated = buildSimulatedDataset(again, *v100, options);
  ASSERT_TRUE(static_cast<bool>(repeated));
  ASSERT_EQ(repeated->size(), dataset->size());
  for (auto [a, b] : llvm::zip_equal(*dataset, *repeated)) {
    EXPECT_EQ(a.schedule, b.schedule);
    EXPECT_EQ(a.sample.label.latencyUs, b.sample.label.latencyUs);
  }
}

/// Random operators parse, make tasks of the three kinds, and are the same
/// for the same seed.
TEST_F(DatasetTest, RandomTasks) {
  std::string text = makeRandomTaskModule(12, 5);
  EXPECT_EQ(text, makeRandomTaskModule(12, 5));
  EXPECT_NE(text, makeRandomTaskModule(12, 6));
  TaskModule random(text);
  std::set<std::string> kinds;
  for (const TuningTask &task : random.tasks)
    kinds.insert(task.opKind);
  EXPECT_EQ(kinds, (std::set<std::string>{"conv_2d_nchw_fchw",
                                          "depthwise_conv_2d_nchw_chw",
                                          "matmul"}));
  EXPECT_GE(random.tasks.size(), 10u);
}

} // namespace
