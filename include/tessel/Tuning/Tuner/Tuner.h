//===- Tuner.h - Tune the kernels of a model --------------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// tune() is a whole tuning run as a library call: it extracts the tasks of a
// model, measures each task's default schedule as the baseline, splits the
// trial budget over the tasks with Ansor's task scheduler, lets the strategy
// propose candidates, builds them (compiled or analytic), measures them, and
// commits every measurement to the records database as it arrives. The
// run's TuneOptions and the model's text are stored with its records, so
// that the run can be repeated.
//
//   TuneOptions options;
//   options.measure = "sim:h100";
//   options.strategy = "evolutionary population=512";
//   auto db = RecordsDatabase::open("model.db", OpenMode::CreateOrOpen);
//   auto result = tune(module, options, **db);
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_TUNER_TUNER_H
#define TESSEL_TUNING_TUNER_TUNER_H

#include "tessel/Tuning/Device.h"
#include "tessel/Tuning/Search/Task.h"
#include "tessel/Tuning/Tuner/Strategy.h"
#include "tessel/Tuning/Tuner/TuneOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

#include <functional>
#include <optional>
#include <vector>

namespace mlir {
namespace tessel {

class CandidateBuilder;
class Measurer;
class RecordsDatabase;

/// A measurement committed to the records.
struct TrialEvent {
  /// The task's index in TuneResult::tasks.
  size_t taskIndex = 0;
  const Trial &trial;
  /// The trial's number in the run (1, 2, ...); 0 for a default schedule,
  /// which the budget does not count.
  int64_t number = 0;
};

/// The state of the run after a round.
struct TuneProgress {
  /// The task of the round and the number of tasks.
  size_t taskIndex = 0, taskCount = 0;
  /// Trials measured so far and the budget.
  int64_t trials = 0, budget = 0;
  /// The best GFLOP/s of the round's task (0: none valid yet).
  double bestGflops = 0;
  /// Seconds since the start (with the virtual clock of simTrialSeconds).
  double elapsedSeconds = 0;
  bool simulated = false;

  /// "task 0/3 trials 64/1000 best 9000.0 GFLOP/s (simulated) elapsed 5 s
  /// ETA 73 s".
  std::string str() const;
};

/// Where a caller hears of the run.
struct TuneCallbacks {
  /// Lines for the user: the measurer, a resumed run.
  std::function<void(llvm::StringRef)> onNote;
  /// After each measurement is committed.
  std::function<void(const TrialEvent &)> onTrial;
  /// After each round.
  std::function<void(const TuneProgress &)> onRound;
  /// Asked after each round (after onRound): true ends the run there, as
  /// the time limit does; what was measured stays recorded and in the
  /// result (a frontend's interrupt, a failed callback).
  std::function<bool()> shouldStop;
};

/// Parts of the run the caller supplies instead of the ones `options` name
/// (tests, frontends with their own measurer).
struct TuneEnvironment {
  /// Measures instead of the measurer of `options.measure`; `device` must
  /// then be set too.
  Measurer *measurer = nullptr;
  std::optional<DeviceDescription> device;
  /// Builds candidates instead of the compiling or analytic builder.
  CandidateBuilder *builder = nullptr;
  /// The model's source text, stored with the run (empty: the module is
  /// printed).
  std::string modelSource;
};

/// The best schedule found for a task, and how the search got there.
struct TaskResult {
  /// The best valid trial, if any.
  std::optional<Trial> best;
  /// Trials of the task, with the default schedule and resumed ones.
  int64_t trials = 0;
  /// Of those, the ones the search measured (not the default schedule or
  /// the analytic start); 0: the search never reached the task.
  int64_t searchTrials = 0;
  /// The default schedule's latency; 0 when it has none or it failed.
  double defaultLatencyUs = 0;
  /// After each improvement: trial number, elapsed seconds, best GFLOP/s.
  struct CurvePoint {
    int64_t trial;
    double elapsedSeconds, bestGflops;
  };
  std::vector<CurvePoint> curve;
};

/// What a run did.
struct TuneResult {
  /// The run's row in the records database.
  int64_t runId = 0;
  /// The options as run, resolved (TuneOptions::resolve).
  TuneOptions options;
  /// The records' target: the measurer's name, with ":analytic" for the
  /// analytic simulator ("sim:h100-sxm:analytic").
  std::string target;
  /// The device's chip ("sm_90").
  std::string chip;
  bool simulated = false;
  /// The tasks of the model and, index for index, their results; after the
  /// first `modelTaskCount`, the tasks the driver added (ETO's bridges),
  /// tuned and recorded but not part of the model.
  std::vector<TuningTask> tasks;
  std::vector<TaskResult> results;
  size_t modelTaskCount = 0;
  /// Trials measured in this run (resumed ones included).
  int64_t trials = 0;
  /// Seconds in all (with the virtual clock), searching, and building and
  /// measuring; the virtual clock's share.
  double elapsedSeconds = 0, searchSeconds = 0, compileMeasureSeconds = 0,
         virtualSeconds = 0;
  /// Whether candidates were compiled, and how many.
  bool compiled = false;
  int64_t compiledCount = 0;

  /// Prints the per-task table (latency, GFLOP/s, trials, speedup over the
  /// default schedule) and the run's totals, as tessel-tune does.
  void printSummary(llvm::raw_ostream &os) const;
  /// The model's latency as tuned: the sum over the model's tasks of weight
  /// x best median latency (each task's kernel is its fused group, so this
  /// is what `tessel-run` times for the tuned model, up to noise and the
  /// kernels that are no task). 0 when a task of the model has no result.
  double getWeightedLatencyUs() const;
  /// The JSON report of tessel-tune --report (`model` names the input).
  llvm::json::Object toJSON(llvm::StringRef model) const;
};

/// Tunes the kernels of `model` (linalg on tensors) with `options`,
/// recording into `db`. Fails, with one line, on invalid options, a model
/// without tunable ops, a measurer or device that cannot be set up, or a
/// database error. A candidate that fails to build or run is recorded with
/// its status and the run goes on.
llvm::Expected<TuneResult> tune(ModuleOp model, const TuneOptions &options,
                                RecordsDatabase &db,
                                const TuneCallbacks &callbacks = {},
                                const TuneEnvironment &environment = {});

/// Writes, to directory `dir`, per task the best schedule of `result` as a
/// module with an upstream transform script (task<N>.transform.mlir), and
/// `model` with the best records of `dbPath` applied, compiled to cubins
/// (model.cubin.mlir).
llvm::Error emitTunedModel(ModuleOp model, TuneResult &result,
                           llvm::StringRef dbPath, llvm::StringRef dir);

/// Repeats run `runId` of `db`: its stored options (resume off) on its
/// stored model, parsed in `context`, recorded as a new run of `db`.
llvm::Expected<TuneResult> rerun(MLIRContext *context, RecordsDatabase &db,
                                 int64_t runId,
                                 const TuneCallbacks &callbacks = {});

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_TUNER_TUNER_H
