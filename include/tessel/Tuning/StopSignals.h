//===- StopSignals.h - SIGINT/SIGTERM as a stop request ---------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The command-line tools' handling of Ctrl-C, `kill` and Slurm's scancel: the
// first SIGINT or SIGTERM asks the tool to stop where its work can end
// cleanly (a tuner after its round, a worker after its item); a second one
// ends the process at once.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STOPSIGNALS_H
#define TESSEL_TUNING_STOPSIGNALS_H

namespace mlir {
namespace tessel {

/// Makes the first SIGINT or SIGTERM a stop request: the handler records the
/// signal and resets itself to the default, so the next one ends the
/// process. Call after llvm::InitLLVM, whose handlers it replaces for these
/// two signals.
void installStopSignalHandlers();

/// The signal that asked to stop (SIGINT or SIGTERM); 0 while none came.
int receivedStopSignal();

/// "SIGINT" or "SIGTERM" for receivedStopSignal().
const char *stopSignalName(int signal);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STOPSIGNALS_H
