//===- FasorStrategy.h - Fasor as a tuning strategy -------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Seed 004 as the strategy `fasor` (docs/Fasor.md): per round, from the
// task's best schedule so far (the start point), the DQN moves knobs of the
// n_p primitives the task is most sensitive to; the Transformer cost model
// ranks the candidates reached and the best `count` are measured. Built
// only with libtorch.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_FASOR_FASORSTRATEGY_H
#define TESSEL_TUNING_STRATEGIES_FASOR_FASORSTRATEGY_H

#include "tessel/Tuning/Tuner/StrategyRegistry.h"

namespace mlir {
namespace tessel {

/// The registry entry of `fasor`.
StrategyInfo getFasorStrategyInfo();

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_FASOR_FASORSTRATEGY_H
