//===- TrainingRecords.cpp - What a model-guided strategy learns from -----===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Tuner/TrainingRecords.h"

using namespace mlir;
using namespace mlir::tessel;

std::vector<FeatureVector>
TrainingRecords::extract(TaskSearchState &state,
                         ArrayRef<Candidate> candidates) {
  std::vector<FeatureVector> result;
  result.reserve(candidates.size());
  linalg::LinalgOp op = state.task->getTargetOp();
  auto &taskCache = cache[&state];
  for (const Candidate &c : candidates) {
    auto it = taskCache.find(c.getId());
    if (it == taskCache.end()) {
      FailureOr<std::vector<float>> f =
          extractor.extract(op, state.consumers, c.sketch, c.config, device);
      it = taskCache
               .try_emplace(c.getId(),
                            failed(f) ? FeatureVector(extractor.width(), 0)
                                      : std::move(*f))
               .first;
    }
    result.push_back(it->second);
  }
  return result;
}

void TrainingRecords::add(TaskSearchState &state, ArrayRef<Trial> trials) {
  auto [it, inserted] = taskIds.try_emplace(&state, taskIds.size());
  std::vector<Candidate> candidates;
  for (const Trial &trial : trials)
    candidates.push_back(trial.candidate);
  std::vector<FeatureVector> vectors = extract(state, candidates);
  for (auto [trial, vector] : llvm::zip(trials, vectors)) {
    features.push_back(std::move(vector));
    throughputs.push_back(trial.result.isOk() ? trial.gflops : 0.0);
    tasks.push_back(it->second);
  }
  newRows = true;
}
