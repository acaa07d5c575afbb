//===- SteinerTree.cpp - Directed Steiner trees (GreedyFLAC) --------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// GreedyFLAC (Watel and Weisser 2016). FLAC approximates the directed Steiner
// tree of minimum density (cost over the number of terminals reached) that
// hangs from the current partial tree: every terminal not reached yet is a
// source of fluid flowing backwards through the arcs, one unit of volume per
// unit of time and per source; an arc's volume is its cost. All arcs entering
// a node that holds fluid fill at the node's rate (the number of sources it is
// linked to through saturated arcs), so the cheapest saturates first. When an
// arc u -> v saturates:
//  - if u is in the partial tree, FLAC stops: u -> v and the saturated arcs
//    below v are the new subtree;
//  - if some node linked to u through saturated arcs (u included) shares a
//    source with v, saturating it would link a node to a source twice (no
//    longer a tree): the arc is ignored (a conflict);
//  - otherwise the arc is saturated and v's sources flow into u and every
//    node upstream of u, which all fill faster from now on.
// The greedy loop runs FLAC until every terminal is reached, each round
// adding the subtree FLAC found to the partial tree.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Eto/SteinerTree.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <deque>
#include <queue>
#include <tuple>

using namespace mlir::tessel;

namespace {

/// A set of sources (terminal positions) as a bit set.
class SourceSet {
public:
  void reset(size_t numSources) { words.assign((numSources + 63) / 64, 0); }
  void insert(size_t source) {
    words[source / 64] |= uint64_t(1) << (source % 64);
  }
  bool intersects(const SourceSet &other) const {
    for (size_t i = 0; i < words.size(); ++i)
      if (words[i] & other.words[i])
        return true;
    return false;
  }
  void unite(const SourceSet &other) {
    for (size_t i = 0; i < words.size(); ++i)
      words[i] |= other.words[i];
  }
  int64_t size() const {
    int64_t count = 0;
    for (uint64_t word : words)
      count += __builtin_popcountll(word);
    return count;
  }

private:
  std::vector<uint64_t> words;
};

/// GreedyFLAC on one instance. Produces the parent edge of every node of the
/// tree (-1 elsewhere).
class GreedyFlac {
public:
  GreedyFlac(int64_t numNodes, int64_t root,
             const std::vector<WeightedEdge> &edges)
      : numNodes(numNodes), root(root), edges(edges), inEdges(numNodes) {
    for (int64_t index = 0; index < static_cast<int64_t>(edges.size());
         ++index) {
      const WeightedEdge &edge = edges[index];
      assert(edge.from >= 0 && edge.from < numNodes && edge.to >= 0 &&
             edge.to < numNodes && "edge endpoint out of range");
      assert(edge.cost >= 0 && "GreedyFLAC needs non-negative costs");
      if (edge.from != edge.to && edge.to != root)
        inEdges[edge.to].push_back(index);
    }
    // Arcs entering a node saturate in order of cost (ties: lower tail).
    for (std::vector<int64_t> &list : inEdges)
      std::stable_sort(list.begin(), list.end(), [&](int64_t a, int64_t b) {
        return std::make_pair(edges[a].cost, edges[a].from) <
               std::make_pair(edges[b].cost, edges[b].from);
      });
  }

  /// Reaches every terminal; std::nullopt when some cannot be reached.
  std::optional<std::vector<int64_t>>
  run(const std::vector<int64_t> &terminals);

private:
  /// One FLAC round from the terminals not reached yet; adds the subtree it
  /// finds to the partial tree. False when no arc from the tree saturates.
  bool runFlac();
  /// Schedules the saturation of the next arc entering `node`.
  void schedule(int64_t node);
  /// Saturates `edge` at the current time: the sources of its head flow into
  /// its tail and every node upstream of it.
  void saturate(int64_t edge);
  /// Nodes linked to `node` through saturated arcs, `node` included.
  std::vector<int64_t> upstream(int64_t node);
  /// Adds the saturated arcs below `edge`'s tail (which is in the tree).
  void addSubtree(int64_t edge);

  int64_t numNodes;
  int64_t root;
  const std::vector<WeightedEdge> &edges;
  std::vector<std::vector<int64_t>> inEdges;

  // Greedy state.
  std::vector<int64_t> terminalList;
  std::vector<bool> inTree;
  std::vector<bool> pending;
  std::vector<int64_t> treeEdge;

  // FLAC state, reset every round.
  double now = 0;
  std::vector<SourceSet> sources;
  std::vector<int64_t> rate;
  std::vector<size_t> nextArc;
  std::vector<double> filled;
  std::vector<double> filledAt;
  std::vector<int64_t> version;
  std::vector<std::vector<int64_t>> saturatedIn, saturatedOut;
  /// (time, tail not in the tree, node, version), earliest first; ties
  /// prefer arcs from the tree, then lower nodes.
  using Event = std::tuple<double, bool, int64_t, int64_t>;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events;
};

} // namespace

void GreedyFlac::schedule(int64_t node) {
  ++version[node];
  if (rate[node] == 0 || nextArc[node] >= inEdges[node].size())
    return;
  const WeightedEdge &edge = edges[inEdges[node][nextArc[node]]];
  double left = std::max(0.0, edge.cost - filled[node]);
  events.emplace(filledAt[node] + left / static_cast<double>(rate[node]),
                 !inTree[edge.from], node, version[node]);
}

std::vector<int64_t> GreedyFlac::upstream(int64_t node) {
  std::vector<int64_t> nodes{node};
  std::vector<bool> seen(numNodes, false);
  seen[node] = true;
  for (size_t i = 0; i < nodes.size(); ++i)
    for (int64_t edge : saturatedIn[nodes[i]]) {
      int64_t tail = edges[edge].from;
      if (!seen[tail]) {
        seen[tail] = true;
        nodes.push_back(tail);
      }
    }
  return nodes;
}

void GreedyFlac::saturate(int64_t edge) {
  int64_t tail = edges[edge].from, head = edges[edge].to;
  for (int64_t node : upstream(tail)) {
    int64_t oldRate = rate[node];
    sources[node].unite(sources[head]);
    rate[node] = sources[node].size();
    if (oldRate > 0) {
      // The fluid so far arrived at the old rate.
      filled[node] += (now - filledAt[node]) * static_cast<double>(oldRate);
    } else {
      filled[node] = 0;
      nextArc[node] = 0;
    }
    filledAt[node] = now;
    schedule(node);
  }
  saturatedIn[head].push_back(edge);
  saturatedOut[tail].push_back(edge);
}

void GreedyFlac::addSubtree(int64_t edge) {
  std::deque<int64_t> queue;
  auto add = [&](int64_t arc) {
    int64_t head = edges[arc].to;
    if (inTree[head])
      return;
    inTree[head] = true;
    treeEdge[head] = arc;
    pending[head] = false;
    queue.push_back(head);
  };
  add(edge);
  while (!queue.empty()) {
    int64_t node = queue.front();
    queue.pop_front();
    for (int64_t arc : saturatedOut[node])
      add(arc);
  }
}

bool GreedyFlac::runFlac() {
  now = 0;
  events = {};
  sources.assign(numNodes, SourceSet());
  for (SourceSet &set : sources)
    set.reset(terminalList.size());
  rate.assign(numNodes, 0);
  nextArc.assign(numNodes, 0);
  filled.assign(numNodes, 0);
  filledAt.assign(numNodes, 0);
  version.assign(numNodes, 0);
  saturatedIn.assign(numNodes, {});
  saturatedOut.assign(numNodes, {});
  for (size_t i = 0; i < terminalList.size(); ++i) {
    int64_t terminal = terminalList[i];
    if (!pending[terminal])
      continue;
    sources[terminal].insert(i);
    rate[terminal] = 1;
    schedule(terminal);
  }

  while (!events.empty()) {
    auto [time, fromOutside, node, stamp] = events.top();
    events.pop();
    if (stamp != version[node])
      continue;
    now = time;
    int64_t edge = inEdges[node][nextArc[node]];
    filled[node] = edges[edge].cost;
    filledAt[node] = now;
    ++nextArc[node];
    int64_t tail = edges[edge].from;
    if (inTree[tail]) {
      addSubtree(edge);
      return true;
    }
    bool conflict = false;
    for (int64_t other : upstream(tail))
      if (sources[other].intersects(sources[node])) {
        conflict = true;
        break;
      }
    schedule(node);
    if (!conflict)
      saturate(edge);
  }
  return false;
}

std::optional<std::vector<int64_t>>
GreedyFlac::run(const std::vector<int64_t> &terminals) {
  inTree.assign(numNodes, false);
  inTree[root] = true;
  pending.assign(numNodes, false);
  treeEdge.assign(numNodes, -1);
  terminalList.clear();
  for (int64_t terminal : terminals) {
    assert(terminal >= 0 && terminal < numNodes && "terminal out of range");
    if (terminal != root && !pending[terminal]) {
      pending[terminal] = true;
      terminalList.push_back(terminal);
    }
  }
  auto anyPending = [&] {
    return std::any_of(terminalList.begin(), terminalList.end(),
                       [&](int64_t terminal) { return pending[terminal]; });
  };
  while (anyPending())
    if (!runFlac())
      return std::nullopt;
  return treeEdge;
}

//===----------------------------------------------------------------------===//
// Refinement and results
//===----------------------------------------------------------------------===//

namespace {
/// A tree as the parent edge of each node, with its cost.
struct EdgeTree {
  std::vector<int64_t> parentEdge;
  double cost = 0;
};
} // namespace

static double getCost(const std::vector<int64_t> &parentEdge,
                      const std::vector<WeightedEdge> &edges) {
  double cost = 0;
  for (int64_t edge : parentEdge)
    if (edge >= 0)
      cost += edges[edge].cost;
  return cost;
}

/// The minimum-cost arborescence of the subgraph induced by `keep` (which
/// holds the root), as parent edges of the whole graph; std::nullopt when it
/// does not span `keep`.
static std::optional<std::vector<int64_t>>
getInducedArborescence(int64_t numNodes, int64_t root,
                       const std::vector<bool> &keep,
                       const std::vector<WeightedEdge> &edges) {
  std::vector<int64_t> local(numNodes, -1), global;
  for (int64_t node = 0; node < numNodes; ++node)
    if (keep[node]) {
      local[node] = static_cast<int64_t>(global.size());
      global.push_back(node);
    }
  std::vector<WeightedEdge> induced;
  std::vector<int64_t> original;
  for (int64_t index = 0; index < static_cast<int64_t>(edges.size()); ++index) {
    const WeightedEdge &edge = edges[index];
    if (local[edge.from] < 0 || local[edge.to] < 0)
      continue;
    induced.push_back({local[edge.from], local[edge.to], edge.cost});
    original.push_back(index);
  }
  std::optional<Arborescence> tree = findMinCostArborescence(
      static_cast<int64_t>(global.size()), local[root], induced);
  if (!tree)
    return std::nullopt;
  std::vector<int64_t> parentEdge(numNodes, -1);
  for (size_t i = 0; i < global.size(); ++i)
    if (tree->parentEdge[i] >= 0)
      parentEdge[global[i]] = original[tree->parentEdge[i]];
  return parentEdge;
}

/// Removes the optional leaves of the tree until every leaf is a terminal.
static void pruneOptionalLeaves(std::vector<int64_t> &parentEdge,
                                const std::vector<bool> &isTerminal,
                                const std::vector<WeightedEdge> &edges) {
  int64_t numNodes = static_cast<int64_t>(parentEdge.size());
  std::vector<int64_t> children(numNodes, 0);
  for (int64_t edge : parentEdge)
    if (edge >= 0)
      ++children[edges[edge].from];
  std::vector<int64_t> leaves;
  for (int64_t node = 0; node < numNodes; ++node)
    if (parentEdge[node] >= 0 && !isTerminal[node] && children[node] == 0)
      leaves.push_back(node);
  while (!leaves.empty()) {
    int64_t leaf = leaves.back();
    leaves.pop_back();
    int64_t parent = edges[parentEdge[leaf]].from;
    parentEdge[leaf] = -1;
    if (--children[parent] == 0 && parentEdge[parent] >= 0 &&
        !isTerminal[parent])
      leaves.push_back(parent);
  }
}

static bool isCheaper(double cost, double than) {
  return cost < than - 1e-9 * std::max(1.0, std::fabs(than));
}

std::vector<int64_t> SteinerTree::topologicalOrder() const {
  Arborescence tree;
  tree.root = root;
  tree.parent = parent;
  return tree.topologicalOrder();
}

std::optional<SteinerTree> mlir::tessel::findDirectedSteinerTree(
    int64_t numNodes, int64_t root, const std::vector<int64_t> &terminals,
    const std::vector<WeightedEdge> &edges, const SteinerTreeOptions &options) {
  assert(numNodes > 0 && root >= 0 && root < numNodes && "root out of range");
  std::optional<std::vector<int64_t>> greedy =
      GreedyFlac(numNodes, root, edges).run(terminals);
  if (!greedy)
    return std::nullopt;

  std::vector<bool> isTerminal(numNodes, false);
  for (int64_t terminal : terminals)
    isTerminal[terminal] = true;
  isTerminal[root] = true;

  std::vector<int64_t> best = std::move(*greedy);
  pruneOptionalLeaves(best, isTerminal, edges);
  double bestCost = getCost(best, edges);
  if (options.refine) {
    // The tree spans its own nodes: their minimum arborescence exists and
    // costs no more. Each step lowers the cost, so this ends.
    while (true) {
      std::vector<bool> keep(numNodes, false);
      for (int64_t node = 0; node < numNodes; ++node)
        keep[node] = node == root || best[node] >= 0;
      std::optional<std::vector<int64_t>> induced =
          getInducedArborescence(numNodes, root, keep, edges);
      assert(induced && "a tree's nodes span an arborescence");
      pruneOptionalLeaves(*induced, isTerminal, edges);
      double cost = getCost(*induced, edges);
      if (!isCheaper(cost, bestCost))
        break;
      best = std::move(*induced);
      bestCost = cost;
    }
    // The exact answer without optional nodes.
    std::optional<std::vector<int64_t>> direct =
        getInducedArborescence(numNodes, root, isTerminal, edges);
    if (direct && isCheaper(getCost(*direct, edges), bestCost)) {
      best = std::move(*direct);
      bestCost = getCost(best, edges);
    }
  }

  SteinerTree tree;
  tree.root = root;
  tree.parentEdge = best;
  tree.parent.assign(numNodes, -1);
  tree.cost = bestCost;
  for (int64_t node = 0; node < numNodes; ++node) {
    if (best[node] < 0)
      continue;
    tree.parent[node] = edges[best[node]].from;
    if (!isTerminal[node])
      tree.steinerNodes.push_back(node);
  }
  tree.terminals = terminals;
  std::sort(tree.terminals.begin(), tree.terminals.end());
  tree.terminals.erase(
      std::unique(tree.terminals.begin(), tree.terminals.end()),
      tree.terminals.end());
  return tree;
}
