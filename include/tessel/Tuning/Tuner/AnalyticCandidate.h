//===- AnalyticCandidate.h - A schedule timed without compiling -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// `--sim-fidelity=analytic`: under `sim:<device>`, a candidate does not have
// to be compiled to be timed. Everything the simulated GPU reads follows from
// the schedule: the kernel facts (computeKernelFacts), the launch shape
// (getNumBlocks, getThreadsPerBlock), the shared memory of the staged tiles,
// and the search space's register estimate in place of ptxas's count. This
// is about a thousand times faster than compiling, which is what benchmark
// runs of the search methods on a machine without a GPU need; it models
// neither ptxas's register allocation nor its spills (docs/SimulatedGpu.md).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_TUNER_ANALYTICCANDIDATE_H
#define TESSEL_TUNING_TUNER_ANALYTICCANDIDATE_H

#include "tessel/Tuning/Measure/Measurer.h"
#include "tessel/Tuning/Tuner/Strategy.h"

#include <optional>
#include <string>

namespace mlir {
namespace tessel {

/// How `sim:<device>` gets the candidates it times.
enum class SimFidelity {
  /// Compile with --tessel-to-cuda and time the launch plan with ptxas's
  /// resources.
  Compiled,
  /// Time the schedule from its facts, without compiling.
  Analytic,
};

/// "compiled" or "analytic".
llvm::StringRef stringifySimFidelity(SimFidelity fidelity);
/// The inverse of stringifySimFidelity; std::nullopt for other strings.
std::optional<SimFidelity> symbolizeSimFidelity(llvm::StringRef text);

/// The search space of `candidate`'s sketch: the task's space it names, or,
/// when that space is of another sketch (the default schedule of a sketch
/// the search does not explore, such as a fused convolution's unstaged
/// register accumulator), one made for its sketch in `storage`. Fails when
/// the sketch does not fit the task's op.
FailureOr<const SearchSpace *>
getCandidateSpace(const TaskSearchState &state, const Candidate &candidate,
                  std::optional<SearchSpace> &storage);

/// The single-kernel candidate the simulated GPU times for `candidate` of
/// `state`'s task: grid and block from the config, registers from the search
/// space's estimate (no spills), static shared memory of the staged tiles,
/// and the kernel facts of the target op with its fused consumers.
/// `planFlops` is the task's FLOPs. Fails, with the reason in `why`, when the
/// facts cannot be computed (dynamic shapes, a config that does not fit).
FailureOr<MeasureCandidate> buildAnalyticCandidate(const TaskSearchState &state,
                                                   const Candidate &candidate,
                                                   std::string *why = nullptr);

/// A schedule the analytic simulator predicts best for `state`'s task, with
/// no measurement: the best of `samples` configs drawn with `rng` from the
/// task's spaces (skipping candidates `state` has seen), timed by a
/// noise-free `sim:<device>` seeded with `judgeSeed`. With `fallback` (the
/// default schedule) the pick must be predicted at least `margin` times
/// faster than it. std::nullopt when no sample qualifies. The predictions
/// go to `predictedUs` / `fallbackUs` when given (0 when there is none).
/// These are SIMULATED figures: the judge's pick has measured up to 3.44x
/// the measured best (docs/SimulatedGpu.md).
std::optional<Candidate>
pickAnalyticSchedule(TaskSearchState &state, const Candidate *fallback,
                     const DeviceDescription &device, int64_t samples,
                     RandomEngine &rng, uint64_t judgeSeed, double margin,
                     double *predictedUs = nullptr,
                     double *fallbackUs = nullptr);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_TUNER_ANALYTICCANDIDATE_H
