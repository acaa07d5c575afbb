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
//   tessel-tune model.mlir --db=model.db --export-spec=spec.mlir
//
// Flag parsing and printing around tune() (tessel/Tuning/Tuner/Tuner.h).
// While tuning, the first SIGINT or SIGTERM ends the run after its round (as
// its time limit does): the summary, report and exports are written, and
// the exit status is 128 + the signal; a second signal ends it at once.
// Every committed measurement is in the records either way.
//
//===----------------------------------------------------------------------===//

#include "tessel/InitAllDialects.h"
#include "tessel/InitAllPasses.h"
#include "tessel/Tuning/ApplyTuned/TuningSpec.h"
#include "tessel/Tuning/JsonFile.h"
#include "tessel/Tuning/ModelFile.h"
#include "tessel/Tuning/Records/RecordsDatabase.h"
#include "tessel/Tuning/StopSignals.h"
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
/// A flag stored in the run's options (their defaults are the flags').
template <typename T>
using OptionFlag = cl::opt<T, /*ExternalStorage=*/true>;
static TuneOptions options;

static Flag<std::string> inputFile(cl::Positional, cl::desc("<model .mlir>"),
                                   cl::cat(category));
static Flag<bool> listTasks("list-tasks", cl::desc("Print the tasks and exit"),
                            cl::cat(category));
static Flag<bool> listStrategies(
    "list-strategies",
    cl::desc("Print the strategies, cost models and feature sets with their "
             "options and exit"),
    cl::cat(category));
static OptionFlag<std::string>
    measure("measure", cl::location(options.measure),
            cl::desc("cuda, sim:<device> (simulated), queue:<records db> "
                     "(workers measure; docs/Queue.md), or replay:<file> "
                     "(times a GPU measured; docs/Replay.md)"),
            cl::cat(category));
static OptionFlag<std::string> queueTarget(
    "queue-target", cl::location(options.queueTarget),
    cl::desc("Under --measure=queue:<db>: sim:<device> or cuda:<device>, "
             "the device whose workers measure"),
    cl::cat(category));
static OptionFlag<std::string> strategy(
    "strategy", cl::location(options.strategy),
    cl::desc("Strategy and options, e.g. \"dgd window=3\" (--list-strategies)"),
    cl::cat(category));
static OptionFlag<std::string>
    costModel("cost-model", cl::location(options.costModel),
              cl::desc("Cost model and options, e.g. \"xgboost "
                       "tree-method=exact\" (default: the strategy's)"),
              cl::cat(category));
static OptionFlag<std::string>
    features("features", cl::location(options.features),
             cl::desc("Feature set: af, ansor or pruner (default: the "
                      "strategy's)"),
             cl::cat(category));
static OptionFlag<int64_t> trials("trials", cl::location(options.trials),
                                  cl::desc("Measurements in all"),
                                  cl::cat(category));
static OptionFlag<int64_t> perRound(
    "measures-per-round", cl::location(options.measuresPerRound),
    cl::desc("Candidates measured per round (default: the strategy's, 64 "
             "or psa's 10)"),
    cl::cat(category));
static OptionFlag<std::string> scheduler("scheduler",
                                         cl::location(options.scheduler),
                                         cl::desc("gradient-share (default: "
                                                  "warm-up by share of the "
                                                  "model's time), gradient "
                                                  "(Ansor's task order) or "
                                                  "round-robin"),
                                         cl::cat(category));
static Flag<std::string> dbPath("db", cl::init("tessel-records.db"),
                                cl::desc("Records database (SQLite)"),
                                cl::cat(category));
static OptionFlag<bool> resume("resume", cl::location(options.resume),
                               cl::desc("Continue from the records of --db"),
                               cl::cat(category));
static Flag<int64_t>
    rerunId("rerun",
            cl::desc("Repeat run RUN of --db (its stored options and model) "
                     "as a new run"),
            cl::value_desc("RUN"), cl::cat(category));
static OptionFlag<double> timeLimit("time-limit",
                                    cl::location(options.timeLimit),
                                    cl::desc("Stop after this many "
                                             "seconds"),
                                    cl::cat(category));
static OptionFlag<uint64_t> seed("seed", cl::location(options.seed),
                                 cl::desc("Seed"), cl::cat(category));
static OptionFlag<int64_t>
    jobs("j", cl::location(options.jobs),
         cl::desc("Candidates compiled at once, each in a child process "
                  "(default: all cores)"),
         cl::cat(category));
static OptionFlag<int64_t> compileMemoryMiB(
    "compile-memory-mib", cl::location(options.compileMemoryMiB),
    cl::desc("MiB of memory a candidate's compilation may use; one that needs "
             "more is a compile error of its candidate (0: no limit)"),
    cl::cat(category));
static OptionFlag<double> compileTimeout(
    "compile-timeout", cl::location(options.compileTimeout),
    cl::desc("Seconds a candidate's compilation may take; one that takes "
             "longer is a compile error of its candidate (0: no limit)"),
    cl::cat(category));
static OptionFlag<double> simNoise("sim-noise", cl::location(options.simNoise),
                                   cl::desc("Simulated measurement noise"),
                                   cl::cat(category));
static OptionFlag<std::string> simFidelity(
    "sim-fidelity", cl::location(options.simFidelity),
    cl::desc("Under sim:<device>: compiled (time ptxas-compiled candidates) "
             "or analytic (time the schedule's facts, without compiling)"),
    cl::cat(category));
static OptionFlag<int64_t> maxStages(
    "max-stages", cl::location(options.maxStages),
    cl::desc("Most shared-memory stages of a software-pipelined staging loop "
             "(cp.async, sm_80 and newer) the search may choose (default "
             "2: double buffering; 1: none)"),
    cl::cat(category));
static OptionFlag<bool> tensorCores(
    "tensor-cores", cl::location(options.tensorCores),
    cl::desc("Also search tensor_core sketches (mma.sync, sm_80 and newer) "
             "for f16 contractions (default true; false is an ablation)"),
    cl::cat(category));
static OptionFlag<bool> allowTf32(
    "allow-tf32", cl::location(options.allowTf32),
    cl::desc("Also search tensor_core sketches of f32 contractions, computed "
             "in TF32 (inputs rounded to a 10-bit mantissa: results differ "
             "from strict fp32; compile the tuned model with allow-tf32)"),
    cl::cat(category));
static OptionFlag<bool> checkCompiles(
    "check-compiles", cl::location(options.checkCompiles),
    cl::desc("Under sim-fidelity=analytic: also compile every candidate "
             "(pipeline and ptxas); one the compiler rejects is a "
             "compile_error (\"admitted by the search space, does not "
             "compile: ...\"). Times stay analytic"),
    cl::cat(category));
static OptionFlag<int64_t> startSamples(
    "start-samples", cl::location(options.startSamples),
    cl::desc("Before the search, compare each task's default with the best "
             "of this many sampled schedules as the analytic simulator "
             "predicts them (no measurement); one predicted at least 4x "
             "faster is measured with the default, so a task the budget "
             "never reaches keeps the better one (default 256; 0: off)"),
    cl::cat(category));
static OptionFlag<std::string> taskEquality(
    "task-equality", cl::location(options.taskEquality),
    cl::desc("Which kernels are one task: structural (default), or "
             "ignore-float-constants (kernels that differ only in the values "
             "of float constants, such as folded splat weights, share one)"),
    cl::cat(category));
static OptionFlag<double> simTrialSeconds(
    "sim-trial-seconds", cl::location(options.simTrialSeconds),
    cl::desc("Under analytic fidelity: virtual seconds charged per trial"),
    cl::cat(category));
static OptionFlag<std::string> cudaPath("cuda-path",
                                        cl::location(options.cudaPath),
                                        cl::desc("CUDA toolkit (ptxas)"),
                                        cl::cat(category));
static OptionFlag<double>
    minTimeMs("min-time-ms", cl::location(options.cudaMinTimeMs),
              cl::desc("Under --measure=cuda: milliseconds of kernel time each "
                       "candidate is repeated for at least"),
              cl::cat(category));
static Flag<std::string> reportFile("report",
                                    cl::desc("Write a JSON report here"),
                                    cl::cat(category));
static Flag<std::string>
    emitDir("emit",
            cl::desc("Write each task's best schedule as an upstream "
                     "transform script, and the tuned model compiled, here"),
            cl::cat(category));
static Flag<std::string>
    exportFile("export",
               cl::desc("Write the records of --db as JSON lines to this file "
                        "('-' for stdout) and exit"),
               cl::cat(category));
static Flag<std::string>
    importFile("import",
               cl::desc("Add the JSON-lines records of this file to --db and "
                        "exit"),
               cl::cat(category));
static Flag<std::string> exportSpecFile(
    "export-spec",
    cl::desc("Write a transform library that gives the model's ops their best "
             "schedules of --db ('-' for stdout); without tuning flags, write "
             "it from the records already there and exit"),
    cl::value_desc("FILE"), cl::cat(category));
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
  auto db = RecordsDatabase::open(
      dbPath, importFile.empty() ? RecordsDatabase::OpenMode::ReadOnly
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
  if (llvm::Error e = (*db)->exportJsonLinesFile(exportFile))
    return fail(llvm::toString(std::move(e)));
  return 0;
}

/// The flags that set up a tuning run.
static SmallVector<cl::Option *> getRunFlags() {
  return {&measure,     &queueTarget,     &strategy,    &costModel,
          &features,    &trials,          &perRound,    &scheduler,
          &resume,      &timeLimit,       &seed,        &simNoise,
          &simFidelity, &simTrialSeconds, &maxStages,   &tensorCores,
          &allowTf32,   &minTimeMs,       &taskEquality, &checkCompiles,
          &startSamples};
}

/// Whether the command line asks for a tuning run, rather than only for the
/// tuning spec of --db's records: a run flag, --report or --emit.
static bool asksForTuning() {
  return llvm::any_of(
             getRunFlags(),
             [](cl::Option *flag) { return flag->getNumOccurrences() > 0; }) ||
         !reportFile.empty() || !emitDir.empty();
}

/// Refuses a run flag given twice (a second --strategy would silently drop
/// the first one's options) and run flags with --rerun, which repeats the
/// stored options.
static std::optional<std::string> checkRunFlags() {
  for (cl::Option *flag : getRunFlags()) {
    std::string name = ("--" + flag->ArgStr).str();
    if (flag->getNumOccurrences() > 1)
      return name + " is given " + std::to_string(flag->getNumOccurrences()) +
             " times; give it once";
    if (flag->getNumOccurrences() && rerunId.getNumOccurrences())
      return "--rerun repeats the stored options of run " +
             std::to_string(rerunId) + "; " + name +
             " cannot change them (start a new run instead)";
  }
  if (rerunId.getNumOccurrences() && !inputFile.empty())
    return "--rerun takes the model stored with the run, not " + inputFile;
  if (rerunId.getNumOccurrences() && !exportSpecFile.empty())
    return "--export-spec needs the model file; give it instead of --rerun";
  return std::nullopt;
}

/// Writes the tuning spec of `model` from the records of `db` to
/// --export-spec.
static int writeTuningSpec(ModuleOp model, RecordsDatabase &db) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(exportSpecFile, &error);
  if (!output)
    return fail(error);
  llvm::Expected<TuningSpecSummary> summary =
      exportTuningSpec(model, db, /*preferredTarget=*/"", output->os());
  if (!summary)
    return fail("--export-spec from '" + dbPath +
                "': " + llvm::toString(summary.takeError()));
  output->keep();
  if (!quiet)
    llvm::errs() << llvm::formatv(
        "tessel-tune: tuning spec for {0} of {1} workloads in {2}\n",
        summary->annotated, summary->workloads, exportSpecFile);
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
      llvm::errs() << (terminal ? "\r" : "") << p.str()
                   << (terminal ? "\x1b[K" : "\n");
    };
  }
  if (crashAfterTrials > 0)
    callbacks.onTrial = [](const TrialEvent &event) {
      if (event.number >= crashAfterTrials)
        raise(SIGKILL);
    };
  callbacks.shouldStop = [] { return receivedStopSignal() != 0; };
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

  if (std::optional<std::string> misuse = checkRunFlags())
    return fail(*misuse);
  bool onlyExportSpec = !exportSpecFile.empty() && !asksForTuning();
  if (rerunId.getNumOccurrences() == 0 && !listTasks && !onlyExportSpec)
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
      if (llvm::Error error = options.verify())
        return fail(llvm::toString(std::move(error)));
      std::vector<UntunableOp> untunable;
      TaskExtractionOptions extraction;
      extraction.equality = *parseTaskEquality(options.taskEquality);
      extraction.untunable = &untunable;
      auto tasks = extractTasks(modelFile->getModule(), &context, extraction);
      if (tasks) {
        emitUntunableOps(untunable, DiagnosticSeverity::Warning);
        printTaskTable(llvm::outs(), *tasks);
        std::string hint = getTaskEqualityHint(*tasks);
        if (!hint.empty())
          llvm::errs() << "tessel-tune: note: " << hint << "\n";
      }
      return tasks ? 0 : fail(llvm::toString(tasks.takeError()));
    }
  }
  if (onlyExportSpec) {
    auto db =
        RecordsDatabase::open(dbPath, RecordsDatabase::OpenMode::ReadOnly);
    if (!db)
      return fail(llvm::toString(db.takeError()));
    return writeTuningSpec(modelFile->getModule(), **db);
  }

  auto db =
      RecordsDatabase::open(dbPath, RecordsDatabase::OpenMode::CreateOrOpen);
  if (!db)
    return fail(llvm::toString(db.takeError()));
  TuneCallbacks callbacks = makeCallbacks();
  installStopSignalHandlers();
  TuneEnvironment environment;
  if (modelFile)
    environment.modelSource = modelFile->getSource().str();
  llvm::Expected<TuneResult> result =
      modelFile
          ? tune(modelFile->getModule(), options, **db, callbacks, environment)
          : rerun(&context, **db, rerunId, callbacks);
  if (llvm::sys::Process::StandardErrIsDisplayed() && !quiet)
    llvm::errs() << "\n";
  if (!result)
    return fail(llvm::toString(result.takeError()));
  result->printSummary(llvm::outs());

  if (!emitDir.empty() && modelFile) {
    if (llvm::Error e =
            emitTunedModel(modelFile->getModule(), *result, dbPath, emitDir))
      return fail(llvm::toString(std::move(e)));
    if (!quiet)
      llvm::errs() << "tessel-tune: best schedules and the compiled model in "
                   << emitDir << "\n";
  }
  if (!exportSpecFile.empty())
    if (int status = writeTuningSpec(modelFile->getModule(), **db))
      return status;
  if (!reportFile.empty())
    if (llvm::Error e = writeJsonFile(
            reportFile,
            result->toJSON(modelFile ? StringRef(inputFile) : StringRef())))
      return fail(llvm::toString(std::move(e)));
  if (int signal = receivedStopSignal()) {
    llvm::errs() << llvm::formatv(
        "tessel-tune: stopped by {0} after {1} trials; they are recorded in "
        "{2}\n",
        stopSignalName(signal), result->trials, dbPath);
    return 128 + signal;
  }
  return 0;
}
