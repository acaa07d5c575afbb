//===- SensitivityTest.cpp - Fasor's offline sensitivity table ------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/Sensitivity.h"
#include "FasorTestUtils.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::fasor;

namespace {

class SensitivityTest : public ::testing::Test {
protected:
  SensitivityTable measure(uint64_t seed) {
    std::vector<TuningTask> tasks = source.extract();
    llvm::Expected<DeviceDescription> v100 = findDevice("v100");
    EXPECT_TRUE(static_cast<bool>(v100)) << llvm::toString(v100.takeError());
    SensitivityOptions options;
    options.startsPerTask = 4;
    options.seed = seed;
    llvm::Expected<SensitivityTable> table =
        measureSensitivity(tasks, *v100, options);
    EXPECT_TRUE(static_cast<bool>(table)) << llvm::toString(table.takeError());
    return table ? *table : SensitivityTable();
  }

  TaskModule source{kTwoTaskModule};
};

/// The knob primitives get entries, scores move by fractions of a peak, and
/// the sketch choices have none; the same seed measures the same table.
TEST_F(SensitivityTest, Measure) {
  SensitivityTable table = measure(5);
  for (Primitive primitive : {Primitive::Split, Primitive::Vectorization,
                              Primitive::Unrolling, Primitive::Parallel}) {
    ASSERT_TRUE(table.count(primitive)) << getPrimitiveName(primitive).str();
    const Sensitivity &s = table.at(primitive);
    EXPECT_GE(s.memory, 0);
    EXPECT_LE(s.memory, 1);
    EXPECT_GE(s.compute, 0);
    EXPECT_LE(s.compute, 1);
  }
  // Moving tiles moves the scores.
  EXPECT_GT(table.at(Primitive::Split).memory +
                table.at(Primitive::Split).compute,
            0);
  for (Primitive primitive : {Primitive::Fuse, Primitive::Reorder,
                              Primitive::ComputeInline, Primitive::ComputeAt})
    EXPECT_FALSE(table.count(primitive)) << getPrimitiveName(primitive).str();
  SensitivityTable again = measure(5);
  ASSERT_EQ(again.size(), table.size());
  for (const auto &[primitive, s] : table) {
    EXPECT_EQ(again.at(primitive).memory, s.memory);
    EXPECT_EQ(again.at(primitive).compute, s.compute);
  }
}

TEST(SensitivityJsonTest, RoundTripAndErrors) {
  SensitivityTable table = {{Primitive::Split, {0.25, 0.5}},
                            {Primitive::ComputeAt, {0.125, 0}}};
  llvm::json::Value json = sensitivityToJSON(table);
  std::string text;
  llvm::raw_string_ostream(text) << json;
  EXPECT_EQ(text, R"({"compute_at":{"compute":0,"memory":0.125},)"
                  R"("split":{"compute":0.5,"memory":0.25}})");
  llvm::Expected<SensitivityTable> back = sensitivityFromJSON(json);
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ(back->at(Primitive::Split).memory, 0.25);
  EXPECT_EQ(back->at(Primitive::Split).compute, 0.5);
  EXPECT_EQ(back->at(Primitive::ComputeAt).memory, 0.125);

  auto unknown = sensitivityFromJSON(
      llvm::json::Object{{"tile", llvm::json::Object{{"memory", 1}}}});
  ASSERT_FALSE(static_cast<bool>(unknown));
  EXPECT_EQ(llvm::toString(unknown.takeError()),
            "sensitivity table: unknown primitive 'tile'");
  auto missing = sensitivityFromJSON(
      llvm::json::Object{{"split", llvm::json::Object{{"memory", 1}}}});
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_EQ(llvm::toString(missing.takeError()),
            "sensitivity table: 'split' needs the numbers 'memory' and "
            "'compute'");
  auto notObject = sensitivityFromJSON(llvm::json::Value(3));
  ASSERT_FALSE(static_cast<bool>(notObject));
  EXPECT_EQ(llvm::toString(notObject.takeError()),
            "sensitivity table: not a JSON object");
}

} // namespace
