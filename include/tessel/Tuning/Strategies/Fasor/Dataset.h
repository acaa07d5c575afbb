//===- Dataset.h - Fasor's labelled schedules --------------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The training data of Fasor's cost model (seed 004, section 7): schedules
// of many tasks with their latency and MS/CS labels. Here the schedules are
// drawn uniformly from each task's search space and timed by the simulated
// GPU from their kernel facts (analytic fidelity, no noise): a dataset for
// `sim:<device>`, labelled SIMULATED (docs/Fasor.md).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_FASOR_DATASET_H
#define TESSEL_TUNING_STRATEGIES_FASOR_DATASET_H

#include "tessel/Tuning/Device.h"
#include "tessel/Tuning/Search/Task.h"
#include "tessel/Tuning/Strategies/Fasor/TransformerCostModel.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace tessel {
class RecordsDatabase;

namespace fasor {

struct DatasetOptions {
  /// Schedules drawn per task (fewer when its space has fewer, or when
  /// sampling keeps failing).
  int64_t schedulesPerTask = 64;
  /// Seeds each task's sampling (task i uses seed + i).
  uint64_t seed = 0;
};

/// One labelled schedule and the task it belongs to (so that a split can
/// keep a task's schedules on one side).
struct LabeledSchedule {
  /// The task's workload key and op kind (the kernel class).
  std::string workloadKey;
  std::string opKind;
  /// The schedule, printed (sketch and config).
  std::string schedule;
  Sample sample;
  /// For buildRecordsDataset: the simulated device's noise-free analytic
  /// prediction of the same three values, to compare a GPU's measurements
  /// with the simulator that pretrained the model. Unset otherwise.
  std::optional<Prediction> simulated;
};

/// Draws up to `options.schedulesPerTask` distinct schedules of every task
/// of `tasks`, times each on the simulated `device` (analytic, noise-free)
/// and labels it: latency, MS and CS (getBoundScores), tokens
/// (encodeSchedule). Schedules the simulated device rejects (out of
/// resources) are left out. Deterministic for a seed.
llvm::Expected<std::vector<LabeledSchedule>>
buildSimulatedDataset(std::vector<TuningTask> &tasks,
                      const DeviceDescription &device,
                      const DatasetOptions &options = {});

/// The `ok` measurements of `tasks` recorded in `records` on `target` (e.g.
/// "sim:v100:analytic", a run of Fasor's own search on the source device),
/// labelled like buildSimulatedDataset's: the measured median as the
/// latency, MS and CS from the schedule's kernel facts over that time.
/// Records whose schedule is not one of the task's spaces (another Tessel's
/// sketches) are skipped. Each schedule's `simulated` prediction on
/// `device` is filled in.
llvm::Expected<std::vector<LabeledSchedule>>
buildRecordsDataset(std::vector<TuningTask> &tasks, RecordsDatabase &records,
                    llvm::StringRef target, const DeviceDescription &device);

} // namespace fasor
} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_FASOR_DATASET_H
