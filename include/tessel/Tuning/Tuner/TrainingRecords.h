//===- TrainingRecords.h - What a model-guided strategy learns from -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The measured candidates of every task as a cost model's training set, and
// the features of each task's candidates, extracted once (populations and
// target spaces repeat their members across generations and rounds).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_TUNER_TRAININGRECORDS_H
#define TESSEL_TUNING_TUNER_TRAININGRECORDS_H

#include "tessel/Tuning/CostModel/CostModel.h"
#include "tessel/Tuning/Features/FeatureExtractor.h"
#include "tessel/Tuning/Tuner/Strategy.h"

#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace mlir {
namespace tessel {

/// Training rows over all tasks and a per-task feature cache.
class TrainingRecords {
public:
  TrainingRecords(const FeatureExtractor &extractor,
                  const DeviceDescription &device)
      : extractor(extractor), device(device) {}

  /// Features of `candidates` of `state`'s task (a zero vector for one the
  /// extractor rejects), each extracted once.
  std::vector<FeatureVector> extract(TaskSearchState &state,
                                     llvm::ArrayRef<Candidate> candidates);
  /// Adds `trials` of `state`'s task as rows (throughput 0 when not ok).
  void add(TaskSearchState &state, llvm::ArrayRef<Trial> trials);
  /// True once after rows were added: the model should retrain.
  bool takeNewRows() {
    bool result = newRows;
    newRows = false;
    return result;
  }

  /// The rows: features, GFLOP/s, and a dense task index per row.
  std::vector<FeatureVector> features;
  std::vector<double> throughputs;
  std::vector<unsigned> tasks;

private:
  const FeatureExtractor &extractor;
  const DeviceDescription &device;
  llvm::DenseMap<TaskSearchState *, unsigned> taskIds;
  llvm::DenseMap<TaskSearchState *,
                 llvm::DenseMap<std::pair<Attribute, Attribute>, FeatureVector>>
      cache;
  bool newRows = false;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_TUNER_TRAININGRECORDS_H
