//===- Sensitivity.h - Fasor's offline sensitivity table --------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Seed 004, section 5, level 2: offline, how much the memory-bound and
// compute-bound scores (MS, CS) move when one primitive moves with the rest
// of the schedule fixed. Measured here on the simulated GPU: from sampled
// start schedules of many tasks, every applicable action of each primitive
// (Actions.h) is taken once and the absolute changes of MS and CS are
// averaged per primitive.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_FASOR_SENSITIVITY_H
#define TESSEL_TUNING_STRATEGIES_FASOR_SENSITIVITY_H

#include "tessel/Tuning/Device.h"
#include "tessel/Tuning/Search/Task.h"
#include "tessel/Tuning/Strategies/Fasor/Shrinking.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <vector>

namespace mlir {
namespace tessel {
namespace fasor {

struct SensitivityOptions {
  /// Start schedules drawn per task (across its sketches).
  int64_t startsPerTask = 8;
  /// Seeds each task's sampling (task i uses seed + i).
  uint64_t seed = 0;
};

/// The table over `tasks` on the simulated `device` (analytic, noise-free):
/// per primitive, the mean |MS after - MS before| and |CS after - CS
/// before| over every applicable action from every start. Primitives
/// without any applicable action (Fuse, Compute Inline, Reorder: sketch
/// choices) are left out of the table. Deterministic for a seed.
llvm::Expected<SensitivityTable>
measureSensitivity(std::vector<TuningTask> &tasks,
                   const DeviceDescription &device,
                   const SensitivityOptions &options = {});

/// `{"split": {"memory": m, "compute": c}, ...}`, primitives by Tab. 1 name.
llvm::json::Value sensitivityToJSON(const SensitivityTable &table);
/// The inverse of sensitivityToJSON; names an unknown primitive or a
/// missing number in the error.
llvm::Expected<SensitivityTable>
sensitivityFromJSON(const llvm::json::Value &value);

} // namespace fasor
} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_FASOR_SENSITIVITY_H
