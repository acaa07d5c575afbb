//===- TargetSpace.cpp - Pruner's target space of a task ------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Psa/TargetSpace.h"

#include "tessel/Tuning/Occupancy.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mlir::tessel;

int tessel::getUnprunedCount(int size, double share) {
  if (size <= 0 || !(share > 0))
    return 0;
  if (share >= 1)
    share = 0.999;
  return static_cast<int>(std::lround(size * share / (1 - share)));
}

TargetSpace tessel::selectTargetSpace(ArrayRef<ScoredCandidate> sampled,
                                      ArrayRef<Candidate> fresh,
                                      const TargetSpaceOptions &options) {
  TargetSpace space;
  std::vector<size_t> order(sampled.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return sampled[a].latency < sampled[b].latency;
  });
  llvm::DenseSet<std::pair<Attribute, Attribute>> kept, distinct;
  for (const ScoredCandidate &c : sampled)
    distinct.insert(c.candidate.getId());
  space.scored = distinct.size();
  for (size_t index : order) {
    if (static_cast<int>(space.pruned.size()) >= options.size)
      break;
    if (kept.insert(sampled[index].candidate.getId()).second)
      space.pruned.push_back(sampled[index]);
  }
  int unpruned = getUnprunedCount(options.size, options.unprunedShare);
  for (const Candidate &c : fresh) {
    if (static_cast<int>(space.unpruned.size()) >= unpruned)
      break;
    if (kept.insert(c.getId()).second)
      space.unpruned.push_back(c);
  }
  return space;
}

bool tessel::canBeResident(const TaskSearchState &state,
                           const Candidate &candidate) {
  const SearchSpace &space = state.spaces[candidate.space];
  int64_t threads = getThreadsPerBlock(candidate.sketch, candidate.config,
                                       space.getLoopNest());
  Occupancy occupancy =
      computeOccupancy(space.getDevice(), threads,
                       space.estimateRegisters(candidate.config).total(),
                       space.getSharedMemoryBytes(candidate.config));
  return occupancy.canLaunch();
}

llvm::Expected<double> tessel::getPsaLatency(const StaticAnalyzer &analyzer,
                                             TaskSearchState &state,
                                             const Candidate &candidate) {
  SmallVector<linalg::LinalgOp> consumers(state.consumers);
  llvm::Expected<PsaEstimate> estimate = analyzer.analyze(
      state.task->getTargetOp(), consumers, candidate.sketch, candidate.config);
  if (!estimate)
    return estimate.takeError();
  return estimate->latency;
}

TargetSpace tessel::generateTargetSpace(TaskSearchState &state,
                                        const StaticAnalyzer &analyzer,
                                        const TargetSpaceOptions &options,
                                        std::vector<ScoredCandidate> *all) {
  // Every distinct candidate is analyzed once.
  llvm::DenseMap<std::pair<Attribute, Attribute>, size_t> index;
  std::vector<ScoredCandidate> scored;
  auto score = [&](const Candidate &c) {
    auto [it, inserted] = index.try_emplace(c.getId(), scored.size());
    if (!inserted || !canBeResident(state, c))
      return;
    llvm::Expected<double> latency = getPsaLatency(analyzer, state, c);
    if (!latency) {
      llvm::consumeError(latency.takeError());
      return;
    }
    scored.push_back({c, *latency});
  };
  for (int i = 0; i < options.samples; ++i)
    if (std::optional<Candidate> c = sampleCandidate(state))
      score(*c);

  // The PSA-driven evolution: children of the current best.
  for (int generation = 0; generation < options.generations; ++generation) {
    if (scored.empty())
      break;
    std::vector<size_t> order(scored.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return scored[a].latency < scored[b].latency;
    });
    order.resize(std::min<size_t>(order.size(), std::max(1, options.size)));
    std::vector<Candidate> parents;
    for (size_t i : order)
      parents.push_back(scored[i].candidate);
    for (int i = 0; i < options.samples; ++i) {
      Candidate child = parents[state.rng.uniform(parents.size())];
      if (state.rng.uniformReal() < options.mutationProbability)
        child = mutateCandidate(state, child);
      score(child);
    }
  }

  std::vector<Candidate> fresh;
  int unpruned = getUnprunedCount(options.size, options.unprunedShare);
  for (int tries = 0; static_cast<int>(fresh.size()) < 2 * unpruned &&
                      tries < 8 * unpruned + 16;
       ++tries)
    if (std::optional<Candidate> c = sampleCandidate(state))
      fresh.push_back(*c);
  TargetSpace space = selectTargetSpace(scored, fresh, options);
  if (all)
    *all = std::move(scored);
  return space;
}
