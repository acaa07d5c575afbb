//===- tessel-tune.cpp - Tune the kernels of a model ----------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
//   tessel-tune model.mlir --list-tasks
//   tessel-tune --list-strategies
//   tessel-tune model.mlir --measure=sim:h100 --strategy="evolutionary
//               population=2048" --trials=1000 --db=model.db [--resume]
//               [--time-limit=S] [--seed=N] [--report=FILE.json] [-j N]
//   tessel-tune --rerun=RUN --db=model.db
//
// Flag parsing and printing around tune() (tessel/Tuning/Tuner/Tuner.h).
//
//===----------------------------------------------------------------------===//

#include "tessel/InitAllDialects.h"
#include "tessel/InitAllPasses.h"
#include "tessel/Tuning/JsonFile.h"
#include "tessel/Tuning/ModelFile.h"
#include "tessel/Tuning/Records/RecordsDatabase.h"
#include "tessel/Tuning/Tuner/StrategyRegistry.h"
#include "tessel/Tuning/Tuner/Tuner.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"

#include <csignal>

using namespace mlir;
using namespace mlir::tessel;
namespace cl = llvm::cl;

static cl::OptionCategory category("tessel-tune options");
template <typename T>
using Flag = cl::opt<T>;
static TuneOptions kDefaults;

static Flag<std::string> inputFile(cl::Positional, cl::desc("<model .mlir>"),
                                   cl::cat(category));
static Flag<bool> listTasks("list-tasks", cl::desc("Print the tasks and exit"),
                            cl::cat(category));
static Flag<bool> listStrategies(
    "list-strategies",
    cl::desc("Print the strategies, cost models and feature sets with their "
             "options and exit"),
    cl::cat(category));
static Flag<std::string> measure("measure", cl::init(kDefaults.measure),
                                 cl::desc("cuda, or sim:<device> (simulated)"),
                                 cl::cat(category));
static Flag<std::string> strategy(
    "strategy", cl::init(kDefaults.strategy),
    cl::desc("Strategy and options, e.g. \"dgd window=3\" (--list-strategies)"),
    cl::cat(category));
static Flag<std::string> costModel(
    "cost-model", cl::desc("Cost model and options, e.g. \"xgboost "
                           "tree-method=exact\" (default: the strategy's)"),
    cl::cat(category));
static Flag<std::string> features(
    "features", cl::desc("Feature set: af, ansor or pruner (default: the "
                         "strategy's)"),
    cl::cat(category));
static Flag<int64_t> trials("trials", cl::init(kDefaults.trials),
                            cl::desc("Measurements in all"), cl::cat(category));
static Flag<int64_t> perRound(
    "measures-per-round",
    cl::desc("Candidates measured per round (default: the strategy's, 64 "
             "or psa's 10)"),
    cl::cat(category));
static Flag<std::string> scheduler("scheduler", cl::init(kDefaults.scheduler),
                                   cl::desc("gradient or round-robin"),
                                   cl::cat(category));
static Flag<std::string> dbPath("db", cl::init("tessel-records.db"),
                                cl::desc("Records database (SQLite)"),
                                cl::cat(category));
static Flag<bool> resume("resume", cl::desc("Continue from the records of --db"),
                         cl::cat(category));
static Flag<int64_t> rerunId(
    "rerun", cl::desc("Repeat run RUN of --db (its stored options and model) "
                      "as a new run"),
    cl::value_desc("RUN"), cl::cat(category));
static Flag<double> timeLimit("time-limit", cl::desc("Stop after this many "
                                                     "seconds"),
                              cl::cat(category));
static Flag<uint64_t> seed("seed", cl::desc("Seed"), cl::cat(category));
static Flag<int64_t> jobs("j", cl::desc("Compile threads (default: all cores)"),
                          cl::cat(category));
static Flag<double> simNoise("sim-noise", cl::init(kDefaults.simNoise),
                             cl::desc("Simulated measurement noise"),
                             cl::cat(category));
static Flag<std::string> simFidelity(
    "sim-fidelity", cl::init(kDefaults.simFidelity),
    cl::desc("Under sim:<device>: compiled (time ptxas-compiled candidates) "
             "or analytic (time the schedule's facts, without compiling)"),
    cl::cat(category));
static Flag<double> simTrialSeconds(
    "sim-trial-seconds",
    cl::desc("Under analytic fidelity: virtual seconds charged per trial"),
    cl::cat(category));
static Flag<std::string> cudaPath("cuda-path", cl::desc("CUDA toolkit (ptxas)"),
                                  cl::cat(category));
static Flag<std::string> reportFile("report",
                                    cl::desc("Write a JSON report here"),
                                    cl::cat(category));
static Flag<std::string> emitDir(
    "emit", cl::desc("Write each task's best schedule as an upstream "
                     "transform script, and the tuned model compiled, here"),
    cl::cat(category));
static Flag<std::string> exportFile(
    "export", cl::desc("Write the records of --db as JSON lines to this file "
                       "('-' for stdout) and exit"),
    cl::cat(category));
static Flag<std::string> importFile(
    "import", cl::desc("Add the JSON-lines records of this file to --db and "
                       "exit"),
    cl::cat(category));
static Flag<bool> quiet("quiet", cl::desc("No progress lines"),
                        cl::cat(category));
static Flag<int64_t> crashAfterTrials(
    "crash-after-trials", cl::Hidden,
    cl::desc("Testing: SIGKILL this process after N committed trials"),
    cl::cat(category));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "tessel-tune: " << message << "\n";
  return 1;
}

static int exportOrImport() {
  auto db = RecordsDatabase::open(dbPath, importFile.empty()
                                              ? RecordsDatabase::OpenMode::ReadOnly
                                              : RecordsDatabase::OpenMode::CreateOrOpen);
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
  std::string error;
  auto output = openOutputFile(exportFile, &error);
  if (!output)
    return fail(error);
  if (llvm::Error e = (*db)->exportJsonLines(output->os()))
    return fail(llvm::toString(std::move(e)));
  output->keep();
  return 0;
}

/// The run's callbacks: notes and progress on stderr, the test crash.
static TuneCallbacks makeCallbacks() {
  TuneCallbacks callbacks;
  bool terminal = llvm::sys::Process::StandardErrIsDisplayed();
  if (!quiet) {
    callbacks.onNote = [](StringRef note) {
      llvm::errs() << "tessel-tune: " << note << "\n";
    };
    callbacks.onRound = [terminal](const TuneProgress &p) {
      double rate = p.trials / std::max(p.elapsedSeconds, 1e-9);
      std::string line = llvm::formatv(
          "task {0}/{1} trials {2}/{3} best {4:F1} GFLOP/s{5} elapsed {6:F0} "
          "s ETA {7:F0} s",
          p.taskIndex, p.taskCount, p.trials, p.budget, p.bestGflops,
          p.simulated ? " (simulated)" : "", p.elapsedSeconds,
          (p.budget - p.trials) / std::max(rate, 1e-9));
      llvm::errs() << (terminal ? "\r" : "") << line
                   << (terminal ? "\x1b[K" : "\n");
    };
  }
  if (crashAfterTrials > 0)
    callbacks.onTrial = [](const TrialEvent &event) {
      if (event.number >= crashAfterTrials)
        raise(SIGKILL);
    };
  return callbacks;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerAllPasses();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "tessel-tune: tune the kernels of a model\n");
  if (listStrategies) {
    printTunerComponents(llvm::outs());
    return 0;
  }
  if (!exportFile.empty() || !importFile.empty())
    return exportOrImport();

  TuneOptions options;
  options.measure = measure;
  options.strategy = strategy;
  options.costModel = costModel;
  options.features = features;
  options.trials = trials;
  options.measuresPerRound = perRound;
  options.scheduler = scheduler;
  options.resume = resume;
  options.timeLimit = timeLimit;
  options.seed = seed;
  options.jobs = jobs;
  options.simNoise = simNoise;
  options.simFidelity = simFidelity;
  options.simTrialSeconds = simTrialSeconds;
  options.cudaPath = cudaPath;
  if (rerunId.getNumOccurrences() == 0 && !listTasks)
    if (llvm::Error error = options.verify())
      return fail(llvm::toString(std::move(error)));

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  std::string error;
  std::unique_ptr<ModelFile> modelFile;
  if (rerunId.getNumOccurrences() == 0) {
    if (inputFile.empty())
      return fail("no model given (tessel-tune MODEL.mlir ...)");
    modelFile = ModelFile::load(inputFile, &context, error);
    if (!modelFile)
      return error.empty() ? 1 : fail(error);
    if (listTasks) {
      ModuleOp model = modelFile->getModule();
      auto tasks = extractTasks(model, &context);
      if (!tasks)
        return fail(llvm::toString(tasks.takeError()));
      printTaskTable(llvm::outs(), *tasks);
      return 0;
    }
  }

  auto db = RecordsDatabase::open(dbPath,
                                  RecordsDatabase::OpenMode::CreateOrOpen);
  if (!db)
    return fail(llvm::toString(db.takeError()));
  TuneCallbacks callbacks = makeCallbacks();
  TuneEnvironment environment;
  llvm::Expected<TuneResult> result =
      modelFile ? (environment.modelSource = modelFile->getSource().str(),
                   tune(modelFile->getModule(), options, **db, callbacks,
                        environment))
                : rerun(&context, **db, rerunId, callbacks);
  if (llvm::sys::Process::StandardErrIsDisplayed() && !quiet)
    llvm::errs() << "\n";
  if (!result)
    return fail(llvm::toString(result.takeError()));
  result->printSummary(llvm::outs());

  if (!emitDir.empty() && modelFile) {
    if (llvm::Error e = emitTunedModel(modelFile->getModule(), *result, dbPath,
                                       emitDir))
      return fail(llvm::toString(std::move(e)));
    if (!quiet)
      llvm::errs() << "tessel-tune: best schedules and the compiled model in "
                   << emitDir << "\n";
  }
  if (!reportFile.empty())
    if (llvm::Error e = writeJsonFile(
            reportFile,
            result->toJSON(modelFile ? StringRef(inputFile) : StringRef())))
      return fail(llvm::toString(std::move(e)));
  return 0;
}
