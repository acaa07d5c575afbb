//===- TrialEstimator.cpp - ETO's search time estimator -------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Eto/TrialEstimator.h"

#include "llvm/Support/raw_ostream.h"

#include <limits>

using namespace mlir;
using namespace mlir::tessel;

/// Batch size of the simulated tuning (any size gives the same count).
static constexpr int kSimulatedBatch = 64;

/// Alpha's space of a sketch like `sketch` (up to fused consumers and
/// inlined producers), if any.
static std::optional<SearchSpace>
getSpaceLike(const TuningTask &alpha, SketchAttr sketch,
             const DeviceDescription &device) {
  if (!sketch)
    return std::nullopt;
  for (SketchAttr candidate : alpha.sketches) {
    if (!haveSameSketchStructure({candidate}, {sketch}))
      continue;
    FailureOr<SearchSpace> space =
        SearchSpace::get(alpha.getTargetOp(), candidate, device);
    if (succeeded(space))
      return std::move(*space);
  }
  return std::nullopt;
}

/// countEtoTrials on alpha's space `space` (none when alpha has no space of
/// the reference's sketch).
static llvm::Expected<int64_t>
countOnSpace(const std::optional<SearchSpace> &space,
             const ReferenceProgram &beta, const EtoOptions &options,
             std::shared_ptr<ThreadShapeCache> threadShapes = nullptr) {
  // Only the space of beta's sketch: the strategy uses no other.
  TaskSearchState state;
  if (space)
    state.spaces.push_back(*space);
  EtoStrategy strategy(options, beta);
  if (threadShapes)
    strategy.shareThreadShapes(std::move(threadShapes));
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

llvm::Expected<int64_t> tessel::countEtoTrials(const TuningTask &alpha,
                                               const ReferenceProgram &beta,
                                               const DeviceDescription &device,
                                               const EtoOptions &options) {
  return countOnSpace(getSpaceLike(alpha, beta.sketch, device), beta, options);
}

double tessel::estimateEtoTrials(const TuningTask &alpha,
                                 const TuningTask &beta,
                                 const DeviceDescription &device,
                                 const EtoOptions &options, uint64_t seed) {
  AlphaThreadShapes alphaThreadShapes;
  return estimateEtoTrials(alpha, beta, device, options, seed,
                           alphaThreadShapes);
}

double tessel::estimateEtoTrials(const TuningTask &alpha,
                                 const TuningTask &beta,
                                 const DeviceDescription &device,
                                 const EtoOptions &options, uint64_t seed,
                                 AlphaThreadShapes &alphaThreadShapes) {
  constexpr double kNoEdge = std::numeric_limits<double>::infinity();
  // Beta's spaces of the sketches alpha has too, with alpha's and the
  // GetTShape answers on alpha's, which the samples share.
  struct SharedSketch {
    SearchSpace beta;
    SearchSpace alpha;
    std::shared_ptr<ThreadShapeCache> threadShapes;
  };
  std::vector<SharedSketch> spaces;
  for (SketchAttr sketch : beta.sketches) {
    std::optional<SearchSpace> alphaSpace = getSpaceLike(alpha, sketch, device);
    if (!alphaSpace)
      continue;
    FailureOr<SearchSpace> space =
        SearchSpace::get(beta.getTargetOp(), sketch, device);
    if (failed(space))
      continue;
    std::string sketchKey;
    llvm::raw_string_ostream(sketchKey) << alphaSpace->getSketch();
    std::shared_ptr<ThreadShapeCache> &cache = alphaThreadShapes[sketchKey];
    if (!cache)
      cache = std::make_shared<ThreadShapeCache>();
    spaces.push_back({std::move(*space), std::move(*alphaSpace), cache});
  }
  if (spaces.empty() || options.samples <= 0)
    return kNoEdge;
  RandomEngine rng(seed);
  double total = 0;
  int counted = 0;
  for (int sample = 0; sample < options.samples; ++sample) {
    std::optional<int64_t> worst;
    for (SharedSketch &shared : spaces) {
      FailureOr<ConfigAttr> config = shared.beta.sample(rng);
      if (failed(config))
        continue;
      ReferenceProgram reference{&beta, shared.beta.getSketch(), *config};
      llvm::Expected<int64_t> count = countOnSpace(shared.alpha, reference,
                                                   options, shared.threadShapes);
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
