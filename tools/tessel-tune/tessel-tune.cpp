//===- tessel-tune.cpp - Tune the kernels of a model ----------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
//   tessel-tune model.mlir --list-tasks
//   tessel-tune model.mlir --measure=sim:h100 --strategy=evolutionary
//               --trials=1000 --db=model.db [--resume] [--time-limit=S]
//               [--seed=N] [--report=FILE.json] [-j N]
//
// Extracts the tasks of the model, splits the trial budget over them with
// Ansor's task scheduler, lets the strategy propose schedules, compiles them
// in parallel, measures them, and commits every measurement to the records
// database as it arrives.
//
//===----------------------------------------------------------------------===//

#include "PrunerFlags.h"

#include "tessel/Dialect/Tessel/Transforms/Passes.h"
#include "tessel/InitAllDialects.h"
#include "tessel/InitAllPasses.h"
#include "tessel/Pipelines/Pipelines.h"
#include "tessel/Tuning/ApplyTuned/ApplyTuned.h"
#include "tessel/Tuning/Device.h"
#include "tessel/Tuning/JsonFile.h"
#include "tessel/Tuning/Measure/CudaMeasurer.h"
#include "tessel/Tuning/Measure/Reference.h"
#include "tessel/Tuning/Measure/SimulatedMeasurer.h"
#include "tessel/Tuning/ModelFile.h"
#include "tessel/Tuning/Records/RecordsDatabase.h"
#include "tessel/Tuning/Search/Task.h"
#include "tessel/Tuning/Tuner/AnalyticCandidate.h"
#include "tessel/Tuning/Tuner/CandidateCompiler.h"
#include "tessel/Tuning/Tuner/Strategy.h"
#include "tessel/Tuning/Tuner/TaskScheduler.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>
#include <csignal>
#include <cmath>
#include <cstdio>
#include <thread>
#include <unistd.h>

using namespace mlir;
using namespace mlir::tessel;
namespace cl = llvm::cl;

static cl::OptionCategory toolCategory("tessel-tune options");

static cl::opt<std::string> inputFile(cl::Positional, cl::Optional,
                                      cl::desc("<model .mlir>"),
                                      cl::cat(toolCategory));
static cl::opt<bool> listTasks("list-tasks",
                               cl::desc("Print the tasks and exit"),
                               cl::cat(toolCategory));
static cl::opt<std::string>
    measureOption("measure", cl::init("sim:h100"),
                  cl::desc("cuda, or sim:<device> (simulated)"),
                  cl::cat(toolCategory));
static cl::opt<std::string>
    strategyName("strategy", cl::init("evolutionary"),
                 cl::desc("evolutionary, dgd, psa or random"),
                 cl::cat(toolCategory));
static cl::opt<int> trials("trials", cl::init(1000),
                           cl::desc("Measurements in all"),
                           cl::cat(toolCategory));
static cl::opt<std::string> dbPath("db", cl::init("tessel-records.db"),
                                   cl::desc("Records database (SQLite)"),
                                   cl::cat(toolCategory));
static cl::opt<bool> resume("resume",
                            cl::desc("Continue from the records of --db"),
                            cl::cat(toolCategory));
static cl::opt<double> timeLimit("time-limit", cl::init(0),
                                 cl::desc("Stop after this many seconds"),
                                 cl::cat(toolCategory));
static cl::opt<uint64_t> seed("seed", cl::init(0), cl::desc("Seed"),
                              cl::cat(toolCategory));
static cl::opt<std::string> reportFile("report",
                                       cl::desc("Write a JSON report here"),
                                       cl::cat(toolCategory));
static cl::opt<unsigned> jobs("j", cl::init(0),
                              cl::desc("Compile threads (default: all cores)"),
                              cl::cat(toolCategory));
static cl::opt<int> perRound("measures-per-round", cl::init(64),
                             cl::desc("Candidates measured per round"),
                             cl::cat(toolCategory));
static cl::opt<std::string> schedulerName("scheduler", cl::init("gradient"),
                                          cl::desc("gradient or round-robin"),
                                          cl::cat(toolCategory));
static cl::opt<int> population("population", cl::init(2048),
                               cl::desc("Evolutionary population size"),
                               cl::cat(toolCategory));
static cl::opt<int> generations("generations", cl::init(4),
                                cl::desc("Evolutionary generations"),
                                cl::cat(toolCategory));
static cl::opt<double> tileMutationWeight(
    "tile-mutation-weight", cl::init(0.9),
    cl::desc("Evolutionary: chance that a mutation changes tile sizes rather "
             "than the unroll knob (TVM: 0.9)"),
    cl::cat(toolCategory));
static cl::opt<double> epsilonGreedy(
    "epsilon-greedy", cl::init(0.05),
    cl::desc("Evolutionary: share of each batch drawn at random instead of "
             "by the model (Ansor: 0.05)"),
    cl::cat(toolCategory));
static cl::opt<double> diversityRatio(
    "diversity-filter", cl::init(0),
    cl::desc("Evolutionary: pick the model's part of a batch for knob "
             "diversity among this many times its size best candidates "
             "(AutoTVM's diversity filter; 0: off, Ansor)"),
    cl::cat(toolCategory));
static cl::opt<std::string> costModelName("cost-model", cl::init("xgboost"),
                                          cl::desc("xgboost or random"),
                                          cl::cat(toolCategory));
static cl::opt<std::string>
    treeMethod("xgb-tree-method", cl::init("hist"),
               cl::desc("XGBoost tree_method: hist (default), exact (TVM's "
                        "effective choice) or approx"),
               cl::cat(toolCategory));
static cl::opt<std::string> featuresName("features", cl::init("ansor"),
                                         cl::desc("Feature set"),
                                         cl::cat(toolCategory));
// The variants of ICS'24 (docs/Dgd.md): a strategy and a feature set.
static cl::opt<std::string> variant(
    "variant", cl::init(""),
    cl::desc("ansor (evolutionary+ansor), ansor-af (evolutionary+af), "
             "ansor-ds (dgd+ansor) or ansor-af-ds (dgd+af); sets --strategy "
             "and --features"),
    cl::cat(toolCategory));
// DGD knobs (DgdOptions, docs/Dgd.md).
static DgdOptions kDgdDefaults;
static cl::opt<int> dgdInitialSamples(
    "dgd-initial-samples", cl::init(kDgdDefaults.initialSamples),
    cl::desc("DGD: random samples that seed the model"), cl::cat(toolCategory));
static cl::opt<int> dgdWindow("dgd-window", cl::init(kDgdDefaults.window),
                              cl::desc("DGD: candidates measured per window"),
                              cl::cat(toolCategory));
static cl::opt<double> dgdScoreRatio(
    "dgd-score-ratio", cl::init(kDgdDefaults.scoreRatio),
    cl::desc("DGD: early stop under this fraction of the top score"),
    cl::cat(toolCategory));
static cl::opt<double> dgdMeasureRatio(
    "dgd-measure-ratio", cl::init(kDgdDefaults.measureRatio),
    cl::desc("DGD: early stop under this fraction of the best measurement"),
    cl::cat(toolCategory));
static cl::opt<int> dgdMaxHops("dgd-max-hops", cl::init(kDgdDefaults.maxHops),
                               cl::desc("DGD: largest hop radius"),
                               cl::cat(toolCategory));
static cl::opt<std::string> dgdScoreStop(
    "dgd-score-stop", cl::init(kDgdDefaults.scoreStop),
    cl::desc("DGD: prefix (measure the window's candidates above the score "
             "threshold) or all (stop if any is under it)"),
    cl::cat(toolCategory));
static cl::opt<std::string> dgdBestMeasured(
    "dgd-best-measured", cl::init(kDgdDefaults.bestMeasured),
    cl::desc("DGD: running (best so far) or window (last window's best)"),
    cl::cat(toolCategory));
static cl::opt<std::string> dgdStart(
    "dgd-start", cl::init(kDgdDefaults.start),
    cl::desc("DGD: random (new random point) or best (best unused measured "
             "point) at each start"),
    cl::cat(toolCategory));
static cl::opt<std::string> dgdRetrain(
    "dgd-retrain", cl::init(kDgdDefaults.retrain),
    cl::desc("DGD: move (after each move and local optimum) or window"),
    cl::cat(toolCategory));
static cl::opt<int64_t> dgdBudget(
    "dgd-budget", cl::init(kDgdDefaults.budget),
    cl::desc("DGD: measurements per task, 0 for no limit beyond --trials"),
    cl::cat(toolCategory));
static cl::opt<bool> dgdInitialCount(
    "dgd-initial-count", cl::init(kDgdDefaults.initialCount),
    cl::desc("DGD: the initial samples count toward --dgd-budget"),
    cl::cat(toolCategory));
static cl::opt<int64_t>
    dgdMaxStarts("dgd-max-starts", cl::init(kDgdDefaults.maxStarts),
                 cl::desc("DGD: descents before stopping, 0 for no limit"),
                 cl::cat(toolCategory));
static cl::opt<double>
    dgdTimeLimit("dgd-time-limit", cl::init(kDgdDefaults.timeLimit),
                 cl::desc("DGD: seconds of search, 0 for no limit"),
                 cl::cat(toolCategory));
static cl::opt<std::string> dgdVectorWidths(
    "dgd-vector-widths", cl::init(kDgdDefaults.vectorWidths),
    cl::desc("DGD: keep (the width hopped from, narrowed to fit) or widest "
             "(the widest width that fits) after each hop"),
    cl::cat(toolCategory));
static cl::opt<bool> dgdHopUnroll("dgd-hop-unroll",
                                  cl::init(kDgdDefaults.hopUnroll),
                                  cl::desc("DGD: hop the auto-unroll knob too"),
                                  cl::cat(toolCategory));
static cl::opt<double> simNoise("sim-noise", cl::init(0.02),
                                cl::desc("Simulated measurement noise"),
                                cl::cat(toolCategory));
static cl::opt<std::string> simFidelityOption(
    "sim-fidelity", cl::init("compiled"),
    cl::desc("Under sim:<device>: compiled (compile each candidate, time it "
             "with ptxas's resources) or analytic (time the schedule from its "
             "facts, without compiling)"),
    cl::cat(toolCategory));
static cl::opt<double> simTrialSeconds(
    "sim-trial-seconds", cl::init(0),
    cl::desc("Under --sim-fidelity=analytic: seconds of a virtual clock "
             "charged per measured candidate, added to the elapsed time "
             "(records, curves, --time-limit)"),
    cl::cat(toolCategory));
static cl::opt<std::string> cudaPath("cuda-path", cl::init(""),
                                     cl::desc("CUDA toolkit (ptxas)"),
                                     cl::cat(toolCategory));
static cl::opt<bool> quiet("quiet", cl::desc("No progress lines"),
                           cl::cat(toolCategory));
static cl::opt<std::string>
    exportFile("export",
               cl::desc("Write the records of --db as JSON lines "
                        "to this file ('-' for stdout) and exit"),
               cl::cat(toolCategory));
static cl::opt<std::string>
    importFile("import",
               cl::desc("Add the JSON-lines records of this file "
                        "to --db and exit"),
               cl::cat(toolCategory));
static cl::opt<std::string>
    emitDir("emit",
            cl::desc("Write, per task, the best schedule as a module with an "
                     "upstream transform script, and the whole model compiled "
                     "with the best schedules, to this directory"),
            cl::cat(toolCategory));
static cl::opt<int> crashAfterTrials(
    "crash-after-trials", cl::init(0), cl::Hidden,
    cl::desc("Testing: SIGKILL this process after N committed trials"),
    cl::cat(toolCategory));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "tessel-tune: " << message << "\n";
  return 1;
}

namespace {
/// One task being tuned.
struct TaskRun {
  TuningTask *task;
  TaskSearchState state;
  int64_t taskId = 0;
  double defaultLatencyUs = 0;
  std::shared_ptr<const ReferenceData> reference;
  /// (trial, elapsed, best GFLOP/s) after each improvement.
  std::vector<std::tuple<int64_t, double, double>> curve;
  double bestLatency() const {
    const Trial *best = state.getBest();
    return best ? best->result.timing.medianUs
                : std::numeric_limits<double>::infinity();
  }
};
} // namespace

/// The first search flag out of its range, said as an error; empty when all
/// are valid.
static std::string validateSearchFlags() {
  auto outOf = [](StringRef flag, double value, StringRef range) {
    char text[32];
    std::snprintf(text, sizeof(text), "%g", value);
    return llvm::formatv("--{0}={1} is out of range: {2}", flag, text, range)
        .str();
  };
  if (trials < 1)
    return outOf("trials", trials, "at least 1");
  if (perRound < 1)
    return outOf("measures-per-round", perRound, "at least 1");
  if (population < 1)
    return outOf("population", population, "at least 1");
  if (generations < 0)
    return outOf("generations", generations, "at least 0");
  if (timeLimit < 0)
    return outOf("time-limit", timeLimit, "at least 0 (0: no limit)");
  if (epsilonGreedy < 0 || epsilonGreedy > 1)
    return outOf("epsilon-greedy", epsilonGreedy, "0 to 1");
  if (tileMutationWeight < 0 || tileMutationWeight > 1)
    return outOf("tile-mutation-weight", tileMutationWeight, "0 to 1");
  if (diversityRatio != 0 && diversityRatio < 1)
    return outOf("diversity-filter", diversityRatio, "0 (off) or at least 1");
  return "";
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerAllPasses();
  cl::HideUnrelatedOptions({&toolCategory, &getPrunerCategory()});
  cl::ParseCommandLineOptions(argc, argv, "tessel-tune: tune the kernels of "
                                          "a model\n");
  if (!variant.empty()) {
    static const std::pair<StringRef, std::pair<StringRef, StringRef>>
        kVariants[] = {{"ansor", {"evolutionary", "ansor"}},
                       {"ansor-af", {"evolutionary", "af"}},
                       {"ansor-ds", {"dgd", "ansor"}},
                       {"ansor-af-ds", {"dgd", "af"}}};
    auto it = llvm::find_if(kVariants,
                            [](const auto &v) { return v.first == variant; });
    if (it == std::end(kVariants))
      return fail("unknown variant '" + variant +
                  "' (known: ansor, ansor-af, ansor-ds, ansor-af-ds)");
    auto [strategy, features] = it->second;
    if ((strategyName.getNumOccurrences() && strategyName != strategy) ||
        (featuresName.getNumOccurrences() && featuresName != features))
      return fail("--variant=" + variant + " means --strategy=" + strategy +
                  " --features=" + features + "; it contradicts the flags given");
    strategyName.setValue(strategy.str());
    featuresName.setValue(features.str());
  }
  if (std::string invalid = validateSearchFlags(); !invalid.empty())
    return fail(invalid);
  std::string error;
  if (!exportFile.empty() || !importFile.empty()) {
    auto db = RecordsDatabase::open(
        dbPath, exportFile.empty() ? RecordsDatabase::OpenMode::CreateOrOpen
                                   : RecordsDatabase::OpenMode::ReadOnly);
    if (!db)
      return fail(llvm::toString(db.takeError()));
    if (!importFile.empty()) {
      auto summary = (*db)->importJsonLinesFile(importFile);
      if (!summary)
        return fail(llvm::toString(summary.takeError()));
      llvm::outs() << llvm::formatv(
          "imported {0} lines: {1} new measurements, {2} duplicates\n",
          summary->lines, summary->added, summary->duplicates);
      return 0;
    }
    auto output = openOutputFile(exportFile, &error);
    if (!output)
      return fail(error);
    if (llvm::Error e = (*db)->exportJsonLines(output->os()))
      return fail(llvm::toString(std::move(e)));
    output->keep();
    return 0;
  }

  if (inputFile.empty())
    return fail("no model given (tessel-tune MODEL.mlir ...)");
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::unique_ptr<ModelFile> modelFile =
      ModelFile::load(inputFile, &context, error);
  if (!modelFile)
    return error.empty() ? 1 : fail(error);
  ModuleOp model = modelFile->getModule();
  auto tasks = extractTasks(model, &context);
  if (!tasks)
    return fail(llvm::toString(tasks.takeError()));

  if (listTasks) {
    llvm::outs() << llvm::formatv("{0,4} {1,6} {2,12} {3}\n", "task", "weight",
                                  "MFLOP", "kernel");
    double total = 0;
    for (auto [index, task] : llvm::enumerate(*tasks)) {
      llvm::outs() << llvm::formatv("{0,4} {1,6} {2,12:F1} {3}\n", index,
                                    task.weight, task.flops / 1e6,
                                    task.describe());
      total += task.flops * task.weight;
    }
    llvm::outs() << llvm::formatv("{0} tasks, {1:F1} GFLOP per model run\n",
                                  tasks->size(), total / 1e9);
    return 0;
  }
  if (tasks->empty())
    return fail("the model has no tunable op");

  // The measurer and the device it times on.
  std::unique_ptr<Measurer> measurer;
  DeviceDescription device;
  bool cuda = false;
  StringRef measure = measureOption;
  if (measure.consume_front("sim:")) {
    auto found = findDevice(measure);
    if (!found)
      return fail(llvm::toString(found.takeError()));
    device = *found;
    measurer = std::make_unique<SimulatedMeasurer>(device, seed, simNoise);
  } else if (measure == "cuda") {
    auto created = CudaMeasurer::create({});
    if (!created)
      return fail(llvm::toString(created.takeError()));
    auto found = findDeviceForDriver((*created)->getDeviceInfo());
    if (!found)
      return fail(llvm::toString(found.takeError()));
    device = *found;
    measurer = std::move(*created);
    cuda = true;
  } else {
    return fail("unknown measurer '" + measureOption +
                "' (use cuda or sim:<device>)");
  }
  std::optional<SimFidelity> fidelity = symbolizeSimFidelity(simFidelityOption);
  if (!fidelity)
    return fail("unknown --sim-fidelity '" + simFidelityOption +
                "' (use compiled or analytic)");
  bool analytic = *fidelity == SimFidelity::Analytic;
  if (analytic && !measurer->isSimulated())
    return fail("--sim-fidelity=analytic needs a sim:<device> measurer");
  if (simTrialSeconds < 0 || (simTrialSeconds > 0 && !analytic))
    return fail("--sim-trial-seconds needs --sim-fidelity=analytic and a "
                "non-negative value");
  // The target of the records: analytic timings are another model than
  // compiled ones, so they never mix on resume or apply-tuned.
  std::string target = measurer->name() + (analytic ? ":analytic" : "");
  if (!quiet)
    llvm::errs() << "tessel-tune: measuring on " << target
                 << (measurer->isSimulated()
                         ? " (SIMULATED: a model of the GPU, not a measurement)"
                         : "")
                 << "\n";

  StrategyOptions strategyOptions;
  int roundSize = perRound;
  if (llvm::Error error = applyPrunerFlags(
          strategyOptions, strategyName, featuresName,
          featuresName.getNumOccurrences() > 0, roundSize,
          perRound.getNumOccurrences() > 0))
    return fail(llvm::toString(std::move(error)));
  perRound = roundSize;

  // Records.
  auto db = RecordsDatabase::open(dbPath, RecordsDatabase::OpenMode::CreateOrOpen);
  if (!db)
    return fail(llvm::toString(db.takeError()));
  RunInfo runInfo;
  runInfo.strategy = strategyName;
  runInfo.seed = seed;
  runInfo.measurer = target;
  runInfo.simulated = measurer->isSimulated();
  runInfo.deviceJson = device.toJSON();
  runInfo.optionsJson = llvm::formatv(
      "{{\"trials\": {0}, \"measures_per_round\": {1}, \"population\": {2}, "
      "\"generations\": {3}, \"cost_model\": \"{4}\", \"features\": \"{5}\", "
      "\"scheduler\": \"{6}\", \"resume\": {7}, \"sim_fidelity\": \"{8}\", "
      "\"sim_trial_seconds\": {9}, \"xgb_tree_method\": \"{10}\"}",
      trials, perRound, population, generations, costModelName, featuresName,
      schedulerName, resume ? "true" : "false", stringifySimFidelity(*fidelity),
      simTrialSeconds.getValue(), treeMethod.getValue());
  if (strategyName == "psa")
    runInfo.optionsJson.insert(runInfo.optionsJson.size() - 1,
                               ", \"psa\": " +
                                   getPrunerOptionsJson(strategyOptions));
  runInfo.tesselVersion = "0.1";
  auto runId = (*db)->beginRun(runInfo);
  if (!runId)
    return fail(llvm::toString(runId.takeError()));

  strategyOptions.dgd.initialSamples = dgdInitialSamples;
  strategyOptions.dgd.window = dgdWindow;
  strategyOptions.dgd.scoreRatio = dgdScoreRatio;
  strategyOptions.dgd.measureRatio = dgdMeasureRatio;
  strategyOptions.dgd.maxHops = dgdMaxHops;
  strategyOptions.dgd.scoreStop = dgdScoreStop;
  strategyOptions.dgd.bestMeasured = dgdBestMeasured;
  strategyOptions.dgd.start = dgdStart;
  strategyOptions.dgd.retrain = dgdRetrain;
  strategyOptions.dgd.budget = dgdBudget;
  strategyOptions.dgd.initialCount = dgdInitialCount;
  strategyOptions.dgd.maxStarts = dgdMaxStarts;
  strategyOptions.dgd.timeLimit = dgdTimeLimit;
  strategyOptions.dgd.hopUnroll = dgdHopUnroll;
  strategyOptions.dgd.vectorWidths = dgdVectorWidths;
  strategyOptions.seed = seed;
  strategyOptions.populationSize = population;
  strategyOptions.generations = generations;
  strategyOptions.tileMutationWeight = tileMutationWeight;
  strategyOptions.epsilonGreedy = epsilonGreedy;
  strategyOptions.diversityRatio = diversityRatio;
  strategyOptions.costModel = costModelName;
  strategyOptions.features = featuresName;
  strategyOptions.treeMethod = treeMethod;
  auto strategy = createStrategy(strategyName, strategyOptions, device);
  if (!strategy)
    return fail(llvm::toString(strategy.takeError()));

  std::string chip = device.chip;
  unsigned threads = jobs ? jobs.getValue()
                          : std::max(1u, std::thread::hardware_concurrency());
  CandidateCompiler compiler(chip, cudaPath, threads);

  // Per task: search spaces, records, the default schedule's time.
  std::vector<TaskRun> runs;
  runs.reserve(tasks->size());
  std::vector<SchedulerTask> schedulerTasks;
  int64_t trialCounter = 0;
  auto started = std::chrono::steady_clock::now();
  // Seconds of the virtual clock charged so far (--sim-trial-seconds).
  double chargedSeconds = 0;
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         started)
               .count() +
           chargedSeconds;
  };
  for (auto [index, task] : llvm::enumerate(*tasks)) {
    TaskRun run;
    run.task = &task;
    run.state.task = &task;
    run.state.rng = RandomEngine(seed * 1000003 + index);
    run.state.consumers = getTaskFusedConsumers(task);
    for (SketchAttr sketch : task.sketches) {
      FailureOr<SearchSpace> space =
          SearchSpace::get(task.getTargetOp(), sketch, device);
      if (succeeded(space))
        run.state.spaces.push_back(std::move(*space));
    }
    auto taskId = (*db)->getOrAddTask(task.workloadKey, task.opKind,
                                      task.flops, task.weight, task.describe());
    if (!taskId)
      return fail(llvm::toString(taskId.takeError()));
    run.taskId = *taskId;
    if (cuda) {
      auto reference = computeReference(*task.module, kTaskFunctionName, seed);
      if (!reference)
        return fail("task " + task.describe() + ": " +
                    llvm::toString(reference.takeError()));
      run.reference = std::make_shared<ReferenceData>(std::move(*reference));
    }
    runs.push_back(std::move(run));
    schedulerTasks.push_back(
        {static_cast<double>(task.weight), task.flops, task.opKind});
  }

  // Measures `candidates` of `run`, records and returns the trials.
  auto measureBatch = [&](TaskRun &run, ArrayRef<Candidate> candidates,
                          bool countTrials) -> std::vector<Trial> {
    std::vector<MeasureCandidate> toMeasure;
    std::vector<size_t> measuredIndex;
    std::vector<Trial> out(candidates.size());
    auto compileError = [&](size_t index, std::string message) {
      out[index].result.key = candidates[index].getKey();
      out[index].result.status = MeasureStatus::CompileError;
      out[index].result.message = std::move(message);
      out[index].result.simulated = measurer->isSimulated();
    };
    if (analytic) {
      for (auto [index, candidate] : llvm::enumerate(candidates)) {
        out[index].candidate = candidate;
        std::string why;
        FailureOr<MeasureCandidate> m =
            buildAnalyticCandidate(run.state, candidate, &why);
        if (failed(m)) {
          compileError(index, why);
          continue;
        }
        toMeasure.push_back(std::move(*m));
        measuredIndex.push_back(index);
      }
    } else {
      std::vector<CompiledCandidate> compiled =
          compiler.compile(*run.task, candidates);
      for (auto [index, c] : llvm::enumerate(compiled)) {
        out[index].candidate = candidates[index];
        if (!c.plan) {
          compileError(index, c.error);
          continue;
        }
        MeasureCandidate m;
        m.key = candidates[index].getKey();
        m.plan = c.plan;
        m.reference = run.reference;
        m.planFlops = run.task->flops;
        toMeasure.push_back(std::move(m));
        measuredIndex.push_back(index);
      }
    }
    std::vector<MeasureResult> results = measurer->measure(toMeasure);
    for (auto [i, result] : llvm::enumerate(results))
      out[measuredIndex[i]].result = std::move(result);
    for (Trial &trial : out) {
      trial.result.device = target;
      chargedSeconds += simTrialSeconds;
      if (trial.result.isOk() && trial.result.timing.medianUs > 0)
        trial.gflops = run.task->flops / trial.result.timing.medianUs / 1e3;
      int64_t number = countTrials ? ++trialCounter : 0;
      auto sketchId = (*db)->getOrAddSketch(
          run.taskId, [&] {
            std::string s;
            llvm::raw_string_ostream os(s);
            os << trial.candidate.sketch;
            return s;
          }());
      if (sketchId) {
        std::string configText;
        llvm::raw_string_ostream os(configText);
        os << trial.candidate.config;
        auto configId = (*db)->getOrAddConfig(*sketchId, configText);
        if (configId) {
          if (auto added = (*db)->addMeasurement(*runId, *configId,
                                                 trial.result, number,
                                                 elapsed());
              !added)
            llvm::errs() << "tessel-tune: " << llvm::toString(added.takeError())
                         << "\n";
          if (countTrials && crashAfterTrials > 0 &&
              trialCounter >= crashAfterTrials)
            raise(SIGKILL);
        } else {
          llvm::errs() << "tessel-tune: " << llvm::toString(configId.takeError())
                       << "\n";
        }
      } else {
        llvm::errs() << "tessel-tune: " << llvm::toString(sketchId.takeError())
                     << "\n";
      }
    }
    return out;
  };

  // Resume: earlier measurements of the same target come back as trials.
  for (TaskRun &run : runs) {
    if (!resume)
      break;
    auto records = (*db)->getMeasurements(run.taskId, target);
    if (!records)
      return fail(llvm::toString(records.takeError()));
    std::vector<Trial> restored;
    for (const MeasurementRecord &record : *records) {
      auto sketch = dyn_cast_or_null<SketchAttr>(
          parseAttribute(record.sketch, &context));
      auto config = dyn_cast_or_null<ConfigAttr>(
          parseAttribute(record.config, &context));
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
        trial.gflops = run.task->flops / record.timing.medianUs / 1e3;
      if (record.trial > 0)
        ++trialCounter;
      run.state.record(trial);
      restored.push_back(trial);
    }
    if (!restored.empty())
      if (llvm::Error error = (*strategy)->observe(run.state, restored))
        llvm::consumeError(std::move(error));
  }
  if (resume && !quiet)
    llvm::errs() << "tessel-tune: resumed " << trialCounter
                 << " measured trials from " << dbPath << "\n";

  // The default schedule of each task, the baseline of the speedups.
  for (TaskRun &run : runs) {
    std::optional<Candidate> fallback = getDefaultCandidate(*run.task);
    if (!fallback)
      continue;
    for (auto [index, space] : llvm::enumerate(run.state.spaces))
      if (space.getSketch() == fallback->sketch)
        fallback->space = index;
    // Measured before (a resumed run): never twice.
    auto key = fallback->getId();
    for (const Trial &trial : run.state.trials)
      if (trial.candidate.getId() == key && trial.result.isOk())
        run.defaultLatencyUs = trial.result.timing.medianUs;
    if (run.state.seen.contains(key))
      continue;
    std::vector<Trial> baseline = measureBatch(run, *fallback, false);
    for (Trial &trial : baseline) {
      if (trial.result.isOk())
        run.defaultLatencyUs = trial.result.timing.medianUs;
      run.state.record(trial);
    }
    if (llvm::Error error = (*strategy)->observe(run.state, baseline))
      llvm::consumeError(std::move(error));
  }

  auto options = TaskSchedulerOptions();
  if (auto kind = parseTaskSchedulerKind(schedulerName))
    options.kind = *kind;
  else
    return fail("unknown scheduler '" + schedulerName + "'");
  options.seed = seed;
  TaskScheduler scheduler(schedulerTasks, options);
  for (size_t i = 0; i < runs.size(); ++i)
    if (!runs[i].state.trials.empty())
      scheduler.update(i, runs[i].bestLatency());

  bool terminal = llvm::sys::Process::StandardErrIsDisplayed();
  std::vector<bool> exhausted(runs.size(), false);
  double searchSeconds = 0, compileMeasureSeconds = 0;
  while (trialCounter < trials && (timeLimit <= 0 || elapsed() < timeLimit)) {
    size_t index = scheduler.next();
    // An exhausted task gets no more rounds: the next live one takes it.
    for (size_t i = 0; i < runs.size() && exhausted[index]; ++i)
      index = (index + 1) % runs.size();
    if (exhausted[index])
      break;
    TaskRun &run = runs[index];
    int count = std::min<int64_t>(perRound, trials - trialCounter);
    auto searchStart = std::chrono::steady_clock::now();
    std::vector<Candidate> batch = (*strategy)->propose(run.state, count);
    searchSeconds += std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - searchStart)
                         .count();
    if (batch.empty()) {
      // The task is exhausted (its space, or the strategy's own budget):
      // it gets no more rounds. A strategy may return fewer candidates than
      // asked for (dgd proposes one window at a time); that is not an end.
      exhausted[index] = true;
      scheduler.update(index, run.bestLatency());
      continue;
    }
    auto measureStart = std::chrono::steady_clock::now();
    std::vector<Trial> results = measureBatch(run, batch, true);
    compileMeasureSeconds += std::chrono::duration<double>(
                                 std::chrono::steady_clock::now() - measureStart)
                                 .count();
    double before = run.bestLatency();
    for (Trial &trial : results)
      run.state.record(trial);
    if (llvm::Error error = (*strategy)->observe(run.state, results))
      llvm::consumeError(std::move(error));
    if (run.bestLatency() < before || run.curve.empty())
      if (const Trial *best = run.state.getBest())
        run.curve.emplace_back(trialCounter, elapsed(), best->gflops);
    scheduler.update(index, run.bestLatency());
    if (!quiet) {
      double rate = trialCounter / std::max(elapsed(), 1e-9);
      double eta = (trials - trialCounter) / std::max(rate, 1e-9);
      const Trial *best = run.state.getBest();
      std::string line = llvm::formatv(
          "task {0}/{1} trials {2}/{3} best {4:F1} GFLOP/s{5} elapsed {6:F0} s "
          "ETA {7:F0} s",
          index, runs.size(), trialCounter, trials.getValue(),
          best ? best->gflops : 0.0,
          measurer->isSimulated() ? " (simulated)" : "", elapsed(), eta);
      if (terminal)
        llvm::errs() << "\r" << line << "\x1b[K";
      else
        llvm::errs() << line << "\n";
    }
  }
  if (terminal && !quiet)
    llvm::errs() << "\n";

  // Summary.
  llvm::outs() << llvm::formatv(
      "{0,4} {1,6} {2,12} {3,10} {4,7} {5,8}  {6}\n", "task", "weight",
      "latency us", "GFLOP/s", "trials", "speedup", "kernel");
  llvm::json::Array taskReports;
  for (auto [index, run] : llvm::enumerate(runs)) {
    const Trial *best = run.state.getBest();
    double latency = best ? best->result.timing.medianUs : 0;
    double speedup = best && run.defaultLatencyUs > 0
                         ? run.defaultLatencyUs / latency
                         : 0;
    int64_t count = run.state.trials.size();
    llvm::outs() << llvm::formatv(
        "{0,4} {1,6} {2,12:F2} {3,10:F1} {4,7} {5,8:F2}  {6}\n", index,
        run.task->weight, latency, best ? best->gflops : 0.0, count, speedup,
        run.task->describe());
    llvm::json::Array curve;
    for (auto [trial, seconds, gflops] : run.curve)
      curve.push_back(llvm::json::Object{
          {"trial", trial}, {"elapsed_s", seconds}, {"best_gflops", gflops}});
    llvm::json::Object report{
        {"key", run.task->workloadKey},
        {"description", run.task->describe()},
        {"weight", run.task->weight},
        {"flops", run.task->flops},
        {"trials", count},
        {"best_latency_us", best ? llvm::json::Value(latency) : nullptr},
        {"best_gflops", best ? llvm::json::Value(best->gflops) : nullptr},
        {"default_latency_us", run.defaultLatencyUs > 0
                                   ? llvm::json::Value(run.defaultLatencyUs)
                                   : nullptr},
        {"curve", std::move(curve)}};
    if (best) {
      report["best_sketch"] = best->candidate.getKey();
    }
    taskReports.push_back(std::move(report));
  }
  double total = elapsed();
  std::string compiledNote =
      analytic ? llvm::formatv("analytic, none compiled; virtual clock "
                               "{0:F1} s",
                               chargedSeconds)
                     .str()
               : llvm::formatv("{0} compiled", compiler.getCompiledCount())
                     .str();
  llvm::outs() << llvm::formatv(
      "{0} trials in {1:F1} s on {2}{3}; search {4:F1} s, compile+measure "
      "{5:F1} s ({6})\n",
      trialCounter, total, target,
      measurer->isSimulated() ? " (simulated)" : "", searchSeconds,
      compileMeasureSeconds, compiledNote);

  if (!emitDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(emitDir))
      return fail("cannot create '" + emitDir + "': " + ec.message());
    auto write = [&](StringRef name, ModuleOp module) -> bool {
      llvm::SmallString<256> path(emitDir.getValue());
      llvm::sys::path::append(path, name);
      auto output = openOutputFile(path, &error);
      if (!output)
        return false;
      module.print(output->os());
      output->keep();
      return true;
    };
    // Per task: the best schedule as an upstream transform script that
    // stock mlir-opt --transform-interpreter replays.
    for (auto [index, run] : llvm::enumerate(runs)) {
      const Trial *best = run.state.getBest();
      if (!best)
        continue;
      OwningOpRef<ModuleOp> module = applySchedule(
          *run.task, best->candidate.sketch, best->candidate.config);
      PassManager pm(&context);
      pm.addPass(createTesselEmitTransformScript());
      if (failed(pm.run(*module)) ||
          !write(llvm::formatv("task{0}.transform.mlir", index).str(), *module))
        return fail("cannot emit the schedule of task " + std::to_string(index));
    }
    // The model with the best records applied, compiled.
    OwningOpRef<ModuleOp> compiled(cast<ModuleOp>(model->clone()));
    PassManager pm(&context);
    pm.addPass(createTesselApplyTunedPass(dbPath, target));
    auto pipeline = TesselToCudaOptions::createFromString(
        "chip=" + chip + " format=bin" +
        (cudaPath.empty() ? std::string() : " cuda-path=" + cudaPath));
    {
      // The remarks of apply-tuned (one per op) are not news here.
      ScopedDiagnosticHandler silenceRemarks(&context, [](Diagnostic &d) {
        return success(d.getSeverity() == DiagnosticSeverity::Remark);
      });
      if (!pipeline || failed(buildTesselToCudaPipeline(pm, *pipeline)) ||
          failed(pm.run(*compiled)) || !write("model.cubin.mlir", *compiled))
        return fail("cannot compile the tuned model into '" + emitDir + "'");
    }
    if (!quiet)
      llvm::errs() << "tessel-tune: best schedules and the compiled model in "
                   << emitDir << "\n";
  }

  if (!reportFile.empty()) {
    llvm::json::Object report{
        {"tessel_tune_report_version", 1},
        {"model", inputFile.getValue()},
        {"measurer", target},
        {"sim_fidelity", measurer->isSimulated()
                             ? stringifySimFidelity(*fidelity).str()
                             : std::string("")},
        {"sim_trial_seconds", simTrialSeconds.getValue()},
        {"simulated", measurer->isSimulated()},
        {"strategy", strategyName.getValue()},
        {"seed", static_cast<int64_t>(seed)},
        {"trials", trialCounter},
        {"elapsed_s", total},
        {"search_s", searchSeconds},
        {"compile_measure_s", compileMeasureSeconds},
        {"tasks", std::move(taskReports)}};
    if (llvm::Error written = writeJsonFile(reportFile, std::move(report)))
      return fail(llvm::toString(std::move(written)));
  }
  return 0;
}
