//===- GraphTestUtils.h - Brute-force references for graph tests -*- C++
//-*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Exhaustive solvers for tiny digraphs, the references of the arborescence
// and Steiner tree tests, and a seeded random graph generator.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_UNITTESTS_TUNINGETOGRAPH_GRAPHTESTUTILS_H
#define TESSEL_UNITTESTS_TUNINGETOGRAPH_GRAPHTESTUTILS_H

#include "tessel/Tuning/Strategies/Eto/Arborescence.h"

#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <vector>

namespace mlir {
namespace tessel {
namespace testing {

/// Whether following `parent` from every node with a parent ends at `root`
/// without a cycle, and every node of `mustReach` has a parent (or is root).
inline bool isArborescence(int64_t root, const std::vector<int64_t> &parent,
                           const std::vector<int64_t> &mustReach) {
  int64_t numNodes = static_cast<int64_t>(parent.size());
  for (int64_t node : mustReach)
    if (node != root && parent[node] < 0)
      return false;
  for (int64_t node = 0; node < numNodes; ++node) {
    if (parent[node] < 0)
      continue;
    int64_t at = node;
    for (int64_t steps = 0; at != root; ++steps) {
      if (steps > numNodes || parent[at] < 0)
        return false;
      at = parent[at];
    }
  }
  return parent[root] < 0;
}

/// The optimum by trying every choice of one incoming edge per node of
/// `nodes` (root excluded); infinity when none spans them.
inline double bruteForceArborescence(int64_t numNodes, int64_t root,
                                     const std::vector<bool> &nodes,
                                     const std::vector<WeightedEdge> &edges) {
  std::vector<int64_t> members;
  for (int64_t node = 0; node < numNodes; ++node)
    if (nodes[node] && node != root)
      members.push_back(node);
  std::vector<std::vector<int64_t>> choices(members.size());
  for (size_t i = 0; i < members.size(); ++i)
    for (int64_t e = 0; e < static_cast<int64_t>(edges.size()); ++e)
      if (edges[e].to == members[i] && edges[e].from != edges[e].to &&
          nodes[edges[e].from])
        choices[i].push_back(e);
  double best = std::numeric_limits<double>::infinity();
  std::vector<size_t> pick(members.size(), 0);
  for (const auto &list : choices)
    if (list.empty())
      return best;
  while (true) {
    std::vector<int64_t> parent(numNodes, -1);
    double cost = 0;
    for (size_t i = 0; i < members.size(); ++i) {
      const WeightedEdge &edge = edges[choices[i][pick[i]]];
      parent[members[i]] = edge.from;
      cost += edge.cost;
    }
    if (cost < best && isArborescence(root, parent, members))
      best = cost;
    size_t i = 0;
    while (i < members.size() && ++pick[i] == choices[i].size())
      pick[i++] = 0;
    if (i == members.size())
      break;
  }
  return best;
}

/// The exact directed Steiner tree cost: the best arborescence over the
/// root, the terminals and any subset of the other nodes.
inline double bruteForceSteinerTree(int64_t numNodes, int64_t root,
                                    const std::vector<int64_t> &terminals,
                                    const std::vector<WeightedEdge> &edges) {
  std::vector<bool> isTerminal(numNodes, false);
  for (int64_t terminal : terminals)
    isTerminal[terminal] = true;
  isTerminal[root] = true;
  std::vector<int64_t> optional;
  for (int64_t node = 0; node < numNodes; ++node)
    if (!isTerminal[node])
      optional.push_back(node);
  double best = std::numeric_limits<double>::infinity();
  for (uint64_t mask = 0; mask < (uint64_t(1) << optional.size()); ++mask) {
    std::vector<bool> nodes = isTerminal;
    for (size_t i = 0; i < optional.size(); ++i)
      if (mask & (uint64_t(1) << i))
        nodes[optional[i]] = true;
    best = std::min(best, bruteForceArborescence(numNodes, root, nodes, edges));
  }
  return best;
}

/// A random digraph: each ordered pair gets an edge with probability
/// `density`, integer costs in [0, maxCost].
inline std::vector<WeightedEdge>
randomEdges(std::mt19937 &rng, int64_t numNodes, double density, int maxCost) {
  std::uniform_real_distribution<double> coin(0, 1);
  std::uniform_int_distribution<int> cost(0, maxCost);
  std::vector<WeightedEdge> edges;
  for (int64_t from = 0; from < numNodes; ++from)
    for (int64_t to = 0; to < numNodes; ++to)
      if (from != to && coin(rng) < density)
        edges.push_back({from, to, static_cast<double>(cost(rng))});
  return edges;
}

} // namespace testing
} // namespace tessel
} // namespace mlir

#endif // TESSEL_UNITTESTS_TUNINGETOGRAPH_GRAPHTESTUTILS_H
