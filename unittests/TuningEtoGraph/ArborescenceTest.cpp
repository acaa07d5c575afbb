//===- ArborescenceTest.cpp - Minimum-cost arborescences ------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "GraphTestUtils.h"

#include "tessel/Tuning/Strategies/Eto/Arborescence.h"

#include "gtest/gtest.h"

using namespace mlir::tessel;
using namespace mlir::tessel::testing;

namespace {

TEST(ArborescenceTest, ReusesThroughACheaperPath) {
  // 0 -> 1 costs 5, but 0 -> 2 -> 1 costs 2.
  std::vector<WeightedEdge> edges = {
      {0, 1, 5}, {0, 2, 1}, {2, 1, 1}, {1, 2, 10}};
  std::optional<Arborescence> tree = findMinCostArborescence(3, 0, edges);
  ASSERT_TRUE(tree);
  EXPECT_DOUBLE_EQ(tree->cost, 2);
  EXPECT_EQ(tree->parent, (std::vector<int64_t>{-1, 2, 0}));
  EXPECT_EQ(tree->parentEdge, (std::vector<int64_t>{-1, 2, 1}));
  EXPECT_EQ(tree->topologicalOrder(), (std::vector<int64_t>{0, 2, 1}));
}

TEST(ArborescenceTest, ContractsTheCycleOfCheapestIncomingEdges) {
  // The cheapest edge into each of 1, 2, 3 makes the cycle 1 -> 2 -> 3 -> 1;
  // the optimum breaks it where entering from the root costs least (at 1).
  std::vector<WeightedEdge> edges = {{0, 1, 10}, {0, 2, 12}, {0, 3, 11},
                                     {1, 2, 1},  {2, 3, 1},  {3, 1, 1}};
  std::optional<Arborescence> tree = findMinCostArborescence(4, 0, edges);
  ASSERT_TRUE(tree);
  EXPECT_DOUBLE_EQ(tree->cost, 12);
  EXPECT_EQ(tree->parent, (std::vector<int64_t>{-1, 0, 1, 2}));
  EXPECT_EQ(tree->topologicalOrder(), (std::vector<int64_t>{0, 1, 2, 3}));
}

TEST(ArborescenceTest, CycleEntryDependsOnTheEdgeItReplaces) {
  // Cycle 1 <-> 2 (costs 1 and 5). Entering at 1 costs 4 and drops 2 -> 1
  // (5): 4 + 1 = 5 in all; entering at 2 costs 3 and drops 1 -> 2 (1):
  // 3 + 5 = 8. The cheaper root edge is the wrong one.
  std::vector<WeightedEdge> edges = {
      {0, 1, 4}, {0, 2, 3}, {1, 2, 1}, {2, 1, 5}};
  std::optional<Arborescence> tree = findMinCostArborescence(3, 0, edges);
  ASSERT_TRUE(tree);
  EXPECT_DOUBLE_EQ(tree->cost, 5);
  EXPECT_EQ(tree->parent, (std::vector<int64_t>{-1, 0, 1}));
}

TEST(ArborescenceTest, FailsWhenANodeIsUnreachable) {
  // 3 only has an edge to 1.
  std::vector<WeightedEdge> edges = {{0, 1, 1}, {1, 2, 1}, {3, 1, 1}};
  EXPECT_FALSE(findMinCostArborescence(4, 0, edges));
  EXPECT_EQ(findUnreachableNodes(4, 0, edges), (std::vector<int64_t>{3}));
  EXPECT_TRUE(findUnreachableNodes(3, 0, {{0, 1, 1}, {1, 2, 1}}).empty());
}

TEST(ArborescenceTest, IgnoresEdgesIntoTheRootAndSelfLoops) {
  // Parallel edges: the cheaper (index 2) wins.
  std::vector<WeightedEdge> edges = {{1, 0, 0}, {1, 1, 0}, {0, 1, 3},
                                     {0, 1, 7}, {2, 2, 0}, {1, 2, 2}};
  std::optional<Arborescence> tree = findMinCostArborescence(3, 0, edges);
  ASSERT_TRUE(tree);
  EXPECT_DOUBLE_EQ(tree->cost, 5);
  EXPECT_EQ(tree->parentEdge, (std::vector<int64_t>{-1, 2, 5}));
}

TEST(ArborescenceTest, OneNode) {
  std::optional<Arborescence> tree = findMinCostArborescence(1, 0, {});
  ASSERT_TRUE(tree);
  EXPECT_EQ(tree->cost, 0);
  EXPECT_EQ(tree->parent, (std::vector<int64_t>{-1}));
}

TEST(ArborescenceTest, NonZeroRootAndFractionalCosts) {
  // The OC graph shape: root 3 reaches every task at the trial cap.
  std::vector<WeightedEdge> edges = {
      {3, 0, 1000},  {3, 1, 1000},   {3, 2, 1000}, {0, 1, 120.5},
      {1, 2, 80.25}, {2, 0, 400.75}, {0, 2, 300}};
  std::optional<Arborescence> tree = findMinCostArborescence(4, 3, edges);
  ASSERT_TRUE(tree);
  EXPECT_DOUBLE_EQ(tree->cost, 1200.75);
  EXPECT_EQ(tree->parent, (std::vector<int64_t>{3, 0, 1, -1}));
  EXPECT_EQ(tree->topologicalOrder(), (std::vector<int64_t>{3, 0, 1, 2}));
}

TEST(ArborescenceTest, MatchesBruteForceOnRandomGraphs) {
  std::mt19937 rng(16);
  int feasible = 0;
  for (int trial = 0; trial < 300; ++trial) {
    int64_t numNodes = 2 + trial % 5;
    std::vector<WeightedEdge> edges = randomEdges(rng, numNodes, 0.6, 20);
    int64_t root = trial % numNodes;
    double best = bruteForceArborescence(
        numNodes, root, std::vector<bool>(numNodes, true), edges);
    std::optional<Arborescence> tree =
        findMinCostArborescence(numNodes, root, edges);
    ASSERT_EQ(tree.has_value(), std::isfinite(best)) << "trial " << trial;
    if (!tree)
      continue;
    ++feasible;
    EXPECT_DOUBLE_EQ(tree->cost, best) << "trial " << trial;
    std::vector<int64_t> all;
    for (int64_t node = 0; node < numNodes; ++node)
      all.push_back(node);
    EXPECT_TRUE(isArborescence(root, tree->parent, all)) << "trial " << trial;
    double sum = 0;
    for (int64_t node = 0; node < numNodes; ++node)
      if (node != root) {
        const WeightedEdge &edge = edges[tree->parentEdge[node]];
        EXPECT_EQ(edge.to, node);
        EXPECT_EQ(edge.from, tree->parent[node]);
        sum += edge.cost;
      }
    EXPECT_DOUBLE_EQ(sum, tree->cost);
  }
  // The generator makes both kinds.
  EXPECT_GT(feasible, 100);
  EXPECT_LT(feasible, 300);
}

} // namespace
