//===- TuneOptions.cpp - Every knob of a tuning run -----------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Tuner/TuneOptions.h"
#include "tessel/Dialect/Tessel/IR/TesselAttrs.h"
#include "tessel/Tuning/Search/Task.h"
#include "tessel/Tuning/Tuner/StrategyRegistry.h"
#include "tessel/Tuning/Tuner/TaskScheduler.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdio>

using namespace mlir;
using namespace mlir::tessel;

/// "name=value is out of range: allowed".
static llvm::Error outOfRange(llvm::StringRef name, double value,
                              llvm::StringRef allowed) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return llvm::createStringError(
      llvm::formatv("{0}={1} is out of range: {2}", name, text, allowed));
}

llvm::Error TuneOptions::verify() const {
  llvm::StringRef device = measure;
  llvm::StringRef queue = measure;
  bool queued = queue.consume_front("queue:");
  if (queued && queue.empty())
    return llvm::createStringError(
        "measure=queue: needs the records database of the queue");
  if (queued && queueTarget.empty())
    return llvm::createStringError(
        "measure=queue:<db> needs queue-target=sim:<device> or "
        "cuda:<device>: the device whose workers measure");
  if (!queued && !queueTarget.empty())
    return llvm::createStringError("queue-target needs measure=queue:<db>");
  llvm::StringRef replay = measure;
  bool replayed = replay.consume_front("replay:");
  if (replayed && replay.empty())
    return llvm::createStringError(
        "measure=replay: needs the file of measurements to replay");
  if (!queued && !replayed && measure != "cuda" &&
      (!device.consume_front("sim:") || device.empty()))
    return llvm::createStringError("measure=" + measure +
                                   " is not cuda, sim:<device>, "
                                   "queue:<db> or replay:<file>");
  if (simFidelity != "compiled" && simFidelity != "analytic")
    return llvm::createStringError("sim-fidelity=" + simFidelity +
                                   " is not one of: compiled, analytic");
  if (checkCompiles && simFidelity != "analytic")
    return llvm::createStringError(
        "check-compiles needs sim-fidelity=analytic");
  bool simulated = queued ? llvm::StringRef(queueTarget).starts_with("sim:")
                          : measure != "cuda" && !replayed;
  if (simFidelity == "analytic" && !simulated)
    return llvm::createStringError(
        "sim-fidelity=analytic needs a sim:<device> measurer");
  if (!(simNoise >= 0))
    return outOfRange("sim-noise", simNoise, "at least 0");
  if (!(simTrialSeconds >= 0))
    return outOfRange("sim-trial-seconds", simTrialSeconds, "at least 0");
  if (simTrialSeconds > 0 && simFidelity != "analytic")
    return llvm::createStringError(
        "sim-trial-seconds needs sim-fidelity=analytic");
  if (!(cudaMinTimeMs > 0))
    return outOfRange("min-time-ms", cudaMinTimeMs, "more than 0");
  if (trials < 1)
    return outOfRange("trials", trials, "at least 1");
  if (startSamples < 0)
    return outOfRange("start-samples", startSamples, "at least 0");
  if (measuresPerRound < 0)
    return outOfRange("measures-per-round", measuresPerRound,
                      "at least 1 (0: the strategy's default)");
  if (!(timeLimit >= 0))
    return outOfRange("time-limit", timeLimit, "at least 0 (0: no limit)");
  if (!parseTaskEquality(taskEquality))
    return llvm::createStringError("task-equality=" + taskEquality +
                                   " is not one of: structural, "
                                   "ignore-float-constants");
  if (!parseTaskSchedulerKind(scheduler))
    return llvm::createStringError("scheduler=" + scheduler +
                                   " is not one of: gradient, gradient-share, "
                                   "round-robin");
  if (jobs < 0)
    return outOfRange("jobs", jobs, "at least 0 (0: all cores)");
  if (compileMemoryMiB < 0)
    return outOfRange("compile-memory-mib", compileMemoryMiB,
                      "at least 0 (0: no limit)");
  if (!(compileTimeout >= 0))
    return outOfRange("compile-timeout", compileTimeout,
                      "at least 0 (0: no limit)");
  if (maxStages < 1 || maxStages > kMaxPipelineStages)
    return outOfRange("max-stages", maxStages,
                      "between 1 and " + std::to_string(kMaxPipelineStages));
  auto specs = resolveStrategySpecs(strategy, costModel, features);
  if (!specs)
    return specs.takeError();
  return llvm::Error::success();
}

llvm::Error TuneOptions::resolve() {
  if (llvm::Error error = verify())
    return error;
  auto specs =
      llvm::cantFail(resolveStrategySpecs(strategy, costModel, features));
  strategy = specs.strategy;
  costModel = specs.costModel;
  features = specs.features;
  if (measuresPerRound == 0)
    measuresPerRound = specs.info->defaultMeasuresPerRound;
  return llvm::Error::success();
}

llvm::json::Object TuneOptions::toJSON() const {
  llvm::json::Object object{
      {"measure", measure},      {"sim_fidelity", simFidelity},
      {"sim_noise", simNoise},   {"sim_trial_seconds", simTrialSeconds},
      {"trials", trials},        {"measures_per_round", measuresPerRound},
      {"time_limit", timeLimit}, {"seed", static_cast<int64_t>(seed)},
      {"scheduler", scheduler},  {"strategy", strategy},
      {"cost_model", costModel}, {"features", features},
      {"resume", resume},        {"jobs", jobs},
      {"cuda_path", cudaPath},
  };
  // Only when set, so that the options of earlier runs read the same.
  if (maxStages != 1)
    object["max_stages"] = maxStages;
  if (!tensorCores)
    object["tensor_cores"] = false;
  if (!queueTarget.empty())
    object["queue_target"] = queueTarget;
  if (allowTf32)
    object["allow_tf32"] = true;
  if (checkCompiles)
    object["check_compiles"] = true;
  if (startSamples != 0)
    object["start_samples"] = startSamples;
  if (taskEquality != "structural")
    object["task_equality"] = taskEquality;
  if (cudaMinTimeMs != 100)
    object["cuda_min_time_ms"] = cudaMinTimeMs;
  if (compileMemoryMiB != 4096)
    object["compile_memory_mib"] = compileMemoryMiB;
  if (compileTimeout != 300)
    object["compile_timeout"] = compileTimeout;
  return object;
}

/// Reads the keys of `value` over `options`.
static llvm::Expected<TuneOptions> readOptions(const llvm::json::Value &value,
                                               TuneOptions options) {
  const llvm::json::Object *object = value.getAsObject();
  if (!object)
    return llvm::createStringError("tuning options: not a JSON object");
  auto wrongType = [](llvm::StringRef key, llvm::StringRef type) {
    return llvm::createStringError("tuning options: '" + key + "' is not " +
                                   type);
  };
  for (const auto &[key, field] : *object) {
    llvm::StringRef name = key;
    auto readString = [&](std::string &out) -> llvm::Error {
      if (std::optional<llvm::StringRef> s = field.getAsString()) {
        out = s->str();
        return llvm::Error::success();
      }
      return wrongType(name, "a string");
    };
    auto readNumber = [&](double &out) -> llvm::Error {
      if (std::optional<double> d = field.getAsNumber()) {
        out = *d;
        return llvm::Error::success();
      }
      return wrongType(name, "a number");
    };
    auto readInt = [&](int64_t &out) -> llvm::Error {
      if (std::optional<int64_t> i = field.getAsInteger()) {
        out = *i;
        return llvm::Error::success();
      }
      return wrongType(name, "an integer");
    };
    llvm::Error error = llvm::Error::success();
    int64_t seed = 0;
    if (name == "measure")
      error = readString(options.measure);
    else if (name == "sim_fidelity")
      error = readString(options.simFidelity);
    else if (name == "sim_noise")
      error = readNumber(options.simNoise);
    else if (name == "sim_trial_seconds")
      error = readNumber(options.simTrialSeconds);
    else if (name == "trials")
      error = readInt(options.trials);
    else if (name == "measures_per_round")
      error = readInt(options.measuresPerRound);
    else if (name == "time_limit")
      error = readNumber(options.timeLimit);
    else if (name == "seed") {
      error = readInt(seed);
      options.seed = static_cast<uint64_t>(seed);
    } else if (name == "scheduler")
      error = readString(options.scheduler);
    else if (name == "strategy")
      error = readString(options.strategy);
    else if (name == "cost_model")
      error = readString(options.costModel);
    else if (name == "features")
      error = readString(options.features);
    else if (name == "max_stages")
      error = readInt(options.maxStages);
    else if (name == "start_samples")
      error = readInt(options.startSamples);
    else if (name == "tensor_cores") {
      if (std::optional<bool> b = field.getAsBoolean())
        options.tensorCores = *b;
      else
        error = wrongType(name, "a boolean");
    } else if (name == "allow_tf32") {
      if (std::optional<bool> b = field.getAsBoolean())
        options.allowTf32 = *b;
      else
        error = wrongType(name, "a boolean");
    } else if (name == "check_compiles") {
      if (std::optional<bool> b = field.getAsBoolean())
        options.checkCompiles = *b;
      else
        error = wrongType(name, "a boolean");
    } else if (name == "resume") {
      if (std::optional<bool> b = field.getAsBoolean())
        options.resume = *b;
      else
        error = wrongType(name, "a boolean");
    } else if (name == "jobs")
      error = readInt(options.jobs);
    else if (name == "cuda_path")
      error = readString(options.cudaPath);
    else if (name == "task_equality")
      error = readString(options.taskEquality);
    else if (name == "cuda_min_time_ms")
      error = readNumber(options.cudaMinTimeMs);
    else if (name == "compile_memory_mib")
      error = readInt(options.compileMemoryMiB);
    else if (name == "compile_timeout")
      error = readNumber(options.compileTimeout);
    else
      error =
          llvm::createStringError("tuning options: unknown key '" + name + "'");
    if (error)
      return std::move(error);
  }
  return options;
}

llvm::Expected<TuneOptions>
TuneOptions::fromJSON(const llvm::json::Value &value) {
  TuneOptions options;
  // Options are stored with `max_stages` only when it is not 1: runs before
  // the default became 2 (session 29) stored none.
  options.maxStages = 1;
  // Likewise `start_samples` (0 before session 36).
  options.startSamples = 0;
  return readOptions(value, options);
}

llvm::Expected<TuneOptions>
TuneOptions::fromCallerJSON(const llvm::json::Value &value) {
  return readOptions(value, TuneOptions());
}
