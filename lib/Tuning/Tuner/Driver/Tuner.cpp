//===- Tuner.cpp - Tune the kernels of a model ----------------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Tuner/Tuner.h"

#include "tessel/Dialect/Tessel/Transforms/Passes.h"
#include "tessel/Pipelines/Pipelines.h"
#include "tessel/Tuning/ApplyTuned/ApplyTuned.h"
#include "tessel/Tuning/Measure/MeasurerFactory.h"
#include "tessel/Tuning/Measure/Reference.h"
#include "tessel/Tuning/Queue/QueueMeasurer.h"
#include "tessel/Tuning/Records/RecordsDatabase.h"
#include "tessel/Tuning/Tuner/AnalyticCandidate.h"
#include "tessel/Tuning/Tuner/CandidateBuilder.h"
#include "tessel/Tuning/Tuner/Replay.h"
#include "tessel/Tuning/Tuner/StrategyRegistry.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>
#include <deque>
#include <limits>
#include <thread>

using namespace mlir;
using namespace mlir::tessel;

namespace {
/// One task being tuned.
struct TaskRun {
  TaskSearchState state;
  int64_t taskId = 0;
  std::shared_ptr<const ReferenceData> reference;
  TaskResult result;
  /// Trials measured outside the search (defaults, analytic starts).
  int64_t uncountedTrials = 0;

  double bestLatency() const {
    const Trial *best = state.getBest();
    return best ? best->result.timing.medianUs
                : std::numeric_limits<double>::infinity();
  }
};

/// A run in progress: the parts of tune() that outlive one step, and the
/// session its driver tunes through.
class Tuner : public TuningSession {
public:
  Tuner(const TuneOptions &options, RecordsDatabase &db,
        const TuneCallbacks &callbacks)
      : options(options), db(db), callbacks(callbacks) {}

  llvm::Expected<TuneResult> run(ModuleOp model,
                                 const TuneEnvironment &environment);

  // TuningSession.
  size_t getNumTasks() const override { return runs.size(); }
  TaskSearchState &getState(size_t task) override { return runs[task].state; }
  llvm::Expected<size_t> addTask(TuningTask task) override;
  std::vector<Trial> measure(size_t task,
                             ArrayRef<Candidate> candidates) override;
  int64_t getRemainingTrials() const override {
    if (stopRequested)
      return 0;
    if (outOfTime())
      return 0;
    return std::max<int64_t>(0, options.trials - result.trials);
  }
  int64_t getMeasuresPerRound() const override {
    return options.measuresPerRound;
  }
  void addSearchSeconds(double seconds) override {
    result.searchSeconds += seconds;
  }
  uint64_t getSeed() const override { return options.seed; }
  const DeviceDescription &getDevice() const override { return device; }
  RecordsDatabase &getDatabase() override { return db; }
  StringRef getTarget() const override { return result.target; }
  int64_t getRunId() const override { return result.runId; }
  void note(const llvm::Twine &text) override {
    if (callbacks.onNote)
      callbacks.onNote(text.str());
  }

private:
  bool outOfTime() const {
    return options.timeLimit > 0 && elapsed() >= options.timeLimit;
  }
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         started)
               .count() +
           chargedSeconds;
  }
  llvm::Error setUp(ModuleOp model, const TuneEnvironment &environment);
  llvm::Error addTasks();
  /// Builds, measures and records `candidates` of task `index`; counted
  /// trials get numbers.
  std::vector<Trial> measureBatch(size_t index, ArrayRef<Candidate> candidates,
                                  bool countTrials);
  /// Adds the run of `task` (its search state, records row and reference).
  llvm::Error addTaskRun(TuningTask &task, size_t index);
  /// Restores earlier measurements of the same target (resume).
  llvm::Error restore();
  /// Measures each task's default schedule once: the speedups' baseline.
  /// With TuneOptions::startSamples, also a task's analytic start
  /// (pickAnalyticStart) where there is one.
  void measureDefaults();
  /// A schedule of task `index` the analytic simulator predicts at least
  /// kAnalyticStartMargin times faster than `fallback` (the default), the
  /// best of TuneOptions::startSamples sampled ones; std::nullopt when none
  /// is. Measures nothing and leaves the search's random stream alone.
  std::optional<Candidate> pickAnalyticStart(size_t index,
                                             const Candidate *fallback);

  TuneOptions options;
  RecordsDatabase &db;
  const TuneCallbacks &callbacks;
  TuneResult result;
  /// Set when callbacks.shouldStop() said so: no trials remain.
  bool stopRequested = false;

  std::unique_ptr<Measurer> ownedMeasurer;
  Measurer *measurer = nullptr;
  DeviceDescription device;
  std::unique_ptr<CandidateBuilder> ownedBuilder;
  CandidateBuilder *builder = nullptr;
  std::unique_ptr<SearchDriver> driver;
  /// Per task (the model's, then added ones); a deque keeps references to
  /// the states valid when tasks are added.
  std::deque<TaskRun> runs;
  /// Tasks added by the driver (addTask), not part of the model.
  std::deque<TuningTask> addedTasks;
  /// Whether the reference outputs are computed (measured on a GPU).
  bool verify = false;
  /// The replayed measurements (--measure=replay:<file>), or null.
  std::shared_ptr<const ReplayDataset> replay;

  std::chrono::steady_clock::time_point started =
      std::chrono::steady_clock::now();
  /// Seconds of the virtual clock charged so far (simTrialSeconds).
  double chargedSeconds = 0;
};
} // namespace

llvm::Error Tuner::setUp(ModuleOp model, const TuneEnvironment &environment) {
  if (environment.measurer) {
    if (!environment.device)
      return llvm::createStringError(
          "a caller's measurer needs the caller's device description");
    measurer = environment.measurer;
    device = *environment.device;
  } else {
    MeasurerOptions measurerOptions;
    measurerOptions.seed = options.seed;
    measurerOptions.simNoise = options.simNoise;
    measurerOptions.cuda.minTimeMs = options.cudaMinTimeMs;
    llvm::Expected<CreatedMeasurer> created =
        [&]() -> llvm::Expected<CreatedMeasurer> {
      llvm::StringRef replayPath = options.measure;
      if (replayPath.consume_front("replay:")) {
        auto dataset = ReplayDataset::load(replayPath, model->getContext());
        if (!dataset)
          return dataset.takeError();
        llvm::json::Object driverFacts{{"name", (*dataset)->getDeviceName()}};
        auto replayed = findDeviceForDriver(driverFacts);
        if (!replayed)
          return replayed.takeError();
        CreatedMeasurer created;
        created.measurer = createReplayMeasurer(*dataset, *replayed);
        created.device = std::move(*replayed);
        replay = std::move(*dataset);
        return created;
      }
      llvm::StringRef queueDatabase = options.measure;
      if (!queueDatabase.consume_front("queue:"))
        return createMeasurer(options.measure, measurerOptions);
      QueueMeasurerOptions queueOptions;
      queueOptions.database = queueDatabase.str();
      queueOptions.target = options.queueTarget;
      queueOptions.seed = options.seed;
      queueOptions.onNote = [this](llvm::StringRef text) { note(text); };
      queueOptions.shouldGiveUp = [this] {
        return outOfTime() || (callbacks.shouldStop && callbacks.shouldStop());
      };
      return createQueueMeasurer(queueOptions);
    }();
    if (!created)
      return created.takeError();
    if (!created->device)
      return llvm::createStringError(created->deviceError);
    ownedMeasurer = std::move(created->measurer);
    measurer = ownedMeasurer.get();
    device = environment.device ? *environment.device : *created->device;
  }
  bool analytic = options.simFidelity == "analytic";
  if (analytic && !measurer->isSimulated())
    return llvm::createStringError(
        "sim-fidelity=analytic needs a sim:<device> measurer");
  // The target of the records: analytic timings are another model than
  // compiled ones, so they never mix on resume or apply-tuned.
  result.target = measurer->name() + (analytic ? ":analytic" : "");
  result.simulated = measurer->isSimulated();
  result.chip = device.chip;
  note("measuring on " + result.target +
       (result.simulated ? " (SIMULATED: a model of the GPU, not a measurement)"
                         : ""));
  if (replay)
    note("replaying " + std::to_string(replay->size()) +
         " schedules measured on " + replay->getDeviceName() + " (" +
         replay->getDates() + ", kernels of " + replay->getCodegen() +
         "); each task's search space is the schedules measured of it" +
         (replay->getSkippedRows()
              ? "; " + std::to_string(replay->getSkippedRows()) +
                    " rows skipped (no task key, or a schedule that does not "
                    "parse)"
              : std::string()));

  auto specs = resolveStrategySpecs(options.strategy, options.costModel,
                                    options.features);
  if (!specs)
    return specs.takeError();
  auto created =
      createSearchDriver(*specs, device, options.seed, options.scheduler);
  if (!created)
    return created.takeError();
  driver = std::move(*created);

  if (environment.builder) {
    builder = environment.builder;
  } else if (replay) {
    ownedBuilder = createReplayBuilder(replay);
    builder = ownedBuilder.get();
  } else {
    unsigned processes =
        options.jobs > 0 ? static_cast<unsigned>(options.jobs)
                         : std::max(1u, std::thread::hardware_concurrency());
    JobLimits limits;
    limits.memoryMiB = options.compileMemoryMiB;
    limits.timeoutSeconds = options.compileTimeout;
    auto compiling = [&] {
      return createCompilingBuilder(model->getContext()->getDialectRegistry(),
                                    device.chip, options.cudaPath, processes,
                                    limits);
    };
    if (!analytic)
      ownedBuilder = compiling();
    else if (options.checkCompiles)
      ownedBuilder = createCompileCheckedBuilder(createAnalyticBuilder(limits),
                                                 compiling());
    else
      ownedBuilder = createAnalyticBuilder(limits);
    builder = ownedBuilder.get();
  }
  result.compiled = builder->compiles();

  RunInfo runInfo;
  runInfo.strategy = specs->info->name;
  runInfo.seed = options.seed;
  runInfo.measurer = result.target;
  runInfo.simulated = result.simulated;
  runInfo.deviceJson = device.toJSON();
  llvm::raw_string_ostream optionsJson(runInfo.optionsJson);
  runInfo.optionsJson.clear();
  optionsJson << llvm::json::Value(options.toJSON());
  runInfo.modelSource = environment.modelSource;
  if (runInfo.modelSource.empty()) {
    llvm::raw_string_ostream os(runInfo.modelSource);
    model.print(os);
  }
  runInfo.tesselVersion = "0.1";
  auto runId = db.beginRun(runInfo);
  if (!runId)
    return runId.takeError();
  result.runId = *runId;
  return llvm::Error::success();
}

llvm::Error Tuner::addTaskRun(TuningTask &task, size_t index) {
  TaskRun &run = runs.emplace_back();
  run.state =
      TaskSearchState::create(task, device, options.seed * 1000003 + index,
                              options.maxStages);
  auto taskId = db.getOrAddTask(task.workloadKey, task.opKind, task.flops,
                                task.weight, task.describe());
  if (!taskId)
    return taskId.takeError();
  run.taskId = *taskId;
  if (replay) {
    size_t configs = restrictToReplayed(run.state, *replay);
    note("task " + task.describe() + ": " +
         (configs ? std::to_string(configs) + " measured schedules"
                  : std::string("no measured schedule in the replayed "
                                "dataset; not searched")));
  }
  if (verify) {
    auto reference =
        computeReference(*task.module, kTaskFunctionName, options.seed);
    if (!reference)
      return llvm::createStringError("task " + task.describe() + ": " +
                                     llvm::toString(reference.takeError()));
    run.reference = std::make_shared<ReferenceData>(std::move(*reference));
  }
  return llvm::Error::success();
}

llvm::Error Tuner::addTasks() {
  verify = !measurer->isSimulated() && builder->compiles();
  for (auto [index, task] : llvm::enumerate(result.tasks))
    if (llvm::Error error = addTaskRun(task, index))
      return error;
  return llvm::Error::success();
}

llvm::Expected<size_t> Tuner::addTask(TuningTask task) {
  TuningTask &added = addedTasks.emplace_back(std::move(task));
  size_t index = runs.size();
  if (llvm::Error error = addTaskRun(added, index)) {
    addedTasks.pop_back();
    if (runs.size() > index)
      runs.pop_back();
    return std::move(error);
  }
  return index;
}

/// The printed form of `attr`.
static std::string print(Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << attr;
  return text;
}

/// Reports a database error without stopping the run.
static void warn(llvm::Error error, const TuneCallbacks &callbacks) {
  std::string message = llvm::toString(std::move(error));
  if (callbacks.onNote)
    callbacks.onNote("error: " + message);
}

std::vector<Trial> Tuner::measureBatch(size_t index,
                                       ArrayRef<Candidate> candidates,
                                       bool countTrials) {
  TaskRun &run = runs[index];
  std::vector<Trial> out(candidates.size());
  std::vector<MeasureCandidate> toMeasure;
  std::vector<size_t> measuredIndex;
  std::vector<BuiltCandidate> built =
      builder->build(run.state, candidates, run.reference);
  for (auto [i, b] : llvm::enumerate(built)) {
    out[i].candidate = candidates[i];
    if (!b.candidate) {
      out[i].result.key = candidates[i].getKey();
      out[i].result.status = MeasureStatus::CompileError;
      out[i].result.message = std::move(b.error);
      out[i].result.simulated = measurer->isSimulated();
      continue;
    }
    toMeasure.push_back(std::move(*b.candidate));
    measuredIndex.push_back(i);
  }
  std::vector<MeasureResult> measured = measurer->measure(toMeasure);
  for (auto [i, r] : llvm::enumerate(measured))
    out[measuredIndex[i]].result = std::move(r);
  // Withdrawn candidates were never measured: not recorded, not counted.
  llvm::erase_if(out,
                 [](const Trial &trial) { return trial.result.withdrawn; });
  for (Trial &trial : out) {
    trial.result.device = result.target;
    chargedSeconds += options.simTrialSeconds;
    if (trial.result.isOk() && trial.result.timing.medianUs > 0)
      trial.gflops = run.state.task->flops / trial.result.timing.medianUs / 1e3;
    int64_t number = countTrials ? ++result.trials : 0;
    auto sketchId =
        db.getOrAddSketch(run.taskId, print(trial.candidate.sketch));
    if (!sketchId) {
      warn(sketchId.takeError(), callbacks);
      continue;
    }
    auto configId = db.getOrAddConfig(*sketchId, print(trial.candidate.config));
    if (!configId) {
      warn(configId.takeError(), callbacks);
      continue;
    }
    if (auto added = db.addMeasurement(result.runId, *configId, trial.result,
                                       number, elapsed());
        !added)
      warn(added.takeError(), callbacks);
    if (callbacks.onTrial)
      callbacks.onTrial(TrialEvent{index, trial, number});
  }
  return out;
}

llvm::Error Tuner::restore() {
  MLIRContext *context = result.tasks.front().module->getContext();
  for (auto [index, run] : llvm::enumerate(runs)) {
    auto records = db.getMeasurements(run.taskId, result.target);
    if (!records)
      return records.takeError();
    std::vector<Trial> restored;
    for (const MeasurementRecord &record : *records) {
      auto sketch =
          dyn_cast_or_null<SketchAttr>(parseAttribute(record.sketch, context));
      auto config =
          dyn_cast_or_null<ConfigAttr>(parseAttribute(record.config, context));
      if (!sketch || !config)
        continue;
      Trial trial;
      trial.candidate.sketch = sketch;
      trial.candidate.config = config;
      for (auto [index, space] : llvm::enumerate(run.state.spaces))
        if (space.getSketch() == sketch)
          trial.candidate.space = index;
      trial.result.status = record.status;
      trial.result.timing = record.timing;
      if (trial.result.isOk() && record.timing.medianUs > 0)
        trial.gflops = run.state.task->flops / record.timing.medianUs / 1e3;
      if (record.trial > 0)
        ++result.trials;
      else
        ++run.uncountedTrials;
      run.state.record(trial);
      restored.push_back(trial);
    }
    if (!restored.empty())
      driver->observe(*this, index, restored);
  }
  note(llvm::formatv("resumed {0} measured trials from {1}", result.trials,
                     db.getPath()));
  return llvm::Error::success();
}

void Tuner::measureDefaults() {
  std::vector<std::optional<Candidate>> defaults(runs.size());
  // Tasks whose default a resumed run measured: their start was decided then.
  std::vector<bool> resumed(runs.size(), false);
  std::vector<TaskCandidate> toBuild;
  for (auto [index, run] : llvm::enumerate(runs)) {
    std::optional<Candidate> &fallback = defaults[index];
    fallback = getDefaultCandidate(*run.state.task);
    if (!fallback)
      continue;
    for (auto [i, space] : llvm::enumerate(run.state.spaces))
      if (space.getSketch() == fallback->sketch)
        fallback->space = i;
    // Measured before (a resumed run): never twice.
    auto key = fallback->getId();
    for (const Trial &trial : run.state.trials)
      if (trial.candidate.getId() == key && trial.result.isOk())
        run.result.defaultLatencyUs = trial.result.timing.medianUs;
    if (run.state.seen.contains(key)) {
      fallback.reset();
      resumed[index] = true;
    } else
      toBuild.push_back({run.state.task, &*fallback});
  }
  // A task whose default the analytic simulator predicts far slower than
  // a sampled schedule also measures that one before the search, so a task
  // the budget never reaches keeps the better of the two (issue 51).
  std::vector<std::optional<Candidate>> starts(runs.size());
  size_t started = 0;
  if (options.startSamples > 0) {
    for (auto [index, run] : llvm::enumerate(runs)) {
      if (resumed[index])
        continue;
      starts[index] = pickAnalyticStart(
          index, defaults[index] ? &*defaults[index] : nullptr);
      if (starts[index]) {
        toBuild.push_back({run.state.task, &*starts[index]});
        ++started;
      }
    }
    if (started)
      note(llvm::formatv("{0} task(s) also measure an analytic start: a "
                         "sampled schedule the simulator predicts at least "
                         "{1}x faster than the default",
                         started, kAnalyticStartMargin));
  }
  // Every task's default compiles at once, on every core; measured below
  // one task at a time as before.
  builder->prepare(toBuild);
  for (auto [index, run] : llvm::enumerate(runs)) {
    std::optional<Candidate> &fallback = defaults[index];
    SmallVector<Candidate, 2> batch;
    if (fallback)
      batch.push_back(*fallback);
    if (starts[index])
      batch.push_back(*starts[index]);
    if (batch.empty())
      continue;
    std::vector<Trial> baseline = measureBatch(index, batch, false);
    run.uncountedTrials += baseline.size();
    for (Trial &trial : baseline) {
      if (fallback && trial.candidate.getId() == fallback->getId() &&
          trial.result.isOk())
        run.result.defaultLatencyUs = trial.result.timing.medianUs;
      run.state.record(trial);
    }
    driver->observe(*this, index, baseline);
  }
}

std::optional<Candidate> Tuner::pickAnalyticStart(size_t index,
                                                  const Candidate *fallback) {
  // Its own random stream: the search draws what it drew without it.
  RandomEngine rng(options.seed * 1000003 + index + 0x5eed);
  // The simulator's top pick has measured up to 3.44x the measured best
  // (docs/SimulatedGpu.md): a smaller predicted gain could be its error.
  return pickAnalyticSchedule(runs[index].state, fallback, device,
                              options.startSamples, rng, options.seed,
                              kAnalyticStartMargin);
}

std::vector<Trial> Tuner::measure(size_t index,
                                  ArrayRef<Candidate> candidates) {
  TaskRun &run = runs[index];
  auto measureStart = std::chrono::steady_clock::now();
  std::vector<Trial> trials = measureBatch(index, candidates, true);
  result.compileMeasureSeconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                    measureStart)
          .count();
  double before = run.bestLatency();
  for (Trial &trial : trials)
    run.state.record(trial);
  const Trial *best = run.state.getBest();
  if (best && (run.bestLatency() < before || run.result.curve.empty()))
    run.result.curve.push_back({result.trials, elapsed(), best->gflops});
  if (callbacks.onRound)
    callbacks.onRound(TuneProgress{index, runs.size(), result.trials,
                                   options.trials, best ? best->gflops : 0.0,
                                   elapsed(), result.simulated});
  if (callbacks.shouldStop && callbacks.shouldStop())
    stopRequested = true;
  return trials;
}

llvm::Expected<TuneResult> Tuner::run(ModuleOp model,
                                      const TuneEnvironment &environment) {
  if (llvm::Error error = options.resolve())
    return std::move(error);
  result.options = options;
  TaskExtractionOptions extraction;
  extraction.includeTensorCore = options.tensorCores;
  extraction.includeTf32 = options.allowTf32;
  extraction.equality = *parseTaskEquality(options.taskEquality);
  std::vector<UntunableOp> untunable;
  extraction.untunable = &untunable;
  auto tasks = extractTasks(model, model->getContext(), extraction);
  if (!tasks)
    return tasks.takeError();
  // Without any task the run fails, and the ops left out are its errors;
  // otherwise the tuner goes on and warns that the model will not compile.
  emitUntunableOps(untunable, tasks->empty() ? DiagnosticSeverity::Error
                                             : DiagnosticSeverity::Warning);
  if (tasks->empty())
    return llvm::createStringError("the model has no tunable op");
  result.tasks = std::move(*tasks);
  if (llvm::Error error = setUp(model, environment))
    return std::move(error);
  std::string hint = getTaskEqualityHint(result.tasks);
  if (!hint.empty())
    note("note: " + hint);
  if (llvm::Error error = addTasks())
    return std::move(error);
  if (options.resume)
    if (llvm::Error error = restore())
      return std::move(error);
  measureDefaults();
  if (llvm::Error error = driver->run(*this))
    return std::move(error);

  for (TaskRun &run : runs) {
    if (const Trial *best = run.state.getBest())
      run.result.best = *best;
    run.result.trials = run.state.trials.size();
    run.result.searchTrials = run.result.trials - run.uncountedTrials;
    result.results.push_back(std::move(run.result));
  }
  for (TuningTask &task : addedTasks)
    result.tasks.push_back(std::move(task));
  result.modelTaskCount = result.tasks.size() - addedTasks.size();
  result.elapsedSeconds = elapsed();
  result.virtualSeconds = chargedSeconds;
  result.compiledCount = builder->getCompiledCount();
  return std::move(result);
}

std::string TuneProgress::str() const {
  double rate = trials / std::max(elapsedSeconds, 1e-9);
  return llvm::formatv("task {0}/{1} trials {2}/{3} best {4:F1} GFLOP/s{5} "
                       "elapsed {6:F0} s ETA {7:F0} s",
                       taskIndex, taskCount, trials, budget, bestGflops,
                       simulated ? " (simulated)" : "", elapsedSeconds,
                       (budget - trials) / std::max(rate, 1e-9));
}

llvm::Expected<TuneResult> tessel::tune(ModuleOp model,
                                        const TuneOptions &options,
                                        RecordsDatabase &db,
                                        const TuneCallbacks &callbacks,
                                        const TuneEnvironment &environment) {
  Tuner tuner(options, db, callbacks);
  return tuner.run(model, environment);
}

double TuneResult::getWeightedLatencyUs() const {
  double total = 0;
  for (auto [index, task, r] : llvm::enumerate(tasks, results)) {
    if (index >= modelTaskCount)
      continue;
    if (!r.best)
      return 0;
    total += static_cast<double>(task.weight) * r.best->result.timing.medianUs;
  }
  return total;
}

void TuneResult::printSummary(llvm::raw_ostream &os) const {
  // Each task's share of the model's weighted time under the default
  // schedules (start) and the best ones (end); "-" where a task of the
  // model has no time.
  double startTotal = 0, endTotal = getWeightedLatencyUs();
  for (auto [index, task, r] : llvm::enumerate(tasks, results)) {
    if (index >= modelTaskCount)
      continue;
    if (r.defaultLatencyUs <= 0) {
      startTotal = 0;
      break;
    }
    startTotal += static_cast<double>(task.weight) * r.defaultLatencyUs;
  }
  auto share = [](double part, double total) {
    return total > 0 ? llvm::formatv("{0:F1}", 100 * part / total).str()
                     : std::string("-");
  };
  os << llvm::formatv("{0,4} {1,6} {2,12} {3,10} {4,7} {5,8} {6,7} {7,7}  "
                      "{8}\n",
                      "task", "weight", "latency us", "GFLOP/s", "trials",
                      "speedup", "start %", "end %", "kernel");
  std::vector<size_t> unsearched;
  double unsearchedUs = 0;
  for (auto [index, task, r] : llvm::enumerate(tasks, results)) {
    // A task without a working schedule has no latency: "-", not 0.
    std::string latency = "-", gflops = "-", speedup = "-";
    if (r.best) {
      double us = r.best->result.timing.medianUs;
      latency = llvm::formatv("{0:F2}", us).str();
      gflops = llvm::formatv("{0:F1}", r.best->gflops).str();
      // No default measured (it failed, or a replayed dataset lacks it).
      if (r.defaultLatencyUs > 0)
        speedup = llvm::formatv("{0:F2}", r.defaultLatencyUs / us).str();
    }
    std::string start = "-", end = "-";
    if (index < modelTaskCount) {
      double weight = static_cast<double>(task.weight);
      start = share(weight * r.defaultLatencyUs, startTotal);
      if (r.best)
        end = share(weight * r.best->result.timing.medianUs, endTotal);
      // Only its default (and analytic start) measured: the search never
      // reached it.
      if (r.searchTrials == 0) {
        unsearched.push_back(index);
        if (r.best)
          unsearchedUs += weight * r.best->result.timing.medianUs;
      }
    }
    os << llvm::formatv("{0,4} {1,6} {2,12} {3,10} {4,7} {5,8} {6,7} {7,7}  "
                        "{8}\n",
                        index, task.weight, latency, gflops, r.trials, speedup,
                        start, end,
                        (index < modelTaskCount ? "" : "(not in the model) ") +
                            task.describe());
  }
  if (!unsearched.empty()) {
    os << (unsearched.size() == 1 ? "never searched: task "
                                   : "never searched: tasks ");
    llvm::interleave(unsearched, os, ", ");
    if (endTotal > 0)
      os << " (" << share(unsearchedUs, endTotal) << "% of the model's time)";
    os << "\n";
  }
  std::string built =
      llvm::StringRef(target).starts_with("replay:")
          ? std::string("replayed, none compiled")
      : compiled
          ? llvm::formatv("{0} compiled", compiledCount).str()
          : llvm::formatv("analytic, {0} compiled; virtual clock {1:F1} s",
                          compiledCount ? llvm::formatv("{0} checked by being",
                                                        compiledCount)
                                              .str()
                                        : std::string("none"),
                          virtualSeconds)
                .str();
  if (double weighted = getWeightedLatencyUs(); weighted > 0)
    os << llvm::formatv("model: weighted latency {0:F2} us{1} over {2} "
                        "task(s)\n",
                        weighted, simulated ? " (SIMULATED)" : "",
                        modelTaskCount);
  os << llvm::formatv(
      "{0} trials in {1:F1} s on {2}{3}; search {4:F1} s, compile+measure "
      "{5:F1} s ({6})\n",
      trials, elapsedSeconds, target, simulated ? " (simulated)" : "",
      searchSeconds, compileMeasureSeconds, built);
}

llvm::json::Object TuneResult::toJSON(llvm::StringRef model) const {
  llvm::json::Array taskReports;
  for (auto [index, task, taskResult] : llvm::enumerate(tasks, results)) {
    const std::optional<Trial> &best = taskResult.best;
    llvm::json::Array curve;
    for (const TaskResult::CurvePoint &point : taskResult.curve)
      curve.push_back(llvm::json::Object{{"trial", point.trial},
                                         {"elapsed_s", point.elapsedSeconds},
                                         {"best_gflops", point.bestGflops}});
    llvm::json::Object report{
        {"key", task.workloadKey},
        {"description", task.describe()},
        {"weight", task.weight},
        {"flops", task.flops},
        {"trials", taskResult.trials},
        {"search_trials", taskResult.searchTrials},
        {"best_latency_us",
         best ? llvm::json::Value(best->result.timing.medianUs) : nullptr},
        {"best_gflops", best ? llvm::json::Value(best->gflops) : nullptr},
        {"default_latency_us",
         taskResult.defaultLatencyUs > 0
             ? llvm::json::Value(taskResult.defaultLatencyUs)
             : nullptr},
        {"curve", std::move(curve)}};
    if (index >= modelTaskCount)
      report["in_model"] = false;
    if (best)
      report["best_sketch"] = best->candidate.getKey();
    taskReports.push_back(std::move(report));
  }
  return llvm::json::Object{
      {"tessel_tune_report_version", 2},
      {"model", model},
      {"run_id", runId},
      {"measurer", target},
      {"sim_fidelity", simulated ? options.simFidelity : std::string()},
      {"sim_trial_seconds", options.simTrialSeconds},
      {"simulated", simulated},
      {"strategy", splitSpec(options.strategy).first},
      {"seed", static_cast<int64_t>(options.seed)},
      {"options", options.toJSON()},
      {"trials", trials},
      {"elapsed_s", elapsedSeconds},
      {"search_s", searchSeconds},
      {"compile_measure_s", compileMeasureSeconds},
      {"weighted_latency_us", getWeightedLatencyUs()},
      {"tasks", std::move(taskReports)}};
}

llvm::Error tessel::emitTunedModel(ModuleOp model, TuneResult &result,
                                   llvm::StringRef dbPath,
                                   llvm::StringRef dir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError("cannot create '" + dir +
                                   "': " + ec.message());
  auto write = [&](llvm::StringRef name, ModuleOp module) -> llvm::Error {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, name);
    std::string error;
    auto output = openOutputFile(path, &error);
    if (!output)
      return llvm::createStringError(error);
    module.print(output->os());
    output->keep();
    return llvm::Error::success();
  };
  MLIRContext *context = model->getContext();
  // Per task: the best schedule as an upstream transform script that stock
  // mlir-opt --transform-interpreter replays.
  for (auto [index, task, taskResult] :
       llvm::enumerate(result.tasks, result.results)) {
    if (!taskResult.best)
      continue;
    OwningOpRef<ModuleOp> module =
        applySchedule(task, taskResult.best->candidate.sketch,
                      taskResult.best->candidate.config);
    PassManager pm(context);
    TesselEmitTransformScriptOptions emit;
    emit.allowTf32 = result.options.allowTf32;
    pm.addPass(createTesselEmitTransformScript(emit));
    if (failed(pm.run(*module)))
      return llvm::createStringError("cannot emit the schedule of task " +
                                     std::to_string(index));
    if (llvm::Error error = write(
            llvm::formatv("task{0}.transform.mlir", index).str(), *module))
      return error;
  }
  // The model with the best records applied, compiled.
  OwningOpRef<ModuleOp> compiled(cast<ModuleOp>(model->clone()));
  PassManager pm(context);
  pm.addPass(createTesselApplyTunedPass(dbPath.str(), result.target));
  const std::string &cudaPath = result.options.cudaPath;
  auto pipeline = TesselToCudaOptions::createFromString(
      "chip=" + result.chip + " format=bin" +
      (result.options.allowTf32 ? " allow-tf32=true" : "") +
      (cudaPath.empty() ? std::string() : " cuda-path=" + cudaPath));
  // The remarks of apply-tuned (one per op) are not news here.
  ScopedDiagnosticHandler silenceRemarks(context, [](Diagnostic &d) {
    return success(d.getSeverity() == DiagnosticSeverity::Remark);
  });
  if (!pipeline || failed(buildTesselToCudaPipeline(pm, *pipeline)) ||
      failed(pm.run(*compiled)))
    return llvm::createStringError("cannot compile the tuned model into '" +
                                   dir + "'");
  return write("model.cubin.mlir", *compiled);
}

llvm::Expected<TuneResult> tessel::rerun(MLIRContext *context,
                                         RecordsDatabase &db, int64_t runId,
                                         const TuneCallbacks &callbacks) {
  auto run = db.getRun(runId);
  if (!run)
    return run.takeError();
  auto json = llvm::json::parse(run->optionsJson);
  if (!json)
    return llvm::createStringError(
        llvm::formatv("run {0}: its options are not JSON: {1}", runId,
                      llvm::toString(json.takeError())));
  auto options = TuneOptions::fromJSON(*json);
  if (!options)
    return llvm::createStringError(
        llvm::formatv("run {0} cannot be repeated (recorded before its "
                      "options were stored in full?): {1}",
                      runId, llvm::toString(options.takeError())));
  if (run->modelSource.empty())
    return llvm::createStringError(llvm::formatv(
        "run {0} has no stored model (recorded before schema version 2)",
        runId));
  options->resume = false;
  std::string diagnostics;
  OwningOpRef<ModuleOp> model;
  {
    ScopedDiagnosticHandler capture(context, [&](Diagnostic &d) {
      if (diagnostics.empty())
        diagnostics = d.str();
      return success();
    });
    model = parseSourceString<ModuleOp>(run->modelSource, context);
  }
  if (!model)
    return llvm::createStringError(llvm::formatv(
        "run {0}: its stored model does not parse: {1}", runId, diagnostics));
  TuneEnvironment environment;
  environment.modelSource = run->modelSource;
  return tune(*model, *options, db, callbacks, environment);
}
