//===- CandidateCompiler.h - Candidates to launch plans, in parallel -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Compiles the candidates of a task with --tessel-to-cuda (format=bin) on a
// pool of worker threads, each with its own MLIRContext, into launch plans,
// and caches them by (workload, sketch, config).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_TUNER_CANDIDATECOMPILER_H
#define TESSEL_TUNING_TUNER_CANDIDATECOMPILER_H

#include "tessel/Tuning/Measure/LaunchPlan.h"
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
  /// `threads` workers (at least 1); `chip` and `cudaPath` as for
  /// --tessel-to-cuda.
  CandidateCompiler(const DialectRegistry &registry, std::string chip,
                    std::string cudaPath, unsigned threads);
  ~CandidateCompiler();

  /// One result per candidate, in order.
  std::vector<CompiledCandidate> compile(TuningTask &task,
                                         llvm::ArrayRef<Candidate> candidates);

  unsigned getThreads() const { return contexts.size(); }
  /// Candidates compiled (not served from the cache) so far.
  int64_t getCompiledCount() const { return compiled; }

private:
  std::string chip, cudaPath;
  std::vector<std::unique_ptr<MLIRContext>> contexts;
  llvm::StringMap<CompiledCandidate> cache;
  int64_t compiled = 0;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_TUNER_CANDIDATECOMPILER_H
