//===- EtoDriver.h - ETO's operator-set tuning (strategy `eto`) -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Strategy `eto` tunes a whole model as an operator set (ETO, section 6):
// the model's tasks, their 1-hop bridge operators and (beyond the paper) the
// workloads the records database already holds tuned programs of become the
// nodes of the OC graph; reuse edges cost the trial estimator's count, root
// edges the backend's trial cap; the reuse tree (ReuseTree.h) says who
// reuses whom. Roots are tuned by a backend strategy from the registry, the
// others by Algorithm 1 (EtoStrategy) from their source's best program, in
// tree order. `eto-topk` is the same with the TopK baseline
// (TopKStrategy.h) instead of Algorithm 1. See docs/Eto.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_ETO_ETODRIVER_H
#define TESSEL_TUNING_STRATEGIES_ETO_ETODRIVER_H

#include "tessel/Tuning/Tuner/StrategyRegistry.h"

namespace mlir {
namespace tessel {

/// The registry entry of `eto`.
StrategyInfo getEtoStrategyInfo();
/// The registry entry of `eto-topk`.
StrategyInfo getEtoTopKStrategyInfo();

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_ETO_ETODRIVER_H
