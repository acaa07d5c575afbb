//===- Sensitivity.cpp - Fasor's offline sensitivity table ----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/Sensitivity.h"
#include "tessel/Tuning/Measure/SimulatedMeasurer.h"
#include "tessel/Tuning/Strategies/Fasor/Actions.h"
#include "tessel/Tuning/Strategies/Fasor/BoundScores.h"
#include "tessel/Tuning/Tuner/AnalyticCandidate.h"
#include "tessel/Tuning/Tuner/Strategy.h"

#include <cmath>
#include <optional>

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::fasor;


llvm::Expected<SensitivityTable>
mlir::tessel::fasor::measureSensitivity(std::vector<TuningTask> &tasks,
                                        const DeviceDescription &device,
                                        const SensitivityOptions &options) {
  SimulatedMeasurer measurer(device, options.seed, /*noiseStddev=*/0);
  struct Sums {
    double memory = 0, compute = 0;
    int64_t moves = 0;
  };
  std::map<Primitive, Sums> sums;
  for (auto [index, task] : llvm::enumerate(tasks)) {
    TaskSearchState state =
        TaskSearchState::create(task, device, options.seed + index);
    if (state.spaces.empty())
      continue;
    // The scores of a candidate of this task, or none when the simulated
    // GPU rejects it.
    auto score = [&](const Candidate &candidate) -> std::optional<BoundScores> {
      FailureOr<MeasureCandidate> timed =
          buildAnalyticCandidate(state, candidate);
      if (failed(timed))
        return std::nullopt;
      SimulatedEstimate estimate = measurer.estimate(*timed);
      if (estimate.status != MeasureStatus::Ok || !(estimate.totalUs > 0))
        return std::nullopt;
      return getBoundScores(timed->facts, estimate.totalUs, device);
    };
    for (const Candidate &start : sampleUnseen(state, options.startsPerTask)) {
      std::optional<BoundScores> before = score(start);
      if (!before)
        continue;
      const SearchSpace &space = state.spaces[start.space];
      for (const Action &action : enumerateActions(space, kAllPrimitives)) {
        std::optional<ConfigAttr> moved =
            applyAction(space, start.config, action);
        if (!moved)
          continue;
        Candidate next = start;
        next.config = *moved;
        std::optional<BoundScores> after = score(next);
        if (!after)
          continue;
        Sums &sum = sums[action.primitive];
        sum.memory += std::fabs(after->memoryBound - before->memoryBound);
        sum.compute += std::fabs(after->computeBound - before->computeBound);
        ++sum.moves;
      }
    }
  }
  SensitivityTable table;
  for (auto &[primitive, sum] : sums)
    if (sum.moves > 0)
      table[primitive] = {sum.memory / sum.moves, sum.compute / sum.moves};
  return table;
}

llvm::json::Value
mlir::tessel::fasor::sensitivityToJSON(const SensitivityTable &table) {
  llvm::json::Object object;
  for (const auto &[primitive, sensitivity] : table)
    object[getPrimitiveName(primitive)] = llvm::json::Object{
        {"memory", sensitivity.memory}, {"compute", sensitivity.compute}};
  return object;
}

llvm::Expected<SensitivityTable>
mlir::tessel::fasor::sensitivityFromJSON(const llvm::json::Value &value) {
  const llvm::json::Object *object = value.getAsObject();
  if (!object)
    return llvm::createStringError("sensitivity table: not a JSON object");
  SensitivityTable table;
  for (const auto &[key, entry] : *object) {
    std::optional<Primitive> primitive = parsePrimitiveName(key);
    if (!primitive)
      return llvm::createStringError("sensitivity table: unknown primitive '" +
                                     key.str() + "'");
    const llvm::json::Object *scores = entry.getAsObject();
    std::optional<double> memory =
        scores ? scores->getNumber("memory") : std::nullopt;
    std::optional<double> compute =
        scores ? scores->getNumber("compute") : std::nullopt;
    if (!memory || !compute)
      return llvm::createStringError(
          "sensitivity table: '" + key.str() +
          "' needs the numbers 'memory' and 'compute'");
    table[*primitive] = {*memory, *compute};
  }
  return table;
}
