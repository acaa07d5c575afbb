//===- Timing.cpp - Timing GPU work with events ---------------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Runtime/Timing.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace tessel::runtime;

Status L2Flusher::allocate(size_t l2Bytes) {
  return buffer.allocate(std::max<size_t>(2 * l2Bytes, 1 << 20));
}

Status L2Flusher::flush(CUstream stream) {
  ++value;
  return driver->check(
      (*driver)->cuMemsetD8Async(buffer.get(), value, buffer.size(), stream),
      "cuMemsetD8Async (L2 flush)");
}

namespace {

/// At most this many repeats are enqueued before the host waits for them.
constexpr int64_t kMaxBatch = 1000;

/// Runs batches of repeats, reusing its events.
class BatchRunner {
public:
  BatchRunner(const CudaDriver &driver, CUstream stream, L2Flusher *flusher,
              const TimedWork &work)
      : driver(driver), stream(stream), flusher(flusher), work(work) {}

  ~BatchRunner() {
    for (CUevent event : events)
      driver->cuEventDestroy(event);
  }

  /// Runs `count` repeats: [flush, start event, work, end event] each.
  /// Appends each repeat's time (us) to `samplesUs` and sets `batchMs` to
  /// the time of the whole batch, flushes included.
  Status run(int64_t count, std::vector<double> &samplesUs, double &batchMs) {
    size_t needed = 2 * static_cast<size_t>(count) + 2;
    while (events.size() < needed) {
      CUevent event;
      Status status = driver.check(
          driver->cuEventCreate(&event, CU_EVENT_DEFAULT), "cuEventCreate");
      if (!status.ok())
        return status;
      events.push_back(event);
    }
    Status status = record(events[0]);
    for (int64_t i = 0; status.ok() && i < count; ++i) {
      if (flusher)
        status = flusher->flush(stream);
      if (status.ok())
        status = record(events[2 + 2 * i]);
      if (status.ok())
        status = work();
      if (status.ok())
        status = record(events[3 + 2 * i]);
    }
    if (status.ok())
      status = record(events[1]);
    if (!status.ok())
      return status;
    status = driver.check(driver->cuEventSynchronize(events[1]),
                          "waiting for the timed work");
    if (!status.ok())
      return status;
    if (!(status = elapsedMs(events[0], events[1], batchMs)).ok())
      return status;
    for (int64_t i = 0; i < count; ++i) {
      double ms;
      if (!(status = elapsedMs(events[2 + 2 * i], events[3 + 2 * i], ms)).ok())
        return status;
      samplesUs.push_back(ms * 1000);
    }
    return Status::success();
  }

private:
  Status record(CUevent event) {
    return driver.check(driver->cuEventRecord(event, stream), "cuEventRecord");
  }

  Status elapsedMs(CUevent start, CUevent end, double &ms) {
    float elapsed = 0;
    Status status = driver.check(
        driver->cuEventElapsedTime(&elapsed, start, end), "cuEventElapsedTime");
    ms = elapsed;
    return status;
  }

  const CudaDriver &driver;
  CUstream stream;
  L2Flusher *flusher;
  const TimedWork &work;
  std::vector<CUevent> events;
};

} // namespace

Status tessel::runtime::timeRepeated(const CudaDriver &driver, CUstream stream,
                                     L2Flusher *flusher,
                                     const TimingOptions &options,
                                     const TimedWork &work,
                                     TimingStats &stats) {
  BatchRunner runner(driver, stream, options.flushL2 ? flusher : nullptr, work);

  // Warm up: batches that grow while they are short, sized from the time
  // per repeat seen so far so that the warm-up ends near warmupMs.
  std::vector<double> samplesUs;
  double warmupMs = 0;
  int64_t count = 1;
  while (true) {
    samplesUs.clear();
    double batchMs = 0;
    Status status = runner.run(count, samplesUs, batchMs);
    if (!status.ok())
      return status;
    warmupMs += batchMs;
    double remainingMs = options.warmupMs - warmupMs;
    if (remainingMs <= 0)
      break;
    double perRepeatMs = std::max(batchMs / static_cast<double>(count), 1e-3);
    count = std::clamp<int64_t>(
        static_cast<int64_t>(std::ceil(remainingMs / perRepeatMs)), 1,
        std::min<int64_t>(2 * count, kMaxBatch));
  }
  double estimateUs = TimingStats::fromSamples(samplesUs).medianUs;

  // Measure.
  samplesUs.clear();
  double measuredMs = 0;
  while (true) {
    int64_t done = static_cast<int64_t>(samplesUs.size());
    if ((measuredMs >= options.minTimeMs && done >= options.minRepeats) ||
        done >= options.maxRepeats)
      break;
    double missingUs = (options.minTimeMs - measuredMs) * 1000;
    int64_t wanted = std::max<int64_t>(
        options.minRepeats - done,
        static_cast<int64_t>(std::ceil(missingUs / std::max(estimateUs, 0.5))));
    wanted = std::clamp<int64_t>(
        wanted, 1, std::min<int64_t>(options.maxRepeats - done, kMaxBatch));
    double batchMs = 0;
    Status status = runner.run(wanted, samplesUs, batchMs);
    if (!status.ok())
      return status;
    measuredMs = 0;
    for (double sample : samplesUs)
      measuredMs += sample / 1000;
    estimateUs = TimingStats::fromSamples(samplesUs).medianUs;
  }
  stats = TimingStats::fromSamples(samplesUs);
  return Status::success();
}
