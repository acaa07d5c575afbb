//===- ScheduleTokensTest.cpp - Fasor's tokens of a schedule --------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/ScheduleTokens.h"

#include "tessel/InitAllDialects.h"
#include "tessel/Tuning/Features/FeatureExtractor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::fasor;

namespace {

constexpr StringLiteral kMatmul = R"mlir(
func.func @mm(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>,
              %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>)
                     outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}
)mlir";

class ScheduleTokensTest : public ::testing::Test {
protected:
  ScheduleTokensTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    llvm::Expected<DeviceDescription> found = findDevice("h100");
    if (!found)
      ADD_FAILURE() << llvm::toString(found.takeError());
    else
      device = *found;
    module = parseSourceString<ModuleOp>(kMatmul, &context);
    EXPECT_TRUE(module);
    module->walk([&](linalg::LinalgOp found) { op = found; });
    sketch = SketchAttr::get(&context, SketchKind::MultiLevelTiling,
                             "SSSRRSRS", {0, 1}, true, 0);
  }

  ConfigAttr config(int64_t unroll, ArrayRef<int64_t> vector) {
    return ConfigAttr::get(&context,
                           {{4, 2, 8, 2, 1}, {4, 1, 16, 1, 1}, {32, 2, 4}},
                           unroll, vector);
  }

  static float scaled(double x) { return std::log2(1 + x); }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  linalg::LinalgOp op;
  SketchAttr sketch;
  DeviceDescription device;
};

/// Six tokens of 176 values: the loop extents, the knobs, then the `ansor`
/// features block by block.
TEST_F(ScheduleTokensTest, Layout) {
  llvm::Expected<Tokens> tokens =
      encodeSchedule(op, {}, sketch, config(64, {2, 4}), device);
  ASSERT_TRUE(static_cast<bool>(tokens)) << llvm::toString(tokens.takeError());
  ASSERT_EQ(tokens->size(), 6u);
  for (const std::vector<float> &token : *tokens)
    EXPECT_EQ(token.size(), 176u);
  // Task: (extent, reduces) per loop.
  const std::vector<float> &task = (*tokens)[0];
  EXPECT_FLOAT_EQ(task[0], scaled(128));
  EXPECT_EQ(task[1], 0);
  EXPECT_FLOAT_EQ(task[2], scaled(64));
  EXPECT_EQ(task[3], 0);
  EXPECT_FLOAT_EQ(task[4], scaled(256));
  EXPECT_EQ(task[5], 1);
  // Knobs: 8 levels per loop, then unroll, 4 vector widths, stages, the
  // sketch kind one-hot, staged operands, register accumulator.
  const std::vector<float> &knobs = (*tokens)[1];
  EXPECT_FLOAT_EQ(knobs[0], scaled(4));
  EXPECT_FLOAT_EQ(knobs[2], scaled(8));
  EXPECT_FLOAT_EQ(knobs[8 + 2], scaled(16));
  EXPECT_FLOAT_EQ(knobs[16 + 0], scaled(32));
  EXPECT_FLOAT_EQ(knobs[16 + 2], scaled(4));
  EXPECT_FLOAT_EQ(knobs[64], scaled(64));
  EXPECT_FLOAT_EQ(knobs[65], scaled(2));
  EXPECT_FLOAT_EQ(knobs[66], scaled(4));
  EXPECT_EQ(knobs[67], 0);
  EXPECT_FLOAT_EQ(knobs[69], scaled(1));
  EXPECT_EQ(knobs[70], 1); // multi_level_tiling
  EXPECT_EQ(knobs[71] + knobs[72] + knobs[73], 0);
  EXPECT_EQ(knobs[74], 2);
  EXPECT_EQ(knobs[75], 1);
  // The statement and kernel blocks are the `ansor` features.
  auto ansor = createFeatureExtractor("ansor");
  ASSERT_TRUE(static_cast<bool>(ansor));
  FailureOr<std::vector<float>> features =
      (*ansor)->extract(op, {}, sketch, config(64, {2, 4}), device);
  ASSERT_TRUE(succeeded(features));
  for (size_t i = 0; i < features->size(); ++i)
    EXPECT_EQ((*tokens)[2 + i / 176][i % 176], (*features)[i]) << i;
  for (size_t i = features->size() - 3 * 176; i < 176; ++i)
    EXPECT_EQ((*tokens)[5][i], 0) << i;
}

/// Schedules that differ in one knob differ in their tokens.
TEST_F(ScheduleTokensTest, KnobsShow) {
  auto a = encodeSchedule(op, {}, sketch, config(64, {1, 1}), device);
  auto b = encodeSchedule(op, {}, sketch, config(16, {1, 1}), device);
  ASSERT_TRUE(static_cast<bool>(a) && static_cast<bool>(b));
  EXPECT_NE((*a)[1], (*b)[1]);
}

TEST_F(ScheduleTokensTest, ConfigThatDoesNotFit) {
  ConfigAttr wrong = ConfigAttr::get(
      &context, {{4, 2, 8, 2, 1}, {4, 1, 16, 1, 1}, {32, 2, 2}}, 64, {1, 1});
  llvm::Expected<Tokens> tokens =
      encodeSchedule(op, {}, sketch, wrong, device);
  ASSERT_FALSE(static_cast<bool>(tokens));
  EXPECT_EQ(llvm::toString(tokens.takeError()),
            "fasor: the schedule has no features (dynamic shapes, or a "
            "config that does not fit the op)");
}

} // namespace
