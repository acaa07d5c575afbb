//===- CandidateCompiler.h - Candidates to launch plans, in parallel -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Compiles the candidates of a task with --tessel-to-cuda (format=bin) into
// launch plans, each in a child process with a memory and a time limit (a
// few at a time), and caches them by (workload, sketch, config). A schedule
// whose compilation runs out of memory, hangs or crashes is a compile error
// of that candidate; the tuner goes on.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_TUNER_CANDIDATECOMPILER_H
#define TESSEL_TUNING_TUNER_CANDIDATECOMPILER_H

#include "tessel/Tuning/Measure/LaunchPlan.h"
#include "tessel/Tuning/Tuner/IsolatedJobs.h"
#include "tessel/Tuning/Tuner/Strategy.h"

#include "llvm/ADT/StringMap.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
class MLIRContext;
namespace tessel {

/// A compiled candidate: its plan, or why it did not compile.
struct CompiledCandidate {
  std::shared_ptr<const LaunchPlan> plan;
  std::string error;
};

/// Compiles candidates to launch plans.
class CandidateCompiler {
public:
  /// `processes` compile at once (at least 1), each within `limits`;
  /// `chip` and `cudaPath` as for --tessel-to-cuda.
  CandidateCompiler(const DialectRegistry &registry, std::string chip,
                    std::string cudaPath, unsigned processes,
                    JobLimits limits = {});
  ~CandidateCompiler();

  /// One result per candidate, in order.
  std::vector<CompiledCandidate> compile(TuningTask &task,
                                         llvm::ArrayRef<Candidate> candidates);
  /// One result per job, in order: candidates of several tasks compiled
  /// together (`processes` at a time across all of them).
  std::vector<CompiledCandidate> compile(llvm::ArrayRef<TaskCandidate> jobs);

  /// Candidates compiled (not served from the cache) so far.
  int64_t getCompiledCount() const { return compiled; }

private:
  std::string chip, cudaPath;
  unsigned processes;
  JobLimits limits;
  /// Compiles in the children; decodes their plans in the parent.
  std::unique_ptr<MLIRContext> context;
  llvm::StringMap<CompiledCandidate> cache;
  int64_t compiled = 0;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_TUNER_CANDIDATECOMPILER_H
