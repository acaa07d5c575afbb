//===- ReuseTreeTest.cpp - ETO's OC graph and its reuse tree --------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Eto/ReuseTree.h"

#include "gtest/gtest.h"

#include <random>

using namespace mlir::tessel;

namespace {

constexpr int64_t kBackend = ReuseTree::kBackend;
constexpr int64_t kUnused = ReuseTree::kUnused;

TEST(ReuseTreeTest, WithoutBridgesIsTheArborescence) {
  OcGraph graph;
  graph.numTasks = 3;
  graph.rootCosts = {1000, 1000, 1000};
  graph.reuseEdges = {{0, 1, 120}, {1, 2, 80}, {2, 0, 400}, {0, 2, 300}};
  ReuseTree tree = selectReuseTree(graph);
  EXPECT_DOUBLE_EQ(tree.cost, 1200);
  EXPECT_EQ(tree.source, (std::vector<int64_t>{kBackend, 0, 1}));
  EXPECT_EQ(tree.order, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_TRUE(tree.bridges.empty());
}

TEST(ReuseTreeTest, TunesABridgeWhenItPays) {
  // Tasks 0 and 1 reuse each other badly (900); bridge 2 serves both.
  OcGraph graph;
  graph.numTasks = 2;
  graph.numBridges = 1;
  graph.rootCosts = {1000, 1000, 1000};
  graph.reuseEdges = {{0, 1, 900}, {1, 0, 900}, {2, 0, 100},
                      {2, 1, 100}, {0, 2, 50},  {1, 2, 60}};
  ReuseTree tree = selectReuseTree(graph);
  EXPECT_DOUBLE_EQ(tree.cost, 1150);
  EXPECT_EQ(tree.source, (std::vector<int64_t>{kBackend, 2, 0}));
  EXPECT_EQ(tree.order, (std::vector<int64_t>{0, 2, 1}));
  EXPECT_EQ(tree.bridges, (std::vector<int64_t>{2}));
}

TEST(ReuseTreeTest, LeavesOutABridgeThatDoesNotPay) {
  OcGraph graph;
  graph.numTasks = 2;
  graph.numBridges = 1;
  graph.rootCosts = {1000, 1000, 1000};
  graph.reuseEdges = {{0, 1, 200}, {2, 0, 300}, {2, 1, 300}, {0, 2, 250}};
  ReuseTree tree = selectReuseTree(graph);
  EXPECT_DOUBLE_EQ(tree.cost, 1200);
  EXPECT_EQ(tree.source, (std::vector<int64_t>{kBackend, 0, kUnused}));
  EXPECT_EQ(tree.order, (std::vector<int64_t>{0, 1}));
  EXPECT_TRUE(tree.bridges.empty());
}

TEST(ReuseTreeTest, KnownProgramsCostNothing) {
  // Task 0 was tuned in an earlier run: its root edge costs 0, and the
  // others reuse it rather than paying the trial cap.
  OcGraph graph;
  graph.numTasks = 3;
  graph.rootCosts = {0, 1000, 1000};
  graph.reuseEdges = {{0, 1, 150}, {0, 2, 400}, {1, 2, 100}};
  ReuseTree tree = selectReuseTree(graph);
  EXPECT_DOUBLE_EQ(tree.cost, 250);
  EXPECT_EQ(tree.source, (std::vector<int64_t>{kBackend, 0, 1}));
}

/// Bridges never make the selection costlier than the arborescence of the
/// tasks alone (the paper's Fig. 6 property), on random OC graphs.
TEST(ReuseTreeTest, BridgesNeverHurt) {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> cost(10, 1200);
  int helped = 0;
  for (int trial = 0; trial < 200; ++trial) {
    OcGraph graph;
    graph.numTasks = 2 + trial % 7;
    graph.numBridges = 1 + trial % 5;
    int64_t nodes = graph.numTasks + graph.numBridges;
    graph.rootCosts.assign(nodes, 1000);
    for (int64_t from = 0; from < nodes; ++from)
      for (int64_t to = 0; to < nodes; ++to)
        if (from != to && rng() % 2)
          graph.reuseEdges.push_back({from, to, cost(rng)});
    OcGraph tasksOnly;
    tasksOnly.numTasks = graph.numTasks;
    tasksOnly.rootCosts.assign(graph.numTasks, 1000);
    for (const WeightedEdge &edge : graph.reuseEdges)
      if (edge.from < graph.numTasks && edge.to < graph.numTasks)
        tasksOnly.reuseEdges.push_back(edge);
    ReuseTree with = selectReuseTree(graph);
    ReuseTree without = selectReuseTree(tasksOnly);
    EXPECT_LE(with.cost, without.cost + 1e-9) << "trial " << trial;
    helped += with.cost < without.cost - 1e-9;
    // Every task is tuned, after its source.
    std::vector<int64_t> position(nodes, -1);
    for (size_t i = 0; i < with.order.size(); ++i)
      position[with.order[i]] = static_cast<int64_t>(i);
    for (int64_t node = 0; node < nodes; ++node) {
      if (node < graph.numTasks) {
        EXPECT_NE(with.source[node], kUnused);
      }
      if (with.source[node] >= 0) {
        EXPECT_LT(position[with.source[node]], position[node]);
      }
      EXPECT_EQ(position[node] >= 0, with.source[node] != kUnused);
    }
  }
  EXPECT_GT(helped, 20);
}

} // namespace
