//===- PretrainTest.cpp - Pretraining Fasor's cost model ------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/Pretrain.h"

#include "tessel/InitAllDialects.h"
#include "tessel/Tuning/Strategies/Fasor/RandomTasks.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

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
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(makeRandomTaskModule(12, 1), &context);
  ASSERT_TRUE(module);
  auto tasks = extractTasks(*module, &context);
  ASSERT_TRUE(static_cast<bool>(tasks)) << llvm::toString(tasks.takeError());
  llvm::Expected<DeviceDescription> v100 = findDevice("v100");
  ASSERT_TRUE(static_cast<bool>(v100));
  DatasetOptions datasetOptions;
  datasetOptions.schedulesPerTask = 12;
  auto dataset = buildSimulatedDataset(*tasks, *v100, datasetOptions);
  ASSERT_TRUE(static_cast<bool>(dataset)) << llvm::toString(dataset.takeError());
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
