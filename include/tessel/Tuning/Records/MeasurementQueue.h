//===- MeasurementQueue.h - Measurements handed to workers ------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The measurement queue lives in a records database (the `queue_items` and
// `queue_workers` tables, docs/Queue.md): a tuner enqueues encoded
// candidates for a target ("sim:h100-sxm", "cuda:h100-sxm"), workers of that
// target claim them one at a time under a lease, measure them and write the
// encoded result; the tuner reads the results of its batch back and records
// them as measurements. A claim is atomic (PostgreSQL: FOR UPDATE SKIP
// LOCKED); an item whose worker died is claimed again once its lease has
// run out, and a result is accepted only from the worker holding the
// item's current claim, so each item has one result.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_RECORDS_MEASUREMENTQUEUE_H
#define TESSEL_TUNING_RECORDS_MEASUREMENTQUEUE_H

#include "tessel/Tuning/Records/RecordsDatabase.h"

#include <optional>

namespace mlir {
namespace tessel {

/// One item to enqueue.
struct QueueRequest {
  /// encodeCandidate() text.
  std::string candidate;
  /// The seed of a simulated measurement's noise, so that the result does
  /// not depend on which worker measured the item, or when.
  uint64_t noiseSeed = 0;
};

/// An item a worker claimed.
struct ClaimedItem {
  int64_t id = 0;
  /// The item's batch and its position there.
  std::string batch;
  int64_t position = 0;
  std::string candidate;
  uint64_t noiseSeed = 0;
  /// Claims of the item so far, this one included.
  int64_t attempt = 0;
};

/// A done item of a batch.
struct FinishedItem {
  /// The item's position in its batch.
  int64_t position = 0;
  /// encodeResult() text.
  std::string result;
};

/// A registered worker.
struct WorkerInfo {
  std::string name;
  std::string target;
  /// The worker's measurer, e.g. "cuda:NVIDIA H100 80GB HBM3".
  std::string measurer;
  std::string deviceJson;
};

/// The queue of a records database; it shares the database's connection.
class MeasurementQueue {
public:
  explicit MeasurementQueue(RecordsDatabase &db) : db(db) {}

  /// Adds `requests` for `target` as batch `batch` (positions 0..N-1), in one
  /// transaction.
  llvm::Error enqueue(llvm::StringRef batch, llvm::StringRef target,
                      llvm::ArrayRef<QueueRequest> requests);
  /// The done items of `batch`.
  llvm::Expected<std::vector<FinishedItem>> getFinished(llvm::StringRef batch);
  /// Items of `batch` not done yet.
  llvm::Expected<int64_t> countUnfinished(llvm::StringRef batch);
  /// Records that the tuner of `batch` is alive (it waits for the batch).
  llvm::Error touchBatch(llvm::StringRef batch);
  /// Removes the items of `batch`.
  llvm::Error removeBatch(llvm::StringRef batch);

  /// The candidate text of the item at `position` of `batch`, whatever its
  /// state; std::nullopt when there is no such item (its batch was
  /// removed).
  llvm::Expected<std::optional<std::string>> getCandidate(llvm::StringRef batch,
                                                          int64_t position);

  /// Records (or refreshes) worker `info`.
  llvm::Error registerWorker(const WorkerInfo &info);
  /// The registered workers of `target`, oldest first.
  llvm::Expected<std::vector<WorkerInfo>> getWorkers(llvm::StringRef target);

  /// Claims the oldest item of `target` that is pending, or claimed under a
  /// lease that ran out, for `leaseSeconds`; std::nullopt when there is
  /// none. Items claimed `maxAttempts` times whose lease ran out are first
  /// finished with `abandonedResult` (their workers died measuring them),
  /// and unclaimed items whose tuner has not touched them for
  /// `orphanSeconds` are removed (their tuner died).
  llvm::Expected<std::optional<ClaimedItem>>
  claim(llvm::StringRef worker, llvm::StringRef target, double leaseSeconds,
        int64_t maxAttempts, llvm::StringRef abandonedResult,
        double orphanSeconds = kOrphanSeconds);
  /// How long a batch's tuner may stay silent before its batch is taken for
  /// an orphan; tuners touch their batch every kTouchSeconds.
  static constexpr double kOrphanSeconds = 120;
  static constexpr double kTouchSeconds = 10;
  /// Extends the lease of `item` as claimed by `worker` to `leaseSeconds`
  /// from now (a live worker's heartbeat); false when the claim is no
  /// longer the item's current one.
  llvm::Expected<bool> renew(const ClaimedItem &item, llvm::StringRef worker,
                             double leaseSeconds);
  /// Writes the result of `item` as claimed by `worker`; false (and nothing
  /// written) when the claim is no longer the item's current one.
  llvm::Expected<bool> finish(const ClaimedItem &item, llvm::StringRef worker,
                              llvm::StringRef result);
  /// The targets that have pending items, sorted.
  llvm::Expected<std::vector<std::string>> getPendingTargets();

private:
  RecordsDatabase &db;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_RECORDS_MEASUREMENTQUEUE_H
