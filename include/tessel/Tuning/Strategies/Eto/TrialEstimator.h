//===- TrialEstimator.h - ETO's search time estimator -----------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The weight of a reuse edge beta -> alpha in ETO's OC graph (section 6.1):
// the number of programs the reuse tuner measures on alpha. It is computed
// without measuring by running EtoStrategy against a measurer under which
// every program runs and none is faster than the best so far; beta's best
// program is not known before tuning, so the estimate averages the count
// over random valid programs of beta.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_ETO_TRIALESTIMATOR_H
#define TESSEL_TUNING_STRATEGIES_ETO_TRIALESTIMATOR_H

#include "tessel/Tuning/Strategies/Eto/EtoStrategy.h"

namespace mlir {
namespace tessel {

/// The number of measurements EtoStrategy makes on `alpha` reusing `beta`
/// when every candidate runs at the same speed: every round of every block
/// count runs, and each round's S~ is its first candidate (ties keep the
/// best so far), so the count depends on the options and the programs only.
/// Fails when alpha has no sketch like beta's or beta's program does not
/// fit its op (EtoStrategy::prepare).
llvm::Expected<int64_t> countEtoTrials(const TuningTask &alpha,
                                       const ReferenceProgram &beta,
                                       const DeviceDescription &device,
                                       const EtoOptions &options);

/// The estimated measurements of tuning `alpha` by reusing `beta`'s best
/// program: per sample (`options.samples` of them) a random valid config
/// (SearchSpace::sample, seeded by `seed`) of every sketch the two tasks
/// share, the sample's count being the largest over those sketches (ETO's
/// maximum possible cost when an op has several sketches); the average of
/// the samples' counts. Deterministic for a seed. Definition 2 is not
/// checked (checkReusePair is the caller's). +infinity when the tasks
/// share no sketch or no sample could be drawn (no reuse edge).
double estimateEtoTrials(const TuningTask &alpha, const TuningTask &beta,
                         const DeviceDescription &device,
                         const EtoOptions &options, uint64_t seed);

/// GetTShape's answers for one task alpha, per sketch of alpha's: what
/// estimates of edges into alpha may share (the same answers, found once).
using AlphaThreadShapes =
    std::map<std::string, std::shared_ptr<ThreadShapeCache>>;

/// estimateEtoTrials, keeping GetTShape's answers on alpha's spaces in
/// `alphaThreadShapes`, which must be used for this alpha (and device and
/// options) only. The result is the same.
double estimateEtoTrials(const TuningTask &alpha, const TuningTask &beta,
                         const DeviceDescription &device,
                         const EtoOptions &options, uint64_t seed,
                         AlphaThreadShapes &alphaThreadShapes);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_ETO_TRIALESTIMATOR_H
