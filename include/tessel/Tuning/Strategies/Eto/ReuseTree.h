//===- ReuseTree.h - ETO's OC graph and its reuse tree ----------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// ETO's operator-cost (OC) graph: the tasks of a model, optional bridge
// operators and a root. Root -> node costs tuning the node with the backend
// search (its trial cap; 0 for a node whose program is already known, such
// as a task tuned in an earlier run); beta -> alpha costs tuning alpha by
// reusing beta's best program (the trial estimate). The reuse tree is the
// cheapest way to tune every task: the minimum-cost arborescence without
// bridges, a directed Steiner tree over the tasks with them (see
// docs/EtoSelection.md). Depends on neither MLIR nor LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_ETO_REUSETREE_H
#define TESSEL_TUNING_STRATEGIES_ETO_REUSETREE_H

#include "tessel/Tuning/Strategies/Eto/SteinerTree.h"

#include <cstdint>
#include <vector>

namespace mlir {
namespace tessel {

/// The OC graph. Nodes: the tasks 0 .. numTasks-1, then the bridges
/// numTasks .. numTasks+numBridges-1, then the root.
struct OcGraph {
  int64_t numTasks = 0;
  int64_t numBridges = 0;
  /// The cost of tuning each task and bridge with the backend (the root
  /// edges), numTasks + numBridges non-negative finite values.
  std::vector<double> rootCosts;
  /// Reuse edges beta -> alpha between tasks and bridges, with their
  /// non-negative costs. Edges from or to the root are not allowed here.
  std::vector<WeightedEdge> reuseEdges;

  /// The root's node number.
  int64_t getRoot() const { return numTasks + numBridges; }
  /// The number of nodes, root included.
  int64_t getNumNodes() const { return numTasks + numBridges + 1; }
};

/// The selected way to tune every task.
struct ReuseTree {
  /// A node tuned by the backend.
  static constexpr int64_t kBackend = -1;
  /// A bridge left out.
  static constexpr int64_t kUnused = -2;

  /// For each task and bridge: the node whose best program it reuses,
  /// kBackend, or kUnused (bridges only).
  std::vector<int64_t> source;
  /// The tasks and bridges to tune, each after its source.
  std::vector<int64_t> order;
  /// The bridges to tune, in increasing order.
  std::vector<int64_t> bridges;
  /// The total estimated cost (trials).
  double cost = 0;
};

/// The cheapest reuse tree of `graph`: exact (minimum-cost arborescence)
/// without bridges, GreedyFLAC and `options`' refinement with them.
ReuseTree selectReuseTree(const OcGraph &graph,
                          const SteinerTreeOptions &options = {});

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_ETO_REUSETREE_H
