//===- CandidateBuilder.h - Candidates made ready to measure ----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A CandidateBuilder turns proposed schedules into what a Measurer takes:
// the compiling builder materializes each candidate and compiles it through
// --tessel-to-cuda and ptxas into a launch plan with cubins (in parallel,
// cached by schedule); the analytic builder computes the schedule's kernel
// facts without compiling, for the simulator's analytic fidelity.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_TUNER_CANDIDATEBUILDER_H
#define TESSEL_TUNING_TUNER_CANDIDATEBUILDER_H

#include "tessel/Tuning/Measure/Measurer.h"
#include "tessel/Tuning/Tuner/IsolatedJobs.h"
#include "tessel/Tuning/Tuner/Strategy.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
namespace tessel {

/// A candidate ready for the measurer, or why it could not be built.
struct BuiltCandidate {
  std::optional<MeasureCandidate> candidate;
  /// Why building failed (a compile error, a config that does not fit).
  std::string error;
};

/// Builds proposed candidates of a task for measurement.
class CandidateBuilder {
public:
  virtual ~CandidateBuilder();
  /// One result per candidate of `state`'s task, in order. `reference`
  /// (null: no verification) is attached to every built candidate.
  virtual std::vector<BuiltCandidate>
  build(const TaskSearchState &state, llvm::ArrayRef<Candidate> candidates,
        std::shared_ptr<const ReferenceData> reference) = 0;
  /// Builds now, all together, candidates that later build() calls will
  /// ask for (the default schedule of every task before the search starts):
  /// a builder that compiles compiles them in parallel and caches them;
  /// the others do nothing. Changes no result.
  virtual void prepare(llvm::ArrayRef<TaskCandidate> jobs) {}
  /// Whether candidates are compiled (false: analytic facts only).
  virtual bool compiles() const = 0;
  /// Candidates compiled so far (not served from a cache).
  virtual int64_t getCompiledCount() const { return 0; }
};

/// Compiles candidates for `chip` with the CUDA toolkit at `cudaPath`
/// (empty: the default) in `processes` child processes at a time, each
/// within `limits`, in a context with the dialects of `registry` (which
/// must hold Tessel's and the GPU pipeline's dialects, e.g. from
/// tessel::registerAllDialects).
std::unique_ptr<CandidateBuilder>
createCompilingBuilder(const DialectRegistry &registry, std::string chip,
                       std::string cudaPath, unsigned processes,
                       JobLimits limits = {});

/// Computes candidates' kernel facts without compiling
/// (buildAnalyticCandidate). The kernels it makes to check a candidate
/// near the kernel-size limit are made in a child process within `limits`.
std::unique_ptr<CandidateBuilder> createAnalyticBuilder(JobLimits limits = {});

/// How the message of a candidate that `analytic` admitted and `compiling`
/// rejected starts (createCompileCheckedBuilder).
inline constexpr llvm::StringLiteral kNotCompiledPrefix =
    "admitted by the search space, does not compile: ";

/// The candidates of `analytic` (facts without compiling), each of which is
/// also compiled by `compiling`: one that does not compile is an error
/// starting with kNotCompiledPrefix, one that does keeps its analytic
/// facts (TuneOptions::checkCompiles).
std::unique_ptr<CandidateBuilder>
createCompileCheckedBuilder(std::unique_ptr<CandidateBuilder> analytic,
                            std::unique_ptr<CandidateBuilder> compiling);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_TUNER_CANDIDATEBUILDER_H
