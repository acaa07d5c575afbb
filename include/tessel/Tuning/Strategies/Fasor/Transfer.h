//===- Transfer.h - Moving Fasor's cost model to a new device ---*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Item 3 of issue 20 (seed 004, section 4.2): on a target device, measure
// the schedules of k = 10 diverse tasks, chosen by the Spearman similarity
// of their task features, fine-tune the pretrained model on them, then use
// it for inference only. How Tessel clusters is in docs/Fasor.md
// ("Transfer").
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_FASOR_TRANSFER_H
#define TESSEL_TUNING_STRATEGIES_FASOR_TRANSFER_H

#include "tessel/Tuning/Strategies/Fasor/Pretrain.h"

#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace mlir {
namespace tessel {
namespace fasor {

/// Picks `k` diverse items (indices, increasing) of `features` (one vector
/// per task, all of one length): k-medoids under the distance 1 - Spearman
/// similarity, started by farthest-first traversal from the most central
/// item, each medoid then moved to the member of its cluster with the least
/// total distance to the others, until nothing moves. All items when there
/// are at most `k`.
std::vector<size_t>
selectDiverseTasks(llvm::ArrayRef<std::vector<double>> features, size_t k);

/// The task features Fasor clusters on: the task token of a schedule of the
/// task (loop extents, reduction flags, fused consumers; ScheduleTokens.h).
std::vector<double> getTaskFeatures(const LabeledSchedule &schedule);

struct TransferOptions {
  /// Tasks measured on the target.
  size_t tasks = 10;
  /// Fine-tuning: fewer epochs at a lower rate than pretraining, the
  /// pretrained latency scale kept.
  TrainOptions fineTune = [] {
    TrainOptions options;
    options.learningRate = 1e-4;
    options.epochs = 10;
    options.keepLatencyScale = true;
    return options;
  }();
};

struct TransferResult {
  /// The workload keys of the measured tasks.
  std::vector<std::string> measuredTasks;
  int64_t measuredSchedules = 0;
  int64_t evaluatedSchedules = 0;
  /// R^2 on the target's other tasks before and after fine-tuning.
  RSquared before, after;
};

/// Fine-tunes `model` (in place) for the device of `dataset`: picks
/// `options.tasks` diverse tasks of `dataset`, trains on their schedules,
/// and evaluates on the schedules of every other task, before and after.
llvm::Expected<TransferResult>
transfer(TransformerCostModel &model, llvm::ArrayRef<LabeledSchedule> dataset,
         const TransferOptions &options = {});

} // namespace fasor
} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_FASOR_TRANSFER_H
