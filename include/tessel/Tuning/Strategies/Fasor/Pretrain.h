//===- Pretrain.h - Offline pretraining of Fasor's cost model ---*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Item 2 of issue 20: train the cost model on a source device's dataset and
// report its R^2 on operators it never saw (the paper: 80/20 split, test
// operators excluded from training; 0.959 on its V100).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_FASOR_PRETRAIN_H
#define TESSEL_TUNING_STRATEGIES_FASOR_PRETRAIN_H

#include "tessel/Tuning/Strategies/Fasor/Dataset.h"
#include "tessel/Tuning/Strategies/Fasor/TransformerCostModel.h"

namespace mlir {
namespace tessel {
namespace fasor {

/// R^2 of the three outputs (latency on its log).
struct RSquared {
  double latency = 0;
  double memoryBound = 0;
  double computeBound = 0;
};

/// The R^2 of `model` on `schedules` (at least two).
llvm::Expected<RSquared> evaluate(const TransformerCostModel &model,
                                  llvm::ArrayRef<LabeledSchedule> schedules);

struct PretrainOptions {
  /// The share of tasks (workload keys) held out for testing.
  double testFraction = 0.2;
  /// Seeds the split, the initial weights and the training.
  uint64_t seed = 0;
  TransformerOptions network;
  TrainOptions training;
};

struct PretrainResult {
  TransformerCostModel model;
  int64_t trainTasks = 0, testTasks = 0;
  int64_t trainSchedules = 0, testSchedules = 0;
  RSquared train, test;
  std::vector<double> losses;
};

/// Splits `dataset` by task (a seeded shuffle of the distinct workload
/// keys; the last `testFraction` of them are the test tasks, at least one),
/// trains a fresh model on the training tasks' schedules and evaluates it
/// on both sides.
llvm::Expected<PretrainResult>
pretrain(llvm::ArrayRef<LabeledSchedule> dataset,
         const PretrainOptions &options = {});

} // namespace fasor
} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_FASOR_PRETRAIN_H
