//===- TrialEstimator.cpp - ETO's search time estimator -------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Eto/TrialEstimator.h"

#include <limits>

using namespace mlir;
using namespace mlir::tessel;

/// Batch size of the simulated tuning (any size gives the same count).
static constexpr int kSimulatedBatch = 64;

llvm::Expected<int64_t> tessel::countEtoTrials(const TuningTask &alpha,
                                               const ReferenceProgram &beta,
                                               const DeviceDescription &device,
                                               const EtoOptions &options) {
  // Only the spaces of beta's sketch: the strategy uses no other.
  TaskSearchState state;
  if (beta.sketch) {
    for (SketchAttr sketch : alpha.sketches) {
      if (!haveSameSketchStructure({sketch}, {beta.sketch}))
        continue;
      FailureOr<SearchSpace> space =
          SearchSpace::get(alpha.getTargetOp(), sketch, device);
      if (succeeded(space)) {
        state.spaces.push_back(std::move(*space));
        break;
      }
    }
  }
  EtoStrategy strategy(options, beta);
  if (llvm::Error error = strategy.prepare(state))
    return std::move(error);
  int64_t measured = 0;
  while (true) {
    std::vector<Candidate> batch = strategy.propose(state, kSimulatedBatch);
    if (batch.empty())
      break;
    std::vector<Trial> trials;
    for (Candidate &candidate : batch) {
      Trial trial;
      trial.candidate = std::move(candidate);
      trial.gflops = 1.0;
      trials.push_back(trial);
      state.record(std::move(trial));
    }
    measured += trials.size();
    if (llvm::Error error = strategy.observe(state, trials))
      return std::move(error);
  }
  return measured;
}

double tessel::estimateEtoTrials(const TuningTask &alpha,
                                 const TuningTask &beta,
                                 const DeviceDescription &device,
                                 const EtoOptions &options, uint64_t seed) {
  constexpr double kNoEdge = std::numeric_limits<double>::infinity();
  // Beta's spaces of the sketches alpha has too.
  std::vector<SearchSpace> spaces;
  for (SketchAttr sketch : beta.sketches) {
    if (llvm::none_of(alpha.sketches, [&](SketchAttr other) {
          return haveSameSketchStructure({sketch}, {other});
        }))
      continue;
    FailureOr<SearchSpace> space =
        SearchSpace::get(beta.getTargetOp(), sketch, device);
    if (succeeded(space))
      spaces.push_back(std::move(*space));
  }
  if (spaces.empty() || options.samples <= 0)
    return kNoEdge;
  RandomEngine rng(seed);
  double total = 0;
  int counted = 0;
  for (int sample = 0; sample < options.samples; ++sample) {
    std::optional<int64_t> worst;
    for (SearchSpace &space : spaces) {
      FailureOr<ConfigAttr> config = space.sample(rng);
      if (failed(config))
        continue;
      ReferenceProgram reference{&beta, space.getSketch(), *config};
      llvm::Expected<int64_t> count =
          countEtoTrials(alpha, reference, device, options);
      if (!count) {
        llvm::consumeError(count.takeError());
        continue;
      }
      worst = std::max(worst.value_or(0), *count);
    }
    if (!worst)
      continue;
    total += *worst;
    ++counted;
  }
  return counted ? total / counted : kNoEdge;
}
