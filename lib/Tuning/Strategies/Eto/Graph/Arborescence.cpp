//===- Arborescence.cpp - Minimum-cost spanning arborescence --------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Eto/Arborescence.h"

#include <lemon/list_graph.h>
#include <lemon/min_cost_arborescence.h>

#include <cassert>
#include <deque>

using namespace mlir::tessel;

std::vector<int64_t> Arborescence::topologicalOrder() const {
  int64_t numNodes = static_cast<int64_t>(parent.size());
  std::vector<std::vector<int64_t>> children(numNodes);
  for (int64_t node = 0; node < numNodes; ++node)
    if (parent[node] >= 0)
      children[parent[node]].push_back(node);
  std::vector<int64_t> order;
  std::deque<int64_t> queue{root};
  while (!queue.empty()) {
    int64_t node = queue.front();
    queue.pop_front();
    order.push_back(node);
    queue.insert(queue.end(), children[node].begin(), children[node].end());
  }
  return order;
}

std::vector<int64_t>
mlir::tessel::findUnreachableNodes(int64_t numNodes, int64_t root,
                                   const std::vector<WeightedEdge> &edges) {
  assert(root >= 0 && root < numNodes && "root out of range");
  std::vector<std::vector<int64_t>> successors(numNodes);
  for (const WeightedEdge &edge : edges)
    successors[edge.from].push_back(edge.to);
  std::vector<bool> seen(numNodes, false);
  std::vector<int64_t> stack{root};
  seen[root] = true;
  while (!stack.empty()) {
    int64_t node = stack.back();
    stack.pop_back();
    for (int64_t next : successors[node])
      if (!seen[next]) {
        seen[next] = true;
        stack.push_back(next);
      }
  }
  std::vector<int64_t> unreachable;
  for (int64_t node = 0; node < numNodes; ++node)
    if (!seen[node])
      unreachable.push_back(node);
  return unreachable;
}

std::optional<Arborescence>
mlir::tessel::findMinCostArborescence(int64_t numNodes, int64_t root,
                                      const std::vector<WeightedEdge> &edges) {
  assert(numNodes > 0 && root >= 0 && root < numNodes && "root out of range");
  using Graph = lemon::ListDigraph;
  Graph graph;
  graph.reserveNode(static_cast<int>(numNodes));
  graph.reserveArc(static_cast<int>(edges.size()));
  std::vector<Graph::Node> nodes;
  nodes.reserve(numNodes);
  for (int64_t node = 0; node < numNodes; ++node)
    nodes.push_back(graph.addNode());
  Graph::ArcMap<double> costs(graph);
  Graph::ArcMap<int64_t> indices(graph);
  for (int64_t index = 0; index < static_cast<int64_t>(edges.size()); ++index) {
    const WeightedEdge *edge = &edges[index];
    assert(edge->from >= 0 && edge->from < numNodes && edge->to >= 0 &&
           edge->to < numNodes && "edge endpoint out of range");
    if (edge->from == edge->to || edge->to == root)
      continue;
    Graph::Arc arc = graph.addArc(nodes[edge->from], nodes[edge->to]);
    costs[arc] = edge->cost;
    indices[arc] = index;
  }

  lemon::MinCostArborescence<Graph, Graph::ArcMap<double>> solver(graph, costs);
  solver.run(nodes[root]);

  Arborescence result;
  result.root = root;
  result.parent.assign(numNodes, -1);
  result.parentEdge.assign(numNodes, -1);
  for (int64_t node = 0; node < numNodes; ++node) {
    if (node == root)
      continue;
    if (!solver.reached(nodes[node]))
      return std::nullopt;
    Graph::Arc arc = solver.pred(nodes[node]);
    int64_t index = indices[arc];
    result.parentEdge[node] = index;
    result.parent[node] = edges[index].from;
    result.cost += edges[index].cost;
  }
  return result;
}
