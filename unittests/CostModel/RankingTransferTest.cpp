//===- RankingTransferTest.cpp - Grouped ranking and transfer of XGBoost --===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/CostModel/XGBoostCostModel.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Two tasks of 40 candidates, features (x, task): in task 0 the throughput
/// rises with x (1 + x), in task 1 it falls with x, a thousand times larger
/// (1000 * (2 - x)). `flip` swaps the two orders.
struct TwoTasks {
  std::vector<FeatureVector> features;
  std::vector<double> throughputs;
  std::vector<unsigned> groups;

  explicit TwoTasks(bool flip = false) {
    // Interleaved, so that grouping has to sort the rows.
    for (int i = 0; i < 40; ++i)
      for (unsigned task : {0u, 1u}) {
        float x = i / 40.0f;
        features.push_back({x, float(task)});
        bool rising = (task == 0) != flip;
        throughputs.push_back((task == 0 ? 1 : 1000) *
                              (rising ? 1 + x : 2 - x));
        groups.push_back(task);
      }
  }
};

XGBoostCostModelOptions rankOptions() {
  XGBoostCostModelOptions options;
  options.objective = XGBoostObjective::PairwiseRank;
  return options;
}

/// Scores of task `task` at x = 0.0625, 0.1625, ..., 0.9625 (ten points,
/// each between two training points, four training points apart).
std::vector<double> scoresOf(XGBoostCostModel &model, unsigned task) {
  std::vector<FeatureVector> probes;
  for (int i = 0; i < 10; ++i)
    probes.push_back({(4 * i + 2.5f) / 40.0f, float(task)});
  llvm::Expected<std::vector<double>> scores = model.predict(probes);
  if (!scores) {
    ADD_FAILURE() << llvm::toString(scores.takeError());
    return {};
  }
  return *scores;
}

void expectStrictOrder(llvm::ArrayRef<double> scores, bool rising) {
  ASSERT_EQ(scores.size(), 10u);
  for (size_t i = 1; i < scores.size(); ++i) {
    if (rising)
      EXPECT_LT(scores[i - 1], scores[i]) << "at probe " << i;
    else
      EXPECT_GT(scores[i - 1], scores[i]) << "at probe " << i;
  }
}

TEST(RankingTransferTest, GroupedRankingRanksKnownOrder) {
  TwoTasks data;
  XGBoostCostModel model(rankOptions());
  llvm::Error error =
      model.trainGrouped(data.features, data.throughputs, data.groups);
  ASSERT_FALSE(error) << llvm::toString(std::move(error));
  expectStrictOrder(scoresOf(model, 0), /*rising=*/true);
  expectStrictOrder(scoresOf(model, 1), /*rising=*/false);
}

TEST(RankingTransferTest, RejectsMismatchedGroups) {
  TwoTasks data;
  XGBoostCostModel model(rankOptions());
  llvm::Error error = model.trainGrouped(
      data.features, data.throughputs, llvm::ArrayRef(data.groups).drop_back());
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_EQ(llvm::toString(std::move(error)),
            "xgboost cost model: train: 79 group ids for 80 records");
}

TEST(RankingTransferTest, StoredModelLoadsAndPredicts) {
  TwoTasks data;
  XGBoostCostModel source(rankOptions());
  ASSERT_FALSE(static_cast<bool>(
      source.trainGrouped(data.features, data.throughputs, data.groups)));
  llvm::Expected<std::string> saved = source.save();
  ASSERT_TRUE(static_cast<bool>(saved)) << llvm::toString(saved.takeError());

  XGBoostCostModel loaded(rankOptions());
  llvm::Error error = loaded.load(*saved);
  ASSERT_FALSE(error) << llvm::toString(std::move(error));
  EXPECT_EQ(loaded.getNumRounds(), source.getNumRounds());
  EXPECT_EQ(scoresOf(loaded, 0), scoresOf(source, 0));
  EXPECT_EQ(scoresOf(loaded, 1), scoresOf(source, 1));
}

TEST(RankingTransferTest, ContinuesFromBaseModel) {
  TwoTasks data;
  XGBoostCostModel source(rankOptions());
  ASSERT_FALSE(static_cast<bool>(
      source.trainGrouped(data.features, data.throughputs, data.groups)));
  llvm::Expected<std::string> saved = source.save();
  ASSERT_TRUE(static_cast<bool>(saved));

  // The new device orders both tasks the other way.
  TwoTasks flipped(/*flip=*/true);
  XGBoostCostModel target(rankOptions());
  llvm::Error error = target.setBaseModel(*saved);
  ASSERT_FALSE(error) << llvm::toString(std::move(error));
  EXPECT_EQ(target.getBaseRounds(), source.getNumRounds());
  error = target.trainGrouped(flipped.features, flipped.throughputs,
                              flipped.groups);
  ASSERT_FALSE(error) << llvm::toString(std::move(error));
  // The base trees are kept, new ones on top.
  EXPECT_GT(target.getNumRounds(), source.getNumRounds());
  expectStrictOrder(scoresOf(target, 0), /*rising=*/false);
  expectStrictOrder(scoresOf(target, 1), /*rising=*/true);

  // A base model of another width is refused.
  XGBoostCostModel narrow(rankOptions());
  std::vector<FeatureVector> one = {{0.f}, {1.f}};
  ASSERT_FALSE(static_cast<bool>(narrow.trainGrouped(one, {1.0, 2.0}, {})));
  error = narrow.setBaseModel(*saved);
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("feature width 2"),
            std::string::npos);
  error = target.setBaseModel("not a model");
  EXPECT_TRUE(static_cast<bool>(error));
  llvm::consumeError(std::move(error));
}

} // namespace
