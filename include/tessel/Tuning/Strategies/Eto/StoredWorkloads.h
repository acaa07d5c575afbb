//===- StoredWorkloads.h - Tuned workloads of the records database -*- C++
//-*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Beyond the paper (ETO's programs live only as long as one run): workloads
// of other models tuned earlier on the same target are read back from the
// records database so that they enter the OC graph as tuned nodes. A
// workload's task is rebuilt from the model source its run stored
// (runs.model_source) with extractTasks, so its op is exactly the one that
// was tuned.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_ETO_STOREDWORKLOADS_H
#define TESSEL_TUNING_STRATEGIES_ETO_STOREDWORKLOADS_H

#include "tessel/Tuning/Strategies/Eto/TopKStrategy.h"

#include <deque>

namespace mlir {
namespace tessel {

class RecordsDatabase;

/// A workload with programs measured on the run's target.
struct StoredWorkload {
  TuningTask task;
  /// Its programs that ran, fastest first.
  std::vector<ProgramRef> programs;
};

/// The workloads of `db` with programs that ran on `target` in runs other
/// than `currentRun`, whose op kind is that of one of `tasks` (their own
/// keys included), in the order of their first run. Models that no longer
/// parse are skipped.
llvm::Expected<std::deque<StoredWorkload>> loadStoredWorkloads(
    RecordsDatabase &db, llvm::StringRef target, int64_t currentRun,
    llvm::ArrayRef<const TuningTask *> tasks, MLIRContext *context);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_ETO_STOREDWORKLOADS_H
