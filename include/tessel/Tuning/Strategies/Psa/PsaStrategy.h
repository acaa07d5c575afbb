//===- PsaStrategy.h - Pruner's search strategy -----------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Strategy `psa` (Pruner, Qiao et al.): every few rounds of a task, the
// static analyzer prunes a sample of its space to a target space
// (TargetSpace.h); each round a ranking cost model (XGBoost, rank:pairwise
// grouped per task, on the "pruner" features) picks the candidates to
// measure among the target space and its mutations, with epsilon-greedy
// exploration of the unpruned space. Before the model has data, the lowest
// PSA latencies go first. The model may continue from one trained on another
// device. docs/Pruner.md describes the loop, the defaults and the ablations.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_PSA_PSASTRATEGY_H
#define TESSEL_TUNING_STRATEGIES_PSA_PSASTRATEGY_H

#include "tessel/Tuning/Strategies/Psa/PrunerOptions.h"
#include "tessel/Tuning/Tuner/StrategyRegistry.h"

namespace mlir {
namespace tessel {

/// The registry entry of `psa`.
StrategyInfo getPsaStrategyInfo();

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_PSA_PSASTRATEGY_H
