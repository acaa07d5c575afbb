//===- StoredWorkloads.cpp - Tuned workloads of the records database ------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Eto/StoredWorkloads.h"

#include "tessel/Tuning/Records/RecordsDatabase.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tessel;

/// The programs of `taskId` that ran on `target` in runs other than
/// `currentRun`, fastest first.
static llvm::Expected<std::vector<ProgramRef>>
loadPrograms(RecordsDatabase &db, int64_t taskId, llvm::StringRef target,
             int64_t currentRun, MLIRContext *context) {
  auto measurements = db.getMeasurements(taskId, target);
  if (!measurements)
    return measurements.takeError();
  std::vector<const MeasurementRecord *> ok;
  for (const MeasurementRecord &record : *measurements)
    if (record.runId != currentRun && record.isOk() &&
        record.timing.medianUs > 0)
      ok.push_back(&record);
  std::stable_sort(ok.begin(), ok.end(), [](auto *a, auto *b) {
    return a->timing.medianUs < b->timing.medianUs;
  });
  std::vector<ProgramRef> programs;
  llvm::DenseSet<int64_t> configs;
  for (const MeasurementRecord *record : ok) {
    if (!configs.insert(record->configId).second)
      continue;
    auto sketch = llvm::dyn_cast_if_present<SketchAttr>(
        parseAttribute(record->sketch, context));
    auto config = llvm::dyn_cast_if_present<ConfigAttr>(
        parseAttribute(record->config, context));
    if (sketch && config)
      programs.push_back({sketch, config, record->timing.medianUs});
  }
  return programs;
}

llvm::Expected<std::deque<StoredWorkload>> tessel::loadStoredWorkloads(
    RecordsDatabase &db, llvm::StringRef target, int64_t currentRun,
    llvm::ArrayRef<const TuningTask *> tasks, MLIRContext *context) {
  llvm::StringSet<> kinds;
  for (const TuningTask *task : tasks)
    kinds.insert(task->opKind);
  // The candidates: every workload of the same kinds, by key. A workload of
  // the model tuned before (by another model or run) is one too: the model's
  // task reuses its identical stored twin in a few trials.
  auto stored = db.getTasks();
  if (!stored)
    return stored.takeError();
  llvm::StringMap<int64_t> wanted;
  for (const TaskInfo &info : *stored)
    if (kinds.contains(info.opKind))
      wanted[info.workloadKey] = info.id;

  std::deque<StoredWorkload> workloads;
  if (wanted.empty())
    return workloads;
  auto runs = db.getRuns();
  if (!runs)
    return runs.takeError();
  llvm::StringSet<> parsedSources;
  for (const RunInfo &run : *runs) {
    if (wanted.empty())
      break;
    if (run.modelSource.empty() ||
        !parsedSources.insert(run.modelSource).second)
      continue;
    // A model that no longer parses (an older dialect) has nothing to give;
    // its diagnostics are not the user's.
    ScopedDiagnosticHandler silence(context,
                                    [](Diagnostic &) { return success(); });
    ParserConfig config(context);
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(run.modelSource, config);
    if (!module)
      continue;
    auto extracted = extractTasks(*module, context);
    if (!extracted) {
      llvm::consumeError(extracted.takeError());
      continue;
    }
    for (TuningTask &task : *extracted) {
      auto it = wanted.find(task.workloadKey);
      if (it == wanted.end())
        continue;
      auto programs = loadPrograms(db, it->second, target, currentRun, context);
      if (!programs)
        return programs.takeError();
      wanted.erase(it);
      if (programs->empty())
        continue;
      workloads.push_back({std::move(task), std::move(*programs)});
    }
  }
  return workloads;
}
