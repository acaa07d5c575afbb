//===- QueueMeasurer.cpp - Measuring through the measurement queue --------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Queue/QueueMeasurer.h"

#include "tessel/Tuning/Measure/CandidateCodec.h"
#include "tessel/Tuning/Records/MeasurementQueue.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Process.h"

#include <chrono>
#include <random>
#include <thread>
#include <unistd.h>

using namespace mlir;
using namespace mlir::tessel;
using llvm::Expected;
using llvm::StringRef;

Expected<std::string> mlir::tessel::resolveQueueTarget(StringRef spec) {
  StringRef id = spec;
  std::string kind;
  if (id.consume_front("sim:"))
    kind = "sim:";
  else if (id.consume_front("cuda:"))
    kind = "cuda:";
  else
    return llvm::createStringError(
        "queue target '" + spec +
        "' is neither sim:<device> nor cuda:<device>");
  Expected<DeviceDescription> device = findDevice(id);
  if (!device)
    return device.takeError();
  return kind + device->id;
}

/// splitmix64 of `value`: the noise seed of the n-th enqueued candidate.
static uint64_t mix(uint64_t value) {
  value += 0x9E3779B97F4A7C15ull;
  value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ull;
  value = (value ^ (value >> 27)) * 0x94D049BB133111EBull;
  return value ^ (value >> 31);
}

namespace {
class QueueMeasurer : public Measurer {
public:
  QueueMeasurer(std::unique_ptr<RecordsDatabase> db, std::string target,
                std::string measurerName, const QueueMeasurerOptions &options)
      : db(std::move(db)), queue(*this->db), target(std::move(target)),
        measurerName(std::move(measurerName)), options(options) {
    std::random_device random;
    char host[256] = "host";
    gethostname(host, sizeof(host) - 1);
    batchPrefix =
        llvm::formatv("{0}:{1}:{2:x8}", host, getpid(), random()).str();
  }

  std::string name() const override { return measurerName; }
  bool isSimulated() const override {
    return StringRef(target).starts_with("sim:");
  }
  std::vector<MeasureResult>
  measure(llvm::ArrayRef<MeasureCandidate> candidates) override;

private:
  /// A failed result for `candidate` saying `why`.
  MeasureResult failure(const MeasureCandidate &candidate,
                        const llvm::Twine &why) const {
    MeasureResult result;
    result.key = candidate.key;
    result.status = MeasureStatus::LaunchError;
    result.simulated = isSimulated();
    result.device = measurerName;
    result.message = why.str();
    return result;
  }
  /// Whether `result` comes from a worker of the target's device.
  bool accepts(const MeasureResult &result) const {
    if (isSimulated())
      return result.simulated && result.device == target;
    return !result.simulated && StringRef(result.device).starts_with("cuda:");
  }
  void note(const llvm::Twine &text) const {
    if (options.onNote)
      options.onNote(text.str());
  }

  std::unique_ptr<RecordsDatabase> db;
  MeasurementQueue queue;
  std::string target;
  std::string measurerName;
  QueueMeasurerOptions options;
  MLIRContext context;
  std::string batchPrefix;
  uint64_t batches = 0;
  uint64_t enqueued = 0;
  /// Whether the user was told that a wait was given up (told once).
  bool notedGivingUp = false;
};
} // namespace

std::vector<MeasureResult>
QueueMeasurer::measure(llvm::ArrayRef<MeasureCandidate> candidates) {
  std::vector<MeasureResult> results;
  results.reserve(candidates.size());
  std::string batch = batchPrefix + ":" + std::to_string(batches++);
  std::vector<QueueRequest> requests;
  // A task's candidates share one reference (inputs and expected outputs,
  // megabytes for large ops): the first candidate of the batch that uses it
  // carries it, the others point to that candidate's position.
  llvm::DenseMap<const ReferenceData *, int64_t> referencePositions;
  for (auto [position, candidate] : llvm::enumerate(candidates)) {
    CandidateEncoding encoding;
    if (const ReferenceData *reference = candidate.reference.get()) {
      auto [it, first] = referencePositions.try_emplace(
          reference, static_cast<int64_t>(position));
      if (!first)
        encoding.referenceAt = it->second;
    }
    requests.push_back({encodeCandidate(candidate, &context, encoding),
                        mix(options.seed * 0x100000001B3ull + enqueued++)});
  }
  if (llvm::Error err = queue.enqueue(batch, target, requests)) {
    std::string message = llvm::toString(std::move(err));
    for (const MeasureCandidate &candidate : candidates)
      results.push_back(failure(candidate, "cannot enqueue: " + message));
    return results;
  }

  using Clock = std::chrono::steady_clock;
  Clock::time_point start = Clock::now(), lastNote = start, lastTouch = start;
  double wait = std::min(options.pollSeconds, 0.01);
  std::string problem;
  bool gaveUp = false;
  while (true) {
    Expected<int64_t> unfinished = queue.countUnfinished(batch);
    if (!unfinished) {
      problem = llvm::toString(unfinished.takeError());
      break;
    }
    if (*unfinished == 0)
      break;
    if (options.shouldGiveUp && options.shouldGiveUp()) {
      gaveUp = true;
      break;
    }
    // Workers remove the batches of tuners that stopped touching them.
    if (Clock::now() - lastTouch >
        std::chrono::duration<double>(MeasurementQueue::kTouchSeconds)) {
      lastTouch = Clock::now();
      if (llvm::Error err = queue.touchBatch(batch))
        note("cannot touch batch " + batch + ": " +
             llvm::toString(std::move(err)));
    }
    if (Clock::now() - lastNote > std::chrono::seconds(30)) {
      lastNote = Clock::now();
      note(llvm::formatv(
          "waiting for workers of {0}: {1} of {2} "
          "measurements pending after {3:F0} s",
          target, *unfinished, candidates.size(),
          std::chrono::duration<double>(lastNote - start).count()));
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(wait));
    wait = std::min(wait * 2, options.pollSeconds);
  }

  std::vector<std::optional<MeasureResult>> byPosition(candidates.size());
  if (problem.empty()) {
    Expected<std::vector<FinishedItem>> finished = queue.getFinished(batch);
    if (!finished) {
      problem = llvm::toString(finished.takeError());
    } else {
      for (FinishedItem &item : *finished) {
        if (item.position < 0 ||
            item.position >= static_cast<int64_t>(candidates.size()))
          continue;
        const MeasureCandidate &candidate = candidates[item.position];
        Expected<MeasureResult> result = decodeResult(item.result);
        if (!result) {
          byPosition[item.position] =
              failure(candidate, "malformed result in the queue: " +
                                     llvm::toString(result.takeError()));
          continue;
        }
        result->key = candidate.key;
        if (result->device.empty()) {
          // Finished by the queue itself (its workers died).
          result->device = measurerName;
          result->simulated = isSimulated();
        } else if (!accepts(*result)) {
          byPosition[item.position] =
              failure(candidate, "refused a result from a worker of " +
                                     result->device + ", not " + target);
          continue;
        }
        byPosition[item.position] = std::move(*result);
      }
    }
  }
  if (llvm::Error err = queue.removeBatch(batch))
    note("cannot remove batch " + batch + ": " +
         llvm::toString(std::move(err)));
  // What workers finished after the decision to give up is kept too.
  int64_t withdrawn = gaveUp ? llvm::count(byPosition, std::nullopt) : 0;
  if (withdrawn > 0 && !notedGivingUp) {
    notedGivingUp = true;
    note(llvm::formatv("the run stopped while {0} of {1} measurements "
                       "waited for workers of {2}: they are withdrawn",
                       withdrawn, candidates.size(), target));
  }
  for (auto [candidate, result] : llvm::zip(candidates, byPosition)) {
    if (result) {
      results.push_back(std::move(*result));
    } else if (gaveUp) {
      MeasureResult withdrawn = failure(
          candidate, "not measured: the run stopped while it waited for "
                     "workers of " +
                         target);
      withdrawn.withdrawn = true;
      results.push_back(std::move(withdrawn));
    } else {
      results.push_back(failure(
          candidate, problem.empty() ? "no result in the queue" : problem));
    }
  }
  return results;
}

Expected<CreatedMeasurer>
mlir::tessel::createQueueMeasurer(const QueueMeasurerOptions &options) {
  if (options.target.empty())
    return llvm::createStringError(
        "--measure=queue:<db> needs --queue-target=sim:<device> or "
        "cuda:<device>: the device whose workers measure");
  Expected<std::string> target = resolveQueueTarget(options.target);
  if (!target)
    return target.takeError();
  StringRef id = StringRef(*target).split(':').second;
  Expected<DeviceDescription> device = findDevice(id);
  if (!device)
    return device.takeError();
  auto db = RecordsDatabase::open(options.database,
                                  RecordsDatabase::OpenMode::CreateOrOpen);
  if (!db)
    return db.takeError();
  // A GPU's records name the GPU as its driver does (`cuda:NVIDIA H100 80GB
  // HBM3`), as a local run's would: take the name from a registered worker
  // of the target, waiting for one to register. Without the wait, a tuner
  // started before its worker recorded under the target's name instead
  // (seen on an H100), and one GPU's records had two names.
  std::string measurerName = *target;
  if (StringRef(*target).starts_with("cuda:")) {
    MeasurementQueue queue(**db);
    using Clock = std::chrono::steady_clock;
    Clock::time_point start = Clock::now(), lastNote = start;
    while (true) {
      Expected<std::vector<WorkerInfo>> workers = queue.getWorkers(*target);
      if (!workers)
        return workers.takeError();
      if (!workers->empty()) {
        measurerName = workers->front().measurer;
        break;
      }
      if (options.shouldGiveUp && options.shouldGiveUp())
        return llvm::createStringError(llvm::formatv(
            "no worker of {0} registered in the queue {1} before the run "
            "stopped (its time limit or a stop request) after {2:F0} s",
            *target, options.database,
            std::chrono::duration<double>(Clock::now() - start).count()));
      if (Clock::now() - lastNote > std::chrono::seconds(30)) {
        lastNote = Clock::now();
        if (options.onNote)
          options.onNote(
              llvm::formatv(
                  "waiting for a worker of {0} to register (its GPU names the "
                  "records) after {1:F0} s",
                  *target,
                  std::chrono::duration<double>(lastNote - start).count())
                  .str());
      }
      std::this_thread::sleep_for(
          std::chrono::duration<double>(options.workerPollSeconds));
    }
  }
  CreatedMeasurer created;
  created.device = *device;
  created.measurer = std::make_unique<QueueMeasurer>(std::move(*db), *target,
                                                     measurerName, options);
  return created;
}
