//===- DatasetTest.cpp - Fasor's simulated dataset ------------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/Dataset.h"

#include "tessel/InitAllDialects.h"
#include "tessel/Tuning/Strategies/Fasor/RandomTasks.h"
#include "tessel/Tuning/Strategies/Fasor/ScheduleTokens.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <set>

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::fasor;

namespace {

constexpr StringLiteral kTwoTasks = R"mlir(
func.func @f(%a: tensor<256x128xf32>, %b: tensor<128x512xf32>, %x: tensor<1x16x34x34xf32>, %w: tensor<32x16x3x3xf32>) -> (tensor<256x512xf32>, tensor<1x32x32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x512xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
  %m = linalg.matmul ins(%a, %b : tensor<256x128xf32>, tensor<128x512xf32>) outs(%i : tensor<256x512xf32>) -> tensor<256x512xf32>
  %e2 = tensor.empty() : tensor<1x32x32x32xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x32x32x32xf32>) -> tensor<1x32x32x32xf32>
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x16x34x34xf32>, tensor<32x16x3x3xf32>) outs(%i2 : tensor<1x32x32x32xf32>) -> tensor<1x32x32x32xf32>
  return %m, %c : tensor<256x512xf32>, tensor<1x32x32x32xf32>
}
)mlir";

class DatasetTest : public ::testing::Test {
protected:
  DatasetTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    module = parseSourceString<ModuleOp>(kTwoTasks, &context);
    EXPECT_TRUE(module);
  }

  std::vector<TuningTask> getTasks() {
    llvm::Expected<std::vector<TuningTask>> tasks =
        extractTasks(*module, &context);
    EXPECT_TRUE(static_cast<bool>(tasks)) << llvm::toString(tasks.takeError());
    return tasks ? std::move(*tasks) : std::vector<TuningTask>();
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
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
  std::string source = makeRandomTaskModule(12, 5);
  EXPECT_EQ(source, makeRandomTaskModule(12, 5));
  EXPECT_NE(source, makeRandomTaskModule(12, 6));
  OwningOpRef<ModuleOp> random = parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(random);
  llvm::Expected<std::vector<TuningTask>> tasks =
      extractTasks(*random, &context);
  ASSERT_TRUE(static_cast<bool>(tasks)) << llvm::toString(tasks.takeError());
  std::set<std::string> kinds;
  for (const TuningTask &task : *tasks)
    kinds.insert(task.opKind);
  EXPECT_EQ(kinds, (std::set<std::string>{"conv_2d_nchw_fchw",
                                          "depthwise_conv_2d_nchw_chw",
                                          "matmul"}));
  EXPECT_GE(tasks->size(), 10u);
}

} // namespace
