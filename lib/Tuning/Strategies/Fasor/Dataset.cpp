//===- Dataset.cpp - Fasor's labelled schedules ---------------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/Dataset.h"

#include "tessel/Tuning/Measure/SimulatedMeasurer.h"
#include "tessel/Tuning/Records/RecordsDatabase.h"
#include "tessel/Tuning/Strategies/Fasor/BoundScores.h"
#include "tessel/Tuning/Strategies/Fasor/ScheduleTokens.h"
#include "tessel/Tuning/Tuner/AnalyticCandidate.h"
#include "tessel/Tuning/Tuner/Strategy.h"

#include "mlir/AsmParser/AsmParser.h"

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::fasor;

llvm::Expected<std::vector<LabeledSchedule>>
mlir::tessel::fasor::buildSimulatedDataset(std::vector<TuningTask> &tasks,
                                           const DeviceDescription &device,
                                           const DatasetOptions &options) {
  std::vector<LabeledSchedule> dataset;
  // Noise-free: the labels are the model's prediction, not a draw.
  SimulatedMeasurer measurer(device, options.seed, /*noiseStddev=*/0);
  for (auto [index, task] : llvm::enumerate(tasks)) {
    TaskSearchState state =
        TaskSearchState::create(task, device, options.seed + index);
    if (state.spaces.empty())
      continue;
    for (const Candidate &candidate :
         sampleUnseen(state, options.schedulesPerTask)) {
      FailureOr<MeasureCandidate> timed =
          buildAnalyticCandidate(state, candidate);
      if (failed(timed))
        continue;
      SimulatedEstimate estimate = measurer.estimate(*timed);
      if (estimate.status != MeasureStatus::Ok || !(estimate.totalUs > 0))
        continue;
      llvm::Expected<Tokens> tokens =
          encodeSchedule(state.spaces[candidate.space].getOp(),
                         state.consumers, candidate.sketch, candidate.config,
                         device);
      if (!tokens)
        return tokens.takeError();
      BoundScores scores =
          getBoundScores(timed->facts, estimate.totalUs, device);
      LabeledSchedule labeled;
      labeled.workloadKey = task.workloadKey;
      labeled.opKind = task.opKind;
      labeled.schedule = candidate.getKey();
      labeled.sample.tokens = std::move(*tokens);
      labeled.sample.label = {estimate.totalUs, scores.memoryBound,
                              scores.computeBound};
      dataset.push_back(std::move(labeled));
    }
  }
  return dataset;
}

llvm::Expected<std::vector<LabeledSchedule>>
mlir::tessel::fasor::buildRecordsDataset(std::vector<TuningTask> &tasks,
                                         RecordsDatabase &records,
                                         llvm::StringRef target,
                                         const DeviceDescription &device) {
  std::vector<LabeledSchedule> dataset;
  SimulatedMeasurer simulator(device, /*seed=*/0, /*noiseStddev=*/0);
  for (TuningTask &task : tasks) {
    llvm::Expected<std::optional<TaskInfo>> info =
        records.getTask(task.workloadKey);
    if (!info)
      return info.takeError();
    if (!*info)
      continue;
    auto measurements = records.getMeasurements((*info)->id, target);
    if (!measurements)
      return measurements.takeError();
    TaskSearchState state = TaskSearchState::create(task, device, 0);
    MLIRContext *context = task.getTargetOp()->getContext();
    for (const MeasurementRecord &record : *measurements) {
      if (!record.isOk() || !(record.timing.medianUs > 0))
        continue;
      auto sketch = llvm::dyn_cast_if_present<SketchAttr>(
          parseAttribute(record.sketch, context));
      auto config = llvm::dyn_cast_if_present<ConfigAttr>(
          parseAttribute(record.config, context));
      if (!sketch || !config)
        continue;
      std::optional<unsigned> space;
      for (auto [index, candidateSpace] : llvm::enumerate(state.spaces))
        if (candidateSpace.getSketch() == sketch)
          space = index;
      if (!space)
        continue;
      Candidate candidate{*space, sketch, config};
      FailureOr<MeasureCandidate> facts =
          buildAnalyticCandidate(state, candidate);
      if (failed(facts))
        continue;
      llvm::Expected<Tokens> tokens =
          encodeSchedule(state.spaces[*space].getOp(), state.consumers, sketch,
                         config, device);
      if (!tokens)
        return tokens.takeError();
      BoundScores scores =
          getBoundScores(facts->facts, record.timing.medianUs, device);
      LabeledSchedule labeled;
      labeled.workloadKey = task.workloadKey;
      labeled.opKind = task.opKind;
      labeled.schedule = candidate.getKey();
      labeled.sample.tokens = std::move(*tokens);
      labeled.sample.label = {record.timing.medianUs, scores.memoryBound,
                              scores.computeBound};
      SimulatedEstimate estimate = simulator.estimate(*facts);
      if (estimate.status == MeasureStatus::Ok && estimate.totalUs > 0) {
        BoundScores simulatedScores =
            getBoundScores(facts->facts, estimate.totalUs, device);
        labeled.simulated =
            Prediction{estimate.totalUs, simulatedScores.memoryBound,
                       simulatedScores.computeBound};
      }
      dataset.push_back(std::move(labeled));
    }
  }
  return dataset;
}
