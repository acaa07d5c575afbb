//===- PickDiverseTest.cpp - Diversity-aware batch selection --------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Tuner/Strategy.h"
#include "tessel/Dialect/Tessel/IR/TesselDialect.h"

#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

class PickDiverseTest : public ::testing::Test {
protected:
  PickDiverseTest() { context.loadDialect<TesselDialect>(); }

  /// A candidate of a two-loop config with the given tiles of loop 0 (loop
  /// 1 fixed) and unroll value.
  std::pair<double, Candidate> make(double score, int64_t outer,
                                    int64_t inner, int64_t unroll) {
    auto config = ConfigAttr::get(&context, {{outer, inner}, {4, 4}}, unroll,
                                  {1});
    return {score, Candidate{0, SketchAttr(), config}};
  }

  MLIRContext context;
};

TEST_F(PickDiverseTest, ScoreAloneWhenKnobsAreWorthNothing) {
  std::vector<std::pair<double, Candidate>> ranked = {
      make(0.9, 2, 8, 0), make(0.8, 2, 8, 16), make(0.7, 4, 4, 0)};
  EXPECT_EQ(pickDiverse(ranked, 2, /*knobWeight=*/0),
            (std::vector<size_t>{0, 1}));
}

TEST_F(PickDiverseTest, NewKnobValuesOutweighSmallScoreGaps) {
  // The first pick is the best; the second differs from it only in the
  // unroll value (1 new value), the third in both tiles of loop 0 (2 new
  // values), so with weight 1 the third comes before the second.
  std::vector<std::pair<double, Candidate>> ranked = {
      make(0.9, 2, 8, 0), make(0.8, 2, 8, 16), make(0.7, 4, 4, 0)};
  EXPECT_EQ(pickDiverse(ranked, 3), (std::vector<size_t>{0, 2, 1}));
  // A large enough score gap wins over diversity.
  ranked[1].first = 5.0;
  EXPECT_EQ(pickDiverse(ranked, 2), (std::vector<size_t>{1, 2}));
}

TEST_F(PickDiverseTest, PicksAtMostWhatThereIs) {
  std::vector<std::pair<double, Candidate>> ranked = {make(0.5, 2, 8, 0)};
  EXPECT_EQ(pickDiverse(ranked, 4), (std::vector<size_t>{0}));
  EXPECT_TRUE(pickDiverse({}, 4).empty());
}

} // namespace
