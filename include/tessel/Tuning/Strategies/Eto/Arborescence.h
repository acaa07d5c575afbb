//===- Arborescence.h - Minimum-cost spanning arborescence ------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The minimum-cost spanning arborescence of a weighted digraph (Chu-Liu/
// Edmonds), the exact selector of ETO's reuse pairs without bridges: nodes are
// the tasks plus a root, an edge beta -> alpha costs the trials of tuning
// alpha by reusing beta, root -> alpha the backend's trial cap. The solver is
// LEMON's MinCostArborescence (Debian liblemon-dev) behind this interface;
// see docs/EtoSelection.md. This header and its library depend on neither
// MLIR nor LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_ETO_ARBORESCENCE_H
#define TESSEL_TUNING_STRATEGIES_ETO_ARBORESCENCE_H

#include <cstdint>
#include <optional>
#include <vector>

namespace mlir {
namespace tessel {

/// A directed edge `from -> to` of cost `cost` between nodes numbered from 0.
struct WeightedEdge {
  int64_t from = 0;
  int64_t to = 0;
  double cost = 0;
};

/// A spanning arborescence: every node but the root has one parent.
struct Arborescence {
  int64_t root = 0;
  /// The parent of each node; -1 for the root.
  std::vector<int64_t> parent;
  /// The index (in the input edge list) of the edge from each node's parent
  /// to it; -1 for the root.
  std::vector<int64_t> parentEdge;
  /// The sum of the costs of the chosen edges.
  double cost = 0;

  /// The nodes in an order where each parent comes before its children
  /// (breadth first from the root, children by node number): the tuning
  /// order of a reuse tree.
  std::vector<int64_t> topologicalOrder() const;
};

/// The minimum-cost spanning arborescence of the digraph on `numNodes` nodes
/// with `edges`, rooted at `root`; std::nullopt when some node cannot be
/// reached from `root`. Edges into the root and self-loops are ignored;
/// parallel edges are allowed (the cheapest wins); costs may be any finite
/// doubles. Endpoints must lie in [0, numNodes). O(E V) at most.
std::optional<Arborescence>
findMinCostArborescence(int64_t numNodes, int64_t root,
                        const std::vector<WeightedEdge> &edges);

/// The nodes of the digraph that no path from `root` reaches, in increasing
/// order (for the message when findMinCostArborescence fails).
std::vector<int64_t>
findUnreachableNodes(int64_t numNodes, int64_t root,
                     const std::vector<WeightedEdge> &edges);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_ETO_ARBORESCENCE_H
