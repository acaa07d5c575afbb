//===- Tessel.cpp - C API of Tessel ---------------------------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel-c/Tessel.h"

#include "tessel/Frontend/TextModule.h"
#include "tessel/InitAllDialects.h"
#include "tessel/Tuning/ApplyTuned/ApplyTuned.h"
#include "tessel/Tuning/Records/RecordsDatabase.h"
#include "tessel/Tuning/Search/Task.h"
#include "tessel/Tuning/Tuner/Tuner.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Pass/PassManager.h"


using namespace mlir;
using namespace mlir::tessel;

/// Emits `message` as an error on `module`'s location and returns failure.
static MlirLogicalResult fail(ModuleOp module, const llvm::Twine &message) {
  module.emitError(message);
  return mlirLogicalResultFailure();
}

static MlirLogicalResult fail(ModuleOp module, llvm::Error error) {
  return fail(module, llvm::toString(std::move(error)));
}

static MlirLogicalResult toResult(LogicalResult result) {
  return succeeded(result) ? mlirLogicalResultSuccess()
                           : mlirLogicalResultFailure();
}

/// Makes every dialect Tessel creates ops and attributes of available in
/// `module`'s context: a C caller's context loads dialects lazily, and may
/// not know which ones the tuner and the pipeline need.
static ModuleOp prepare(MlirModule cModule) {
  ModuleOp module = unwrap(cModule);
  loadTesselDialects(*module.getContext());
  return module;
}

void tesselRegisterAllDialects(MlirDialectRegistry registry) {
  tessel::registerAllDialects(*unwrap(registry));
}

void tesselRegisterAllPasses(void) { registerFrontendPasses(); }

/// Runs `pm` on `module`, with the context's diagnostics.
static MlirLogicalResult runOn(PassManager &pm, ModuleOp module) {
  return toResult(pm.run(module));
}

MlirLogicalResult tesselRunPassPipeline(MlirModule cModule,
                                        MlirStringRef pipeline) {
  ModuleOp module = prepare(cModule);
  llvm::Expected<OpPassManager> parsed =
      parseModulePassPipeline(unwrap(pipeline));
  if (!parsed)
    return fail(module, parsed.takeError());
  PassManager pm(module.getContext());
  static_cast<OpPassManager &>(pm) = std::move(*parsed);
  return runOn(pm, module);
}

MlirLogicalResult tesselExtractTasks(MlirModule cModule,
                                     TesselTaskCallback callback,
                                     void *userData) {
  ModuleOp module = prepare(cModule);
  auto tasks = tessel::extractTasks(module, module.getContext());
  if (!tasks)
    return fail(module, tasks.takeError());
  for (const TuningTask &task : *tasks) {
    TesselTask cTask = {wrap(StringRef(task.workloadKey)),
                        wrap(StringRef(task.opKind)),
                        wrap(StringRef(task.describe())),
                        task.flops,
                        task.weight,
                        task.fusedConsumers};
    callback(&cTask, userData);
  }
  return mlirLogicalResultSuccess();
}

/// The options of `json`; all defaults when it is empty.
static llvm::Expected<TuneOptions> parseTuneOptions(StringRef json) {
  if (json.trim().empty())
    return TuneOptions();
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(json);
  if (!value)
    return llvm::createStringError("tuning options: invalid JSON: " +
                                   llvm::toString(value.takeError()));
  return TuneOptions::fromCallerJSON(*value);
}

MlirLogicalResult tesselTune(MlirModule cModule, MlirStringRef optionsJson,
                             MlirStringRef dbPath,
                             TesselTuneProgressCallback progress,
                             void *userData, TesselTuneSummary *summary) {
  ModuleOp module = prepare(cModule);
  llvm::Expected<TuneOptions> options = parseTuneOptions(unwrap(optionsJson));
  if (!options)
    return fail(module, options.takeError());
  if (llvm::Error error = options->verify())
    return fail(module, std::move(error));
  auto db = RecordsDatabase::open(unwrap(dbPath),
                                  RecordsDatabase::OpenMode::CreateOrOpen);
  if (!db)
    return fail(module, db.takeError());

  TuneCallbacks callbacks;
  if (progress)
    callbacks.onRound = [&](const TuneProgress &p) {
      TesselTuneProgress cProgress = {static_cast<int64_t>(p.taskIndex),
                                      static_cast<int64_t>(p.taskCount),
                                      p.trials,
                                      p.budget,
                                      p.bestGflops,
                                      p.elapsedSeconds,
                                      p.simulated};
      progress(&cProgress, userData);
    };
  llvm::Expected<TuneResult> result = tune(module, *options, **db, callbacks);
  if (!result)
    return fail(module, result.takeError());
  if (summary) {
    TesselTuneSummary s = {};
    s.runId = result->runId;
    s.taskCount = static_cast<int64_t>(result->modelTaskCount);
    for (size_t i = 0; i < result->modelTaskCount; ++i) {
      const TaskResult &r = result->results[i];
      if (!r.best)
        continue;
      ++s.tunedTaskCount;
      s.weightedLatencyUs +=
          result->tasks[i].weight * r.best->result.timing.medianUs;
    }
    s.trials = result->trials;
    s.elapsedSeconds = result->elapsedSeconds;
    s.simulated = result->simulated;
    *summary = s;
  }
  return mlirLogicalResultSuccess();
}

MlirLogicalResult tesselApplyTuned(MlirModule cModule, MlirStringRef dbPath,
                                   MlirStringRef target) {
  ModuleOp module = prepare(cModule);
  PassManager pm(module->getName());
  pm.addPass(createTesselApplyTunedPass(unwrap(dbPath).str(),
                                        unwrap(target).str()));
  return runOn(pm, module);
}
