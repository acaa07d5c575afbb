//===- IsolatedJobs.h - Jobs in child processes with limits -----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Runs jobs (compilations of candidates) each in a forked child process
// with a memory limit and a time limit, a few at a time, and returns what
// each job wrote, or why it has nothing: a schedule whose compilation
// allocates without bound, hangs or crashes ends its child, not the tuner,
// and is recorded as a compile error while the run goes on.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_TUNER_ISOLATEDJOBS_H
#define TESSEL_TUNING_TUNER_ISOLATEDJOBS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
namespace tessel {

/// The limits of each child.
struct JobLimits {
  /// Address space a child may add to what it inherits, in MiB; 0: no
  /// limit.
  int64_t memoryMiB = 4096;
  /// Seconds a child may run before it is killed; 0: no limit.
  double timeoutSeconds = 300;
};

/// What a job gave back.
struct JobOutcome {
  /// True when the child ran the job to its end; `output` is what it
  /// returned.
  bool finished = false;
  std::string output;
  /// Otherwise why not, one line: "ran out of memory (limit 4096 MiB)",
  /// "took longer than 300 s", "crashed (signal 11): <its last message>".
  std::string failure;
};

/// Runs `job(i)` for i in [0, count) in forked children, at most
/// `parallel` alive at once, and returns one outcome per job, in order. The
/// child inherits the caller's memory (MLIR contexts included) at the fork;
/// what it changes stays in the child. Call it from a thread that is alone
/// in using the state the jobs read.
std::vector<JobOutcome>
runIsolatedJobs(size_t count, llvm::function_ref<std::string(size_t)> job,
                unsigned parallel, const JobLimits &limits);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_TUNER_ISOLATEDJOBS_H
