//===- Worker.cpp - A measurement worker of the queue ---------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Queue/Worker.h"

#include "tessel/Tuning/Measure/CandidateCodec.h"
#include "tessel/Tuning/Measure/SimulatedMeasurer.h"
#include "tessel/Tuning/Records/MeasurementQueue.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>
#include <unistd.h>

using namespace mlir;
using namespace mlir::tessel;
using llvm::Expected;
using llvm::StringRef;

/// What the queue writes for an item whose workers all died measuring it:
/// a failure without a device, which the tuner records on its target.
static std::string abandonedResult(int64_t attempts) {
  MeasureResult result;
  result.status = MeasureStatus::LaunchError;
  result.message = llvm::formatv("the queue gave up on it: {0} workers "
                                 "claimed it and none finished it",
                                 attempts);
  return encodeResult(result);
}

namespace {
/// Renews the lease of the item being measured every third of the lease,
/// over a connection of its own, until stopped: a live worker keeps its
/// item however long the measurement takes; a dead one loses it one lease
/// after its last heartbeat.
class Heartbeat {
public:
  /// `db` is used by the heartbeat's thread only, while it runs.
  Heartbeat(RecordsDatabase &db, const ClaimedItem &item, std::string worker,
            double leaseSeconds)
      : thread([this, &db, item, worker, leaseSeconds] {
          MeasurementQueue queue(db);
          std::unique_lock<std::mutex> lock(mutex);
          auto period = std::chrono::duration<double>(leaseSeconds / 3);
          while (!stopped) {
            if (wake.wait_for(lock, period, [&] { return stopped; }))
              break;
            llvm::Expected<bool> renewed =
                queue.renew(item, worker, leaseSeconds);
            if (!renewed)
              llvm::consumeError(renewed.takeError());
          }
        }) {}
  ~Heartbeat() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopped = true;
    }
    wake.notify_all();
    thread.join();
  }

private:
  std::mutex mutex;
  std::condition_variable wake;
  bool stopped = false;
  std::thread thread;
};
} // namespace

Expected<WorkerSummary> mlir::tessel::runWorker(const WorkerOptions &options) {
  auto log = [&](const llvm::Twine &line) {
    if (options.log)
      options.log(line.str());
  };
  Expected<CreatedMeasurer> created =
      createMeasurer(options.measure, options.measurer);
  if (!created)
    return created.takeError();
  if (!created->device)
    return llvm::createStringError(created->deviceError);
  Measurer &measurer = *created->measurer;
  auto *simulated = dynamic_cast<SimulatedMeasurer *>(&measurer);
  std::string target =
      (measurer.isSimulated() ? "sim:" : "cuda:") + created->device->id;

  auto db = RecordsDatabase::open(options.database,
                                  RecordsDatabase::OpenMode::CreateOrOpen);
  if (!db)
    return db.takeError();
  MeasurementQueue queue(**db);
  // The heartbeat's own connection: it renews leases while the main thread
  // measures.
  auto heartbeatDb = RecordsDatabase::open(
      options.database, RecordsDatabase::OpenMode::OpenExisting);
  if (!heartbeatDb)
    return heartbeatDb.takeError();
  std::string name = options.name;
  if (name.empty()) {
    char host[256] = "host";
    gethostname(host, sizeof(host) - 1);
    name = llvm::formatv("{0}:{1}", host, getpid()).str();
  }
  WorkerInfo info{name, target, measurer.name(), created->device->toJSON()};
  if (llvm::Error err = queue.registerWorker(info))
    return std::move(err);
  log(llvm::formatv("worker {0}: measuring for {1} with {2}{3}", name, target,
                    measurer.name(),
                    measurer.isSimulated() ? " (SIMULATED)" : ""));

  MLIRContext context;
  std::string referenceBatch;
  std::map<int64_t, std::shared_ptr<const ReferenceData>> references;
  WorkerSummary summary;
  summary.target = target;
  std::string abandoned = abandonedResult(options.maxAttempts);
  using Clock = std::chrono::steady_clock;
  Clock::time_point idleSince = Clock::now();
  while (options.maxItems == 0 ||
         summary.measured + summary.malformed + summary.lost <
             options.maxItems) {
    if (options.shouldStop && options.shouldStop()) {
      summary.stopRequested = true;
      break;
    }
    Expected<std::optional<ClaimedItem>> claimed = queue.claim(
        name, target, options.leaseSeconds, options.maxAttempts, abandoned);
    if (!claimed)
      return claimed.takeError();
    if (!*claimed) {
      double idle =
          std::chrono::duration<double>(Clock::now() - idleSince).count();
      if (options.maxIdleSeconds > 0 && idle >= options.maxIdleSeconds) {
        Expected<std::vector<std::string>> pending = queue.getPendingTargets();
        if (!pending)
          return pending.takeError();
        summary.otherTargets = llvm::join(*pending, ", ");
        break;
      }
      std::this_thread::sleep_for(
          std::chrono::duration<double>(options.pollSeconds));
      continue;
    }
    const ClaimedItem &item = **claimed;
    std::optional<Heartbeat> heartbeat;
    heartbeat.emplace(**heartbeatDb, item, name, options.leaseSeconds);
    MeasureResult result;
    // The reference data of the batch's candidates is written once, in the
    // first candidate that uses it: read it from there (and keep it while
    // the worker stays on the batch).
    if (item.batch != referenceBatch) {
      referenceBatch = item.batch;
      references.clear();
    }
    auto resolveReference = [&](int64_t position)
        -> Expected<std::shared_ptr<const ReferenceData>> {
      auto it = references.find(position);
      if (it != references.end())
        return it->second;
      Expected<std::optional<std::string>> text =
          queue.getCandidate(item.batch, position);
      if (!text)
        return text.takeError();
      if (!*text)
        return llvm::createStringError(
            "that item is gone (its batch was removed: the tuner stopped)");
      Expected<std::shared_ptr<const ReferenceData>> reference =
          decodeCandidateReference(**text);
      if (reference)
        references[position] = *reference;
      return reference;
    };
    Expected<MeasureCandidate> candidate =
        decodeCandidate(item.candidate, &context, resolveReference);
    // Items point only at the item that carries their reference, so the
    // worker that measured the carrier need not read it back.
    if (candidate && candidate->reference)
      references.try_emplace(item.position, candidate->reference);
    if (!candidate) {
      std::string why = llvm::toString(candidate.takeError());
      log(llvm::formatv("queue item {0}: malformed: {1}", item.id, why));
      ++summary.malformed;
      result.status = MeasureStatus::LaunchError;
      result.simulated = measurer.isSimulated();
      result.device = measurer.name();
      result.message = "malformed queue item: " + why;
    } else {
      if (simulated)
        simulated->reseed(item.noiseSeed);
      result = std::move(measurer.measure(*candidate).front());
      if (options.delaySeconds > 0)
        std::this_thread::sleep_for(
            std::chrono::duration<double>(options.delaySeconds));
    }
    heartbeat.reset();
    Expected<bool> finished = queue.finish(item, name, encodeResult(result));
    if (!finished)
      return finished.takeError();
    if (!*finished) {
      ++summary.lost;
      log(llvm::formatv("queue item {0}: it went to another worker (its "
                        "lease ran out) or its tuner withdrew it (the run "
                        "stopped); this result is dropped",
                        item.id));
    } else if (candidate) {
      ++summary.measured;
    }
    idleSince = Clock::now();
  }
  return summary;
}
