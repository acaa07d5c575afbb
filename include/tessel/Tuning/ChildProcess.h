//===- ChildProcess.h - A forked child that lives with its parent -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_CHILDPROCESS_H
#define TESSEL_TUNING_CHILDPROCESS_H

#include <string>
#include <sys/types.h>

namespace mlir {
namespace tessel {

/// Called first in a child forked by `parent` (the runner of CudaMeasurer,
/// the compile workers of runIsolatedJobs): its own process group, so that
/// a kill reaches everything it starts; SIGKILL when `parent` is gone (and
/// exit 127 if it already is), so that nothing it runs outlives the tuner;
/// SIGINT and SIGTERM ignored, since stop requests are the parent's to handle
/// (Slurm signals every process of a job step); stderr into `stderrPath`.
void prepareChildProcess(pid_t parent, const std::string &stderrPath);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_CHILDPROCESS_H
