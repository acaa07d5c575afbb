//===- PrunerOptions.h - Options of the `psa` strategy ----------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The knobs of Pruner's search (strategy `psa`, docs/Pruner.md): the static
// analyzer, the target space and the paper's ablations. The ranking cost
// model and its features are the run's (`xgboost` with `objective=auto`
// ranks for psa; `init=` continues from a model of another device). Defaults
// are the paper's where it gives one, else the authors' code's.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_PSA_PRUNEROPTIONS_H
#define TESSEL_TUNING_STRATEGIES_PSA_PRUNEROPTIONS_H

#include "tessel/Tuning/Pruner/StaticAnalyzer.h"

#include <string>

namespace mlir {
namespace tessel {

/// How the target space of a task is generated (Algorithm 1).
struct TargetSpaceOptions {
  /// Candidates of lowest PSA latency kept (the paper's 512).
  int size = 512;
  /// Share of unpruned random samples in the target space, beside the
  /// `size` pruned ones (the paper: "a small portion"; no value given).
  double unprunedShare = 0.1;
  /// Random samples that start the PSA-driven evolution.
  int samples = 2048;
  /// Generations of the PSA-driven evolution (the authors' code: 2).
  int generations = 2;
  /// Probability that a child is mutated.
  double mutationProbability = 0.85;
};

/// Every knob of strategy `psa`.
struct PrunerOptions {
  /// Prune with the PSA; false is the paper's "w/o PSA" ablation: the
  /// target space is replaced by as many unpruned random samples.
  bool prune = true;
  PsaOptions psa;
  TargetSpaceOptions targetSpace;
  /// Rounds of a task between two generations of its target space (the
  /// authors' code: 2).
  int regenerateEvery = 2;
  /// Generations of model-guided mutation over the target space and the
  /// best measured candidates each round (the authors' code: 1).
  int modelGenerations = 1;
  /// Share of the round's population taken from the best measured.
  double measuredShare = 0.1;
  /// Share of each batch drawn at random from the unpruned space.
  double epsilonGreedy = 0.1;
  /// Probability that a child of the model-guided mutation is mutated.
  double mutationProbability = 0.85;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_PSA_PRUNEROPTIONS_H
