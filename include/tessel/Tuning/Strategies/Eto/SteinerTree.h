//===- SteinerTree.h - Directed Steiner trees (GreedyFLAC) ------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The directed Steiner tree problem: given a weighted digraph, a root and
// terminals, the cheapest arborescence rooted at the root that reaches every
// terminal, using other (optional, "Steiner") nodes only where they help. In
// ETO's reuse pair selector the terminals are the model's tasks and the
// optional nodes its 1-hop bridge operators (tuned, never emitted); costs are
// asymmetric and need not satisfy the triangle inequality.
//
// The problem is NP-hard; the solver is Watel and Weisser's GreedyFLAC ("A
// practical greedy approximation for the directed Steiner tree problem",
// J. Comb. Optim. 2016), the algorithm ETO uses, followed by an exact
// clean-up with the minimum-cost arborescence (see docs/EtoSelection.md for
// the algorithm and its guarantees). Depends on neither MLIR nor LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_ETO_STEINERTREE_H
#define TESSEL_TUNING_STRATEGIES_ETO_STEINERTREE_H

#include "tessel/Tuning/Strategies/Eto/Arborescence.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace mlir {
namespace tessel {

/// A directed Steiner tree: an arborescence on a subset of the nodes.
struct SteinerTree {
  int64_t root = 0;
  /// The parent of each node of the tree; -1 for the root and for the nodes
  /// not in the tree.
  std::vector<int64_t> parent;
  /// The index (in the input edge list) of the edge from each tree node's
  /// parent to it; -1 where parent is -1.
  std::vector<int64_t> parentEdge;
  /// The sum of the costs of the tree's edges.
  double cost = 0;
  /// The terminals the tree reaches (all of them), in increasing order.
  std::vector<int64_t> terminals;
  /// The optional nodes the tree uses, in increasing order.
  std::vector<int64_t> steinerNodes;

  /// Whether `node` is in the tree.
  bool contains(int64_t node) const {
    return node == root || parent[node] >= 0;
  }
  /// The tree's nodes, each parent before its children (breadth first from
  /// the root, children by node number).
  std::vector<int64_t> topologicalOrder() const;
};

/// Options of findDirectedSteinerTree.
struct SteinerTreeOptions {
  /// After GreedyFLAC, replace the tree by the minimum-cost arborescence of
  /// the subgraph its nodes induce and drop optional leaves, until the cost
  /// stops falling; then keep the minimum-cost arborescence over the root and
  /// the terminals alone if that is cheaper. Never makes the tree costlier.
  /// Off: GreedyFLAC's tree as it comes.
  bool refine = true;
};

/// A directed Steiner tree of the digraph on `numNodes` nodes with `edges`,
/// rooted at `root`, reaching every node of `terminals`; nodes that are
/// neither the root nor terminals are optional. std::nullopt when some
/// terminal cannot be reached from the root. Costs must be non-negative;
/// self-loops and edges into the root are ignored; a terminal equal to the
/// root is allowed; duplicates in `terminals` are ignored.
std::optional<SteinerTree>
findDirectedSteinerTree(int64_t numNodes, int64_t root,
                        const std::vector<int64_t> &terminals,
                        const std::vector<WeightedEdge> &edges,
                        const SteinerTreeOptions &options = {});

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_ETO_STEINERTREE_H
