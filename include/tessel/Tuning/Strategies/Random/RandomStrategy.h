//===- RandomStrategy.h - Uniform samples of the search space ---*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Strategy `random`: every batch is uniform samples of the task's search
// space (a random sketch's random config), none measured before. The
// baseline of every other strategy.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_RANDOM_RANDOMSTRATEGY_H
#define TESSEL_TUNING_STRATEGIES_RANDOM_RANDOMSTRATEGY_H

#include "tessel/Tuning/Tuner/StrategyRegistry.h"

namespace mlir {
namespace tessel {

/// The registry entry of `random`.
StrategyInfo getRandomStrategyInfo();

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_RANDOM_RANDOMSTRATEGY_H
