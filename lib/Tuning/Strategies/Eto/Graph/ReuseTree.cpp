//===- ReuseTree.cpp - ETO's OC graph and its reuse tree ------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Eto/ReuseTree.h"

#include <cassert>
#include <cmath>

using namespace mlir::tessel;

ReuseTree mlir::tessel::selectReuseTree(const OcGraph &graph,
                                        const SteinerTreeOptions &options) {
  int64_t root = graph.getRoot();
  int64_t numNodes = graph.getNumNodes();
  assert(static_cast<int64_t>(graph.rootCosts.size()) == root &&
         "one root cost per task and bridge");
  std::vector<WeightedEdge> edges;
  edges.reserve(root + graph.reuseEdges.size());
  for (int64_t node = 0; node < root; ++node) {
    assert(std::isfinite(graph.rootCosts[node]) && graph.rootCosts[node] >= 0 &&
           "root costs must be finite, >= 0");
    edges.push_back({root, node, graph.rootCosts[node]});
  }
  for (const WeightedEdge &edge : graph.reuseEdges) {
    assert(edge.from >= 0 && edge.from < root && edge.to >= 0 &&
           edge.to < root && "reuse edges join tasks and bridges");
    edges.push_back(edge);
  }

  ReuseTree result;
  result.source.assign(root, ReuseTree::kUnused);
  std::vector<int64_t> parent, order;
  if (graph.numBridges == 0) {
    // Every node has a root edge: the arborescence exists.
    std::optional<Arborescence> tree =
        findMinCostArborescence(numNodes, root, edges);
    assert(tree && "the root reaches every node");
    parent = tree->parent;
    order = tree->topologicalOrder();
    result.cost = tree->cost;
  } else {
    std::vector<int64_t> terminals;
    for (int64_t task = 0; task < graph.numTasks; ++task)
      terminals.push_back(task);
    std::optional<SteinerTree> tree =
        findDirectedSteinerTree(numNodes, root, terminals, edges, options);
    assert(tree && "the root reaches every node");
    parent = tree->parent;
    order = tree->topologicalOrder();
    result.cost = tree->cost;
    result.bridges = tree->steinerNodes;
  }
  for (int64_t node = 0; node < root; ++node)
    if (parent[node] >= 0)
      result.source[node] =
          parent[node] == root ? ReuseTree::kBackend : parent[node];
  for (int64_t node : order)
    if (node != root)
      result.order.push_back(node);
  return result;
}
