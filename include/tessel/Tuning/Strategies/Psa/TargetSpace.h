//===- TargetSpace.h - Pruner's target space of a task ----------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Algorithm 1 of Pruner: sample the task's search space, evolve the samples
// a few generations under the static analyzer's latency (as the authors' code
// does), and keep the `size` candidates of lowest latency, the "target
// space", plus a share of unpruned random samples.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_PSA_TARGETSPACE_H
#define TESSEL_TUNING_STRATEGIES_PSA_TARGETSPACE_H

#include "tessel/Tuning/Pruner/StaticAnalyzer.h"
#include "tessel/Tuning/Strategies/Psa/PrunerOptions.h"
#include "tessel/Tuning/Tuner/Strategy.h"

#include <vector>

namespace mlir {
namespace tessel {

/// A candidate and its PSA latency (seconds).
struct ScoredCandidate {
  Candidate candidate;
  double latency = 0;
};

/// The target space of a task.
struct TargetSpace {
  /// The candidates of lowest PSA latency, ascending, distinct.
  std::vector<ScoredCandidate> pruned;
  /// Unpruned random samples, distinct and not in `pruned`.
  std::vector<Candidate> unpruned;
  /// Distinct candidates the PSA scored to build the space.
  size_t scored = 0;
};

/// Unpruned samples kept beside `size` pruned ones so that they are `share`
/// of the target space: round(size * share / (1 - share)); 0 for share <= 0.
int getUnprunedCount(int size, double share);

/// Keeps the `options.size` distinct candidates of `sampled` with the
/// lowest latency (ties: first sampled first) and the first
/// getUnprunedCount() distinct candidates of `fresh` not kept among them.
TargetSpace selectTargetSpace(llvm::ArrayRef<ScoredCandidate> sampled,
                              llvm::ArrayRef<Candidate> fresh,
                              const TargetSpaceOptions &options);

/// Whether a block of `candidate` fits an SM of the space's device (the
/// occupancy calculator with the space's register estimate and the block's
/// shared memory): what a compiler and a driver would refuse to launch is
/// never in a target space.
bool canBeResident(const TaskSearchState &state, const Candidate &candidate);

/// The PSA latency of `candidate`, or an error when the analyzer fails.
llvm::Expected<double> getPsaLatency(const StaticAnalyzer &analyzer,
                                     TaskSearchState &state,
                                     const Candidate &candidate);

/// Algorithm 1: `options.samples` random candidates of `state`, evolved
/// `options.generations` times (parents drawn uniformly among the
/// `options.size` of lowest latency, mutated with
/// `options.mutationProbability`), then selectTargetSpace() against fresh
/// random samples. Candidates the analyzer rejects and those that
/// canBeResident() rejects are left out. When
/// `scored` is given, it receives every distinct candidate scored.
TargetSpace generateTargetSpace(TaskSearchState &state,
                                const StaticAnalyzer &analyzer,
                                const TargetSpaceOptions &options,
                                std::vector<ScoredCandidate> *scored = nullptr);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_PSA_TARGETSPACE_H
