//===- TuneOptions.h - Every knob of a tuning run ---------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// TuneOptions holds everything that decides what a tuning run measures: the
// measurer, the budget, the seed, the task scheduler, the strategy with its
// options, the cost model and the features. It is validated with messages
// that name the option and its allowed values, resolved to canonical form
// (every strategy, cost-model and feature option spelled out), and stored
// as JSON with the run's records, from which the run can be repeated.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_TUNER_TUNEOPTIONS_H
#define TESSEL_TUNING_TUNER_TUNEOPTIONS_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>

namespace mlir {
namespace tessel {

/// How much faster than the default the analytic simulator must predict a
/// sampled schedule for it to be measured as the task's analytic start
/// (TuneOptions::startSamples): its top pick has measured up to 3.44x the
/// measured best (docs/SimulatedGpu.md), so a predicted gain below 4x could
/// be its error.
inline constexpr double kAnalyticStartMargin = 4.0;

/// The options of one tuning run.
struct TuneOptions {
  /// The measurer: "cuda", "sim:<device>" (createMeasurer),
  /// "queue:<records db>": workers of `queueTarget` measure (docs/Queue.md),
  /// or "replay:<file>": times a GPU measured, replayed (docs/Replay.md).
  std::string measure = "sim:h100";
  /// Under queue:<db>: the device whose workers measure, sim:<device> or
  /// cuda:<device>.
  std::string queueTarget;
  /// Under sim:<device>: "compiled" (compile each candidate, time it with
  /// ptxas's resources) or "analytic" (time the schedule from its facts).
  std::string simFidelity = "compiled";
  /// Under analytic fidelity: also compile every candidate the analytic
  /// builder admits (the whole pipeline and ptxas) and record one that does
  /// not compile as a compile_error whose message starts with
  /// kNotCompiledPrefix. Times stay analytic, so a run whose candidates all
  /// compile has the records of the same run without the check. A check
  /// that the space's rules are the compiler's (docs/Tuning.md).
  bool checkCompiles = false;
  /// Relative standard deviation of the simulator's noise.
  double simNoise = 0.02;
  /// Under analytic fidelity: seconds of a virtual clock charged per
  /// measured candidate, added to the elapsed time.
  double simTrialSeconds = 0;
  /// Measurements in all (the default schedules not counted).
  int64_t trials = 1000;
  /// Candidates measured per round; 0: the strategy's default.
  int64_t measuresPerRound = 0;
  /// Stop after this many seconds; 0: no limit.
  double timeLimit = 0;
  uint64_t seed = 0;
  /// The task scheduler: "gradient-share" (the gradient rule after a
  /// warm-up in order of the tasks' share of the model's time), "gradient"
  /// (Ansor's: warm-up in task order) or "round-robin".
  std::string scheduler = "gradient-share";
  /// The strategy with its options: "evolutionary population=2048".
  std::string strategy = "evolutionary";
  /// The cost model and features with their options; empty: the strategy's
  /// defaults. Both stay empty for a strategy without a model.
  std::string costModel;
  std::string features;
  /// Continue from the records of the database for the same target.
  bool resume = false;
  /// Compile threads; 0: all cores. Does not change the records.
  int64_t jobs = 0;
  /// The CUDA toolkit (ptxas); empty: $CUDA_PATH or /usr/local/cuda.
  std::string cudaPath;
  /// Each candidate compiles in a child process that may add this many MiB
  /// to the tuner's address space (0: no limit) and run this many seconds
  /// (0: no limit); one that exceeds them is a compile error of its
  /// candidate (JobLimits). Do not change the records of candidates that
  /// compile.
  int64_t compileMemoryMiB = 4096;
  double compileTimeout = 300;
  /// Under the cuda measurer: milliseconds of kernel time each candidate is
  /// repeated for at least (docs/MeasureProtocol.md, `min_time_ms`).
  double cudaMinTimeMs = 100;
  /// Most shared-memory stages of a pipelined staging loop the search may
  /// choose (the `stages` knob, sm_80 and newer); 1: no pipelining. 2 by
  /// default: the search may double-buffer (docs/Tuning.md).
  int64_t maxStages = 2;
  /// Whether f16 contractions also get tensor_core sketches (mma.sync,
  /// sm_80 and newer); false leaves them out (an ablation).
  bool tensorCores = true;
  /// Whether f32 contractions also get tensor_core sketches computed in
  /// TF32 (inputs rounded to a 10-bit mantissa; results differ from strict
  /// fp32). Off by default; the tuned model compiles with `allow-tf32`.
  bool allowTf32 = false;
  /// Before the search, each task's default is compared with the best of
  /// this many sampled schedules as the analytic simulator predicts them
  /// (no measurement); one predicted kAnalyticStartMargin times faster is
  /// measured with the default, so a task the budget never reaches keeps
  /// the better of the two (docs/Tuning.md). 0: off, as in runs before it.
  int64_t startSamples = 256;
  /// Which kernels are one task: "structural" or "ignore-float-constants"
  /// (TaskEquality: kernels that differ only in the values of float
  /// constants, such as folded splat weights, share a task).
  std::string taskEquality = "structural";

  /// Checks every value. The error is one line naming the option as
  /// `name=value` and what is allowed ("trials=0 is out of range: at least
  /// 1", "strategy 'dgd': unknown option 'windw' (options: ...)").
  llvm::Error verify() const;

  /// verify(), then spells out the defaults: canonical strategy, cost-model
  /// and feature specs, and the strategy's measures per round when 0.
  llvm::Error resolve();

  /// The options as a JSON object (keys as in fromJSON).
  llvm::json::Object toJSON() const;

  /// Reads the options a run stored (toJSON()), for --rerun: keys left out
  /// take the values runs had before the key existed (`max_stages` 1,
  /// `start_samples` 0), others their defaults; unknown keys and values of
  /// the wrong type are errors.
  static llvm::Expected<TuneOptions> fromJSON(const llvm::json::Value &value);
  /// Reads the options a caller gives (the Python and C APIs): as
  /// fromJSON(), but every key left out keeps today's default.
  static llvm::Expected<TuneOptions>
  fromCallerJSON(const llvm::json::Value &value);
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_TUNER_TUNEOPTIONS_H
