//===- QueueMeasurer.h - Measuring through the measurement queue -*- C++
//-*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// `--measure=queue:<db>`: a Measurer that measures nothing itself. Each
// measure() call enqueues its candidates as one batch in the measurement
// queue of the records database <db> and waits until workers
// (tessel-worker, Worker.h) of the queue target have measured them all
// (docs/Queue.md). Only results of the target's device are accepted.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_QUEUE_QUEUEMEASURER_H
#define TESSEL_TUNING_QUEUE_QUEUEMEASURER_H

#include "tessel/Tuning/Measure/MeasurerFactory.h"

#include <functional>

namespace mlir {
namespace tessel {

/// The queue target of a measurer spec: "sim:<device id>" for sim:<device>,
/// "cuda:<device id>" for cuda:<device> (a GPU of that description). Fails
/// on other specs and unknown devices.
llvm::Expected<std::string> resolveQueueTarget(llvm::StringRef spec);

struct QueueMeasurerOptions {
  /// The records database holding the queue (a file or a postgresql:// URL).
  std::string database;
  /// The measurer spec the workers must serve: sim:<device> or cuda:<device>.
  std::string target;
  /// Seeds the noise of simulated measurements, item by item.
  uint64_t seed = 0;
  /// How often to look for results, in seconds.
  double pollSeconds = 0.05;
  /// Under a cuda: target, how often to look for the first worker to
  /// register, in seconds: the tuner waits for one, whose GPU names the
  /// records.
  double workerPollSeconds = 0.5;
  /// Notes while waiting for workers (one every 30 s of waiting).
  std::function<void(llvm::StringRef)> onNote;
  /// Asked while waiting (for the first worker of a cuda: target, for a
  /// batch's results): true ends the wait. The tuner answers with its
  /// --time-limit and its stop request. Creation then fails; a batch keeps
  /// the results its workers finished, leaves the queue, and its other
  /// candidates come back withdrawn (MeasureResult::withdrawn).
  std::function<bool()> shouldGiveUp;
};

/// A queue measurer; its device is the target's description. Under a cuda:
/// target it first waits for a worker of the target to register and takes
/// the records' measurer name from it (e.g. `cuda:NVIDIA H100 80GB HBM3`).
llvm::Expected<CreatedMeasurer>
createQueueMeasurer(const QueueMeasurerOptions &options);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_QUEUE_QUEUEMEASURER_H
