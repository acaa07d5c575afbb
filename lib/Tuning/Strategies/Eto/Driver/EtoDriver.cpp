//===- EtoDriver.cpp - ETO's operator-set tuning --------------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Eto/EtoDriver.h"
#include "tessel/Tuning/Strategies/Eto/StoredWorkloads.h"

#include "tessel/Tuning/Strategies/Eto/Bridge.h"
#include "tessel/Tuning/Strategies/Eto/EtoStrategy.h"
#include "tessel/Tuning/Strategies/Eto/ReuseAnalysis.h"
#include "tessel/Tuning/Strategies/Eto/ReuseTree.h"
#include "tessel/Tuning/Strategies/Eto/TrialEstimator.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <cmath>

using namespace mlir;
using namespace mlir::tessel;

namespace {

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

/// The options of `eto` and `eto-topk`.
class EtoDriverOptions : public ComponentOptions {
public:
  explicit EtoDriverOptions(bool topK) {
    if (topK)
      k = std::make_unique<Option<int64_t>>(
          *this, "k", 3, "Programs of the source applied per round", Range(1));
  }

  Option<std::string> backend{
      *this, "backend", "evolutionary",
      "The registered per-task strategy that tunes the reuse tree's roots "
      "(with its default cost model)"};
  Option<int64_t> backendTrials{
      *this, "backend-trials", 1000,
      "Trials of each root, the cost of a root edge of the OC graph, and the "
      "most a reusing task may take",
      Range(1)};
  Option<int64_t> bridges{*this, "bridges", 1,
                          "0: no bridge operators; 1: ETO's 1-hop bridges",
                          Range(0, 1)};
  Option<bool> reuseRecords{
      *this, "reuse-records", true,
      "Workloads of other models with programs on the run's target in the "
      "database join the OC graph as tuned nodes (beyond the paper)"};
  Option<double> heavyShare{
      *this, "heavy-share", 0.0,
      "Tasks whose weight x FLOPs is at least this share of the model's are "
      "tuned by the backend, never by reuse (0: off, as in the paper, which "
      "ignores operator frequency)",
      Range(0.0, 1.0)};
  Option<int64_t> samples{*this, "samples", 10,
                          "Random programs of the source the trial estimator "
                          "averages over (paper: 10)",
                          Range(1)};
  Option<int64_t> cacheLineBytes{
      *this, "cache-line-bytes", 128,
      "Bytes of a global memory request in the BShape cost", Range(1)};
  Option<std::string> blockLowerBound{
      *this,
      "block-lower-bound",
      "reduction",
      "The lower end of the block range: the reduction-loop ratio "
      "(Algorithm 1, line 3) or Eq. 1's loop-nest ratio",
      {},
      {"reduction", "eq1"}};
  Option<std::string> fetchLoop{
      *this,
      "fetch-loop",
      "largest",
      "The reduction loop whose fetch count GetLShape may raise above 1: the "
      "largest, or the one the source program raises",
      {},
      {"largest", "reference"}};
  /// `eto-topk` only.
  std::unique_ptr<Option<int64_t>> k;

  EtoOptions getEtoOptions() const {
    EtoOptions options;
    options.cacheLineBytes = cacheLineBytes;
    options.blockLowerBound = blockLowerBound.getValue() == "eq1"
                                  ? BlockLowerBound::Eq1
                                  : BlockLowerBound::Reduction;
    options.fetchLoop = fetchLoop.getValue() == "reference"
                            ? FetchLoop::Reference
                            : FetchLoop::Largest;
    options.samples = static_cast<int>(samples);
    return options;
  }
};

//===----------------------------------------------------------------------===//
// The OC graph's nodes
//===----------------------------------------------------------------------===//

enum class NodeKind { Task, Bridge, Stored };

/// Programs re-measured when a task's source is its identical stored twin
/// (the same workload tuned by an earlier run): its best ones, unchanged.
constexpr int64_t kTwinPrograms = 3;

/// A node of the OC graph other than the root.
struct ReuseNode {
  NodeKind kind;
  const TuningTask *task;
  /// The session's task of a model task or bridge.
  size_t sessionTask = 0;
  /// A stored workload's programs, fastest first.
  std::vector<ProgramRef> stored;
  /// Filled while tuning.
  double estimate = 0;
  int64_t actual = 0;
  std::string how;

  std::string label() const {
    switch (kind) {
    case NodeKind::Task:
      return llvm::formatv("task {0}", sessionTask);
    case NodeKind::Bridge:
      return llvm::formatv("bridge (task {0})", sessionTask);
    case NodeKind::Stored:
      return "stored";
    }
    llvm_unreachable("node kind");
  }
};

/// Strategy `eto` or `eto-topk` driving a run.
class EtoDriver : public SearchDriver {
public:
  EtoDriver(const EtoDriverOptions &options, DeviceDescription device,
            uint64_t seed)
      : backend(options.backend), backendTrials(options.backendTrials),
        useBridges(options.bridges == 1), reuseRecords(options.reuseRecords),
        heavyShare(options.heavyShare),
        topK(options.k ? std::optional<int64_t>(options.k->getValue())
                       : std::nullopt),
        etoOptions(options.getEtoOptions()), device(std::move(device)),
        seed(seed) {}

  llvm::Error run(TuningSession &session) override;

private:
  llvm::Error addNodes(TuningSession &session);
  OcGraph buildGraph(TuningSession &session);
  void printTree(TuningSession &session, const ReuseTree &tree);
  /// Tunes node `index` with the backend; returns the trials made.
  llvm::Error tuneWithBackend(TuningSession &session, ReuseNode &node);
  /// Tunes node `index` from `source`'s programs.
  llvm::Error tuneByReuse(TuningSession &session, ReuseNode &node,
                          const ReuseNode &source);
  /// The programs of `node` that ran, fastest first.
  std::vector<ProgramRef> getPrograms(TuningSession &session,
                                      const ReuseNode &node);

  std::string backend;
  int64_t backendTrials;
  bool useBridges, reuseRecords;
  double heavyShare;
  std::optional<int64_t> topK;
  EtoOptions etoOptions;
  DeviceDescription device;
  uint64_t seed;

  /// Model tasks, then bridges, then stored workloads (the order of the OC
  /// graph: terminals first, then the optional nodes).
  std::vector<ReuseNode> nodes;
  size_t numModelTasks = 0;
  std::deque<StoredWorkload> storedWorkloads;
};

} // namespace

llvm::Error EtoDriver::addNodes(TuningSession &session) {
  numModelTasks = session.getNumTasks();
  std::vector<const TuningTask *> tasks;
  for (size_t index = 0; index < numModelTasks; ++index) {
    const TuningTask *task = session.getState(index).task;
    tasks.push_back(task);
    nodes.push_back({NodeKind::Task, task, index});
  }
  if (tasks.empty())
    return llvm::Error::success();
  MLIRContext *context = tasks.front()->module.get()->getContext();
  if (useBridges) {
    auto bridges = findOneHopBridges(tasks, context);
    if (!bridges)
      return bridges.takeError();
    for (BridgeTask &bridge : *bridges) {
      auto index = session.addTask(std::move(bridge.task));
      if (!index)
        return index.takeError();
      nodes.push_back(
          {NodeKind::Bridge, session.getState(*index).task, *index});
    }
  }
  if (reuseRecords) {
    auto stored =
        loadStoredWorkloads(session.getDatabase(), session.getTarget(),
                            session.getRunId(), tasks, context);
    if (!stored)
      return stored.takeError();
    storedWorkloads = std::move(*stored);
    for (StoredWorkload &workload : storedWorkloads)
      nodes.push_back({NodeKind::Stored, &workload.task, 0, workload.programs});
  }
  return llvm::Error::success();
}

/// Whether `source` is `node`'s identical stored twin.
static bool isTwin(const ReuseNode &node, const ReuseNode &source) {
  return source.kind == NodeKind::Stored && node.kind != NodeKind::Stored &&
         source.task->workloadKey == node.task->workloadKey;
}

OcGraph EtoDriver::buildGraph(TuningSession &session) {
  OcGraph graph;
  graph.numTasks = static_cast<int64_t>(numModelTasks);
  graph.numBridges = static_cast<int64_t>(nodes.size() - numModelTasks);
  for (const ReuseNode &node : nodes)
    graph.rootCosts.push_back(
        node.kind == NodeKind::Stored ? 0.0 : double(backendTrials));
  // Heavy tasks (heavy-share) get no reuse edge: the tree makes them roots.
  double modelWork = 0;
  for (size_t index = 0; index < numModelTasks; ++index)
    modelWork += double(nodes[index].task->weight) * nodes[index].task->flops;
  auto isHeavy = [&](const ReuseNode &node) {
    return heavyShare > 0 && node.kind == NodeKind::Task && modelWork > 0 &&
           double(node.task->weight) * node.task->flops >=
               heavyShare * modelWork;
  };
  int64_t heavyTasks = 0;
  for (auto [alphaIndex, alpha] : llvm::enumerate(nodes)) {
    // Stored workloads are never tuned: no edge enters them.
    if (alpha.kind == NodeKind::Stored)
      continue;
    if (isHeavy(alpha)) {
      ++heavyTasks;
      continue;
    }
    // The estimates of the edges into alpha share GetTShape's answers.
    AlphaThreadShapes alphaThreadShapes;
    for (auto [betaIndex, beta] : llvm::enumerate(nodes)) {
      if (alphaIndex == betaIndex ||
          !checkReusePair(*alpha.task, *beta.task).reusable)
        continue;
      if (isTwin(alpha, beta)) {
        double cost =
            double(std::min<size_t>(kTwinPrograms, beta.stored.size()));
        graph.reuseEdges.push_back({static_cast<int64_t>(betaIndex),
                                    static_cast<int64_t>(alphaIndex), cost});
        continue;
      }
      double cost =
          estimateEtoTrials(*alpha.task, *beta.task, device, etoOptions,
                            seed ^ (alphaIndex * 1000003 + betaIndex),
                            alphaThreadShapes);
      // No sketch in common or no program of beta to sample: no edge.
      if (!std::isfinite(cost))
        continue;
      graph.reuseEdges.push_back({static_cast<int64_t>(betaIndex),
                                  static_cast<int64_t>(alphaIndex), cost});
    }
  }
  if (heavyTasks > 0)
    session.note(llvm::formatv(
        "{0}: {1} tasks with weight x FLOPs >= {2} of the model's are roots "
        "(heavy-share)",
        topK ? "eto-topk" : "eto", heavyTasks, formatOptionNumber(heavyShare)));
  return graph;
}

void EtoDriver::printTree(TuningSession &session, const ReuseTree &tree) {
  int64_t tasks = 0, bridgesUsed = 0, storedUsed = 0;
  for (int64_t index : tree.order) {
    NodeKind kind = nodes[index].kind;
    tasks += kind == NodeKind::Task;
    bridgesUsed += kind == NodeKind::Bridge;
    storedUsed += kind == NodeKind::Stored;
  }
  int64_t bridgeNodes = 0, storedNodes = 0;
  for (const ReuseNode &node : nodes) {
    bridgeNodes += node.kind == NodeKind::Bridge;
    storedNodes += node.kind == NodeKind::Stored;
  }
  session.note(llvm::formatv(
      "{0}: reuse tree over {1} tasks, {2} of {3} bridges, {4} of {5} stored "
      "workloads: estimated {6} trials (the backend alone: {7})",
      topK ? "eto-topk" : "eto", tasks, bridgesUsed, bridgeNodes, storedUsed,
      storedNodes, formatOptionNumber(std::round(tree.cost * 10) / 10),
      backendTrials * static_cast<int64_t>(numModelTasks)));
  for (int64_t index : tree.order) {
    const ReuseNode &node = nodes[index];
    std::string line = "  " + node.label() + " " + node.task->describe();
    int64_t source = tree.source[index];
    if (node.kind == NodeKind::Stored)
      line += " <- the records";
    else if (source == ReuseTree::kBackend)
      line +=
          llvm::formatv(" <- backend {0} ({1} trials)", backend, backendTrials);
    else
      line +=
          llvm::formatv(" <- {0} (estimated {1} trials)", nodes[source].label(),
                        formatOptionNumber(std::round(node.estimate)));
    session.note(line);
  }
}

std::vector<ProgramRef> EtoDriver::getPrograms(TuningSession &session,
                                               const ReuseNode &node) {
  if (node.kind == NodeKind::Stored)
    return node.stored;
  std::vector<const Trial *> ran;
  for (const Trial &trial : session.getState(node.sessionTask).trials)
    if (trial.result.isOk() && trial.gflops > 0)
      ran.push_back(&trial);
  std::stable_sort(ran.begin(), ran.end(),
                   [](auto *a, auto *b) { return a->gflops > b->gflops; });
  std::vector<ProgramRef> programs;
  for (const Trial *trial : ran)
    programs.push_back({trial->candidate.sketch, trial->candidate.config});
  return programs;
}

llvm::Error EtoDriver::tuneWithBackend(TuningSession &session,
                                       ReuseNode &node) {
  auto strategy =
      createStrategy(backend, device, seed + 7919 * (node.sessionTask + 1));
  if (!strategy)
    return strategy.takeError();
  node.actual += tuneTask(session, node.sessionTask, **strategy, backendTrials);
  node.how = node.how.empty() ? "backend" : node.how + ", then the backend";
  return llvm::Error::success();
}

llvm::Error EtoDriver::tuneByReuse(TuningSession &session, ReuseNode &node,
                                   const ReuseNode &source) {
  std::vector<ProgramRef> programs = getPrograms(session, source);
  if (programs.empty()) {
    session.note(llvm::formatv("{0}: {1} has no program that ran; the "
                               "backend tunes {2}",
                               topK ? "eto-topk" : "eto", source.label(),
                               node.label()));
    return tuneWithBackend(session, node);
  }
  std::unique_ptr<SearchStrategy> strategy;
  if (isTwin(node, source)) {
    // The same workload: its recorded best programs, as they are.
    strategy = std::make_unique<EtoTopKStrategy>(kTwinPrograms, programs);
  } else if (topK) {
    strategy = std::make_unique<EtoTopKStrategy>(*topK, programs);
  } else {
    ReferenceProgram reference{source.task, programs.front().sketch,
                               programs.front().config};
    auto eto = std::make_unique<EtoStrategy>(etoOptions, reference);
    if (llvm::Error error = eto->prepare(session.getState(node.sessionTask))) {
      session.note(llvm::formatv("eto: {0} cannot reuse {1} ({2}); the "
                                 "backend tunes it",
                                 node.label(), source.label(),
                                 llvm::toString(std::move(error))));
      return tuneWithBackend(session, node);
    }
    strategy = std::move(eto);
  }
  node.how = "reuses " + source.label();
  if (isTwin(node, source))
    node.how += " (the same workload)";
  node.actual += tuneTask(session, node.sessionTask, *strategy, backendTrials);
  // Nothing that ran (the source's structure does not fit): the backend.
  if (!session.getState(node.sessionTask).getBest() &&
      session.getRemainingTrials() > 0) {
    session.note(llvm::formatv("{0}: no program of {1} reused from {2} ran; "
                               "the backend tunes it",
                               topK ? "eto-topk" : "eto", node.label(),
                               source.label()));
    return tuneWithBackend(session, node);
  }
  return llvm::Error::success();
}

llvm::Error EtoDriver::run(TuningSession &session) {
  auto start = std::chrono::steady_clock::now();
  if (llvm::Error error = addNodes(session))
    return error;
  if (numModelTasks == 0)
    return llvm::Error::success();
  OcGraph graph = buildGraph(session);
  ReuseTree tree = selectReuseTree(graph);
  session.addSearchSeconds(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count());
  for (const WeightedEdge &edge : graph.reuseEdges)
    if (tree.source[edge.to] == edge.from &&
        (nodes[edge.to].estimate == 0 || edge.cost < nodes[edge.to].estimate))
      nodes[edge.to].estimate = edge.cost;
  for (auto [index, node] : llvm::enumerate(nodes))
    if (tree.source[index] == ReuseTree::kBackend)
      node.estimate = double(backendTrials);
  printTree(session, tree);
  if (tree.cost > double(session.getRemainingTrials()))
    session.note(llvm::formatv(
        "{0}: the run's trials ({1}) are fewer than the tree's estimate; "
        "tasks late in the tree may go untuned (raise --trials)",
        topK ? "eto-topk" : "eto", session.getRemainingTrials()));

  for (int64_t index : tree.order) {
    ReuseNode &node = nodes[index];
    if (node.kind == NodeKind::Stored)
      continue;
    if (session.getRemainingTrials() <= 0) {
      session.note(llvm::formatv("{0}: the run's trials are spent; {1} and "
                                 "the tasks after it are not tuned",
                                 topK ? "eto-topk" : "eto", node.label()));
      break;
    }
    int64_t source = tree.source[index];
    llvm::Error error = source == ReuseTree::kBackend
                            ? tuneWithBackend(session, node)
                            : tuneByReuse(session, node, nodes[source]);
    if (error)
      return error;
    const Trial *best = session.getState(node.sessionTask).getBest();
    session.note(llvm::formatv(
        "  {0}: {1}: estimated {2}, actual {3} trials, best {4} GFLOP/s",
        node.label(), node.how, formatOptionNumber(std::round(node.estimate)),
        node.actual,
        best ? llvm::formatv("{0:f1}", best->gflops).str()
             : std::string("none")));
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Registry entries
//===----------------------------------------------------------------------===//

static StrategyInfo getDriverInfo(bool topK) {
  StrategyInfo info;
  info.name = topK ? "eto-topk" : "eto";
  info.summary =
      topK ? "ETO's TopK baseline: the reuse tree of `eto`, each reusing "
             "task tries its source's k best programs"
           : "reuse-based tuning of the model's operator set (PVLDB'22): a "
             "reuse tree over tasks, bridges and stored workloads; roots by "
             "the backend, the rest by Algorithm 1";
  info.usesCostModel = false;
  info.createOptions = [topK] {
    return std::make_unique<EtoDriverOptions>(topK);
  };
  info.create = [name = info.name](const ComponentOptions &,
                                   StrategyEnvironment)
      -> llvm::Expected<std::unique_ptr<SearchStrategy>> {
    return llvm::createStringError("strategy '" + name +
                                   "' drives a whole run");
  };
  info.createDriver = [](const ComponentOptions &options,
                         StrategyEnvironment environment)
      -> llvm::Expected<std::unique_ptr<SearchDriver>> {
    const auto &driverOptions = static_cast<const EtoDriverOptions &>(options);
    auto backend =
        getStrategyRegistry().parse(driverOptions.backend.getValue());
    if (!backend)
      return backend.takeError();
    if (backend->info->createDriver)
      return llvm::createStringError(
          "backend=" + driverOptions.backend.getValue() +
          " is not a per-task strategy");
    return std::make_unique<EtoDriver>(
        driverOptions, std::move(environment.device), environment.seed);
  };
  return info;
}

StrategyInfo tessel::getEtoStrategyInfo() { return getDriverInfo(false); }
StrategyInfo tessel::getEtoTopKStrategyInfo() { return getDriverInfo(true); }
