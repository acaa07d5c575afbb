//===- StartPointsTest.cpp - Fasor's start-point database -----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/StartPoints.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir::tessel::fasor;

namespace {

TEST(StartPointsTest, Spearman) {
  EXPECT_DOUBLE_EQ(getSpearmanSimilarity({1, 2, 3, 4}, {10, 20, 30, 40}), 1);
  EXPECT_DOUBLE_EQ(getSpearmanSimilarity({1, 2, 3, 4}, {4, 3, 2, 1}), -1);
  // Monotone, not linear: still 1.
  EXPECT_DOUBLE_EQ(getSpearmanSimilarity({1, 2, 3, 4}, {1, 8, 27, 1000}), 1);
  // Ranks 1 2 3 4 against 2 1 4 3: 1 - 6 x 4 / (4 x 15) = 0.6.
  EXPECT_NEAR(getSpearmanSimilarity({1, 2, 3, 4}, {2, 1, 4, 3}), 0.6, 1e-12);
  // Ties share their mean rank: {1, 2.5, 2.5, 4} against 1 2 3 4.
  EXPECT_NEAR(getSpearmanSimilarity({5, 7, 7, 9}, {1, 2, 3, 4}),
              4.5 / std::sqrt(4.5 * 5), 1e-12);
  // Different lengths or a constant vector: not comparable.
  EXPECT_EQ(getSpearmanSimilarity({1, 2, 3}, {1, 2}), 0);
  EXPECT_EQ(getSpearmanSimilarity({3, 3, 3}, {1, 2, 3}), 0);
}

StartPoint makePoint(std::string target, std::string task, std::string kind,
                     std::vector<double> arguments, std::string config,
                     double latency) {
  return {{std::move(target), std::move(task), std::move(kind),
           std::move(arguments)},
          "sketch",
          std::move(config),
          latency};
}

/// An exact hit wins; otherwise the most similar entry of the target's
/// same kernel class if the similarity reaches tau; else the default.
/// Matmul arguments are (M, N, K).
TEST(StartPointsTest, Lookup) {
  StartPointDatabase database;
  database.insert(
      makePoint("h100", "matmul 1024x1024x1024", "matmul", {1024, 1024, 1024},
                "A", 10));
  database.insert(
      makePoint("h100", "matmul 64x4096x256", "matmul", {64, 4096, 256}, "B",
                5));
  database.insert(makePoint("h100", "conv 1x64x56x56", "conv2d",
                            {1, 64, 56, 56, 3, 3}, "C", 7));
  database.insert(
      makePoint("a100", "matmul 128x8192x512", "matmul", {128, 8192, 512},
                "D", 3));
  // A faster program of a stored key replaces it; a slower one does not.
  database.insert(
      makePoint("h100", "matmul 1024x1024x1024", "matmul", {1024, 1024, 1024},
                "A2", 8));
  database.insert(
      makePoint("h100", "matmul 1024x1024x1024", "matmul", {1024, 1024, 1024},
                "A3", 9));
  EXPECT_EQ(database.size(), 4u);

  StartPointDatabase::Lookup exact = database.lookup(
      {"h100", "matmul 1024x1024x1024", "matmul", {1024, 1024, 1024}});
  EXPECT_EQ(exact.match, StartPointDatabase::Match::Exact);
  ASSERT_TRUE(exact.point);
  EXPECT_EQ(exact.point->config, "A2");
  EXPECT_EQ(exact.similarity, 1.0);

  // 128x8192x512 ranks its arguments as B does (1 3 2): similarity 1 (A's
  // equal extents have no ranking: 0). The A100's D is that very task, on
  // another target.
  StartPointDatabase::Lookup similar = database.lookup(
      {"h100", "matmul 128x8192x512", "matmul", {128, 8192, 512}});
  EXPECT_EQ(similar.match, StartPointDatabase::Match::Similar);
  ASSERT_TRUE(similar.point);
  EXPECT_EQ(similar.point->config, "B");
  EXPECT_DOUBLE_EQ(similar.similarity, 1.0);

  // 200x300x100 (ranks 2 3 1) against B: 0.5, below tau = 0.6: the
  // default; with tau = 0.5, B.
  StartPointKey half{"h100", "matmul 200x300x100", "matmul", {200, 300, 100}};
  StartPointDatabase::Lookup below = database.lookup(half);
  EXPECT_EQ(below.match, StartPointDatabase::Match::Default);
  EXPECT_FALSE(below.point);
  StartPointDatabase::Lookup at = database.lookup(half, 0.5);
  EXPECT_EQ(at.match, StartPointDatabase::Match::Similar);
  ASSERT_TRUE(at.point);
  EXPECT_EQ(at.point->config, "B");
  EXPECT_NEAR(at.similarity, 0.5, 1e-12);

  // 4096x64x256 (ranks 3 1 2) against B: -1. The default.
  StartPointDatabase::Lookup opposite = database.lookup(
      {"h100", "matmul 4096x64x256", "matmul", {4096, 64, 256}});
  EXPECT_EQ(opposite.match, StartPointDatabase::Match::Default);

  // Another kernel class is never a start point; another target neither.
  StartPointDatabase::Lookup otherClass = database.lookup(
      {"h100", "batch_matmul 8x64x4096x256", "batch_matmul", {64, 4096, 256}});
  EXPECT_EQ(otherClass.match, StartPointDatabase::Match::Default);
  StartPointDatabase::Lookup otherTarget = database.lookup(
      {"t4", "matmul 64x4096x256", "matmul", {64, 4096, 256}});
  EXPECT_EQ(otherTarget.match, StartPointDatabase::Match::Default);
}

} // namespace
