//===- Worker.h - A measurement worker of the queue -------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The loop of tessel-worker: register with the queue of a records database,
// claim an item of this worker's target, measure it with the worker's own
// measurer (the isolated GPU measurer, or the simulator), write the result,
// repeat (docs/Queue.md).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_QUEUE_WORKER_H
#define TESSEL_TUNING_QUEUE_WORKER_H

#include "tessel/Tuning/Measure/MeasurerFactory.h"

#include <functional>
#include <string>

namespace mlir {
namespace tessel {

struct WorkerOptions {
  /// The records database holding the queue.
  std::string database;
  /// The worker's measurer: cuda or sim:<device>.
  std::string measure = "sim:h100";
  /// The worker's name in the queue; empty: <host>:<pid>.
  std::string name;
  MeasurerOptions measurer;
  /// How long a claim lasts without a heartbeat: the worker renews it every
  /// third of this while it measures; one whose lease runs out is taken
  /// for dead and its item is handed out again.
  double leaseSeconds = 60;
  /// Claims of one item before it is finished as a failure.
  int64_t maxAttempts = 3;
  /// Seconds slept after each measurement (a stand-in for GPU time in
  /// simulated demos).
  double delaySeconds = 0;
  /// Stop after this many seconds without work; 0: never.
  double maxIdleSeconds = 0;
  /// Stop after this many items; 0: never.
  int64_t maxItems = 0;
  /// How often an idle worker looks for work, in seconds.
  double pollSeconds = 0.1;
  /// Asked before each claim and while idle: true stops the worker after
  /// the item it holds is finished and written (tessel-worker: SIGTERM,
  /// SIGINT). Null: never.
  std::function<bool()> shouldStop;
  /// One line per event worth a log line.
  std::function<void(llvm::StringRef)> log;
};

struct WorkerSummary {
  /// The queue target this worker served, e.g. "sim:h100-sxm".
  std::string target;
  /// Items measured and finished by this worker.
  int64_t measured = 0;
  /// Items whose candidate could not be read (finished as failures).
  int64_t malformed = 0;
  /// Items whose claim had passed to another worker when this one
  /// finished them (its result was dropped).
  int64_t lost = 0;
  /// Set when the worker stopped idle while the queue held work for other
  /// targets only: which ones.
  std::string otherTargets;
  /// Set when the worker stopped because shouldStop asked it to.
  bool stopRequested = false;
};

/// Runs the worker until maxItems, maxIdleSeconds or shouldStop; fails on a
/// database or measurer error.
llvm::Expected<WorkerSummary> runWorker(const WorkerOptions &options);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_QUEUE_WORKER_H
