//===- Replay.h - Measured times replayed as a measurer ---------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The replay benchmark (docs/Replay.md): `--measure=replay:<file>` answers
// every candidate with the time a GPU measured for it, read from rows of the
// measured dataset (docs/results/measured/), and makes each task's search
// space exactly the configs the rows measured, so every strategy searches
// measured ground without a GPU. Nothing is simulated: a candidate the rows
// do not have is not measured.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_TUNER_REPLAY_H
#define TESSEL_TUNING_TUNER_REPLAY_H

#include "tessel/Tuning/Device.h"
#include "tessel/Tuning/Measure/Measurer.h"
#include "tessel/Tuning/Tuner/CandidateBuilder.h"
#include "tessel/Tuning/Tuner/Strategy.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
namespace tessel {

/// The measurements of one GPU and one code generation, by task and
/// schedule.
class ReplayDataset {
public:
  /// Reads `path`: JSON lines, one measurement a line, with the columns of
  /// the measured dataset (docs/results/measured/README.md; at least
  /// `device`, `codegen`, `barriers`, `task_key`, `sketch`, `config`,
  /// `status` and, for `ok` rows, `median_us`), as `scripts/replay-dataset`
  /// writes them. Sketches and configs are parsed in `context`, which must
  /// hold the Tessel dialect. A schedule measured more than once keeps the
  /// median of its `ok` rows' medians (its first row's status when none is
  /// `ok`). Rows without a task key or with a schedule that does not parse
  /// are skipped and counted. Fails, naming the file and line, on a line
  /// that is not such an object, on rows of several devices, code
  /// generations or barrier placements (their times are not comparable),
  /// and on a file without rows.
  static llvm::Expected<std::shared_ptr<ReplayDataset>>
  load(llvm::StringRef path, MLIRContext *context);

  /// Every config the dataset measured of the task `workloadKey` under
  /// `sketch`, in the order of the rows.
  std::vector<ConfigAttr> getConfigs(llvm::StringRef workloadKey,
                                     SketchAttr sketch) const;

  /// The GPU as its driver named it, e.g. "NVIDIA H100 80GB HBM3".
  const std::string &getDeviceName() const { return deviceName; }
  /// The commit whose compiler made the measured kernels.
  const std::string &getCodegen() const { return codegen; }
  /// The measuring days, comma-separated.
  const std::string &getDates() const { return dates; }
  /// The measurer's name: `replay:<device id>@<codegen>`, e.g.
  /// "replay:h100-sxm@e4b0ce6".
  std::string getTarget(const DeviceDescription &device) const;
  /// Distinct schedules, and rows skipped (no task key, a schedule that
  /// does not parse, an unknown status).
  size_t size() const { return results.size(); }
  size_t getSkippedRows() const { return skippedRows; }

  /// The result of the schedule `index` (the key replay candidates carry).
  const MeasureResult &getResult(size_t index) const { return results[index]; }
  /// The index of `candidate`'s result, or -1.
  int64_t getIndex(llvm::StringRef workloadKey,
                   const Candidate &candidate) const;

private:
  using ScheduleId = std::pair<Attribute, Attribute>;
  struct TaskRows {
    llvm::DenseMap<ScheduleId, size_t> index;
    /// Configs per sketch, in row order.
    llvm::DenseMap<Attribute, std::vector<ConfigAttr>> configs;
  };
  std::vector<MeasureResult> results;
  llvm::StringMap<TaskRows> byTask;
  std::string deviceName, codegen, barriers, dates;
  size_t skippedRows = 0;
};

/// The measurer of `dataset`: answers a candidate built by
/// createReplayBuilder with the dataset's result (not simulated; its device
/// is getTarget()).
std::unique_ptr<Measurer>
createReplayMeasurer(std::shared_ptr<const ReplayDataset> dataset,
                     const DeviceDescription &device);

/// Builds a candidate the dataset measured into one the replay measurer
/// answers; any other candidate is an error ("not measured in the replayed
/// dataset").
std::unique_ptr<CandidateBuilder>
createReplayBuilder(std::shared_ptr<const ReplayDataset> dataset);

/// Restricts every search space of `state` to the configs the dataset
/// measured of its task and sketch (SearchSpace::restrictTo) and drops the
/// spaces with none, before any candidate names a space. Returns the
/// configs left in all.
size_t restrictToReplayed(TaskSearchState &state, const ReplayDataset &dataset);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_TUNER_REPLAY_H
