//===- Timing.h - Timing GPU work with events -------------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The timing method of docs/MeasureProtocol.md ("Timing"), shared by
// tessel-cuda-runner (generated kernels) and tessel-vendor-bench (cuBLAS,
// cuDNN) so that their numbers compare: warm up for warmup_ms, then repeat
// until at least min_time_ms of measured time and min_repeats repeats (at
// most max_repeats); before each repeat flush L2 by writing a buffer twice
// its size, then bracket only the work with two CUDA events on the work's
// (non-default) stream. The result is the median of the repeats.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_TIMING_H
#define TESSEL_RUNTIME_TIMING_H

#include "tessel/Runtime/CudaDriver.h"
#include "tessel/Runtime/Statistics.h"

#include <functional>

namespace tessel {
namespace runtime {

/// How long to warm up and to measure.
struct TimingOptions {
  /// GPU time spent warming up (at least one run, flushes included).
  double warmupMs = 25;
  /// Measured time (the sum of the repeats) to reach.
  double minTimeMs = 100;
  int64_t minRepeats = 5;
  int64_t maxRepeats = 10000;
  /// Flush L2 before each repeat (warm-up runs included).
  bool flushL2 = true;
};

/// A buffer twice the size of L2, overwritten before each repeat so that no
/// repeat finds its inputs (or its predecessor's outputs) in L2.
class L2Flusher {
public:
  explicit L2Flusher(const CudaDriver &driver)
      : driver(&driver), buffer(driver) {}

  /// Allocates 2 * l2Bytes (at least 1 MiB, for devices that report none).
  Status allocate(size_t l2Bytes);
  /// Enqueues a memset of the whole buffer on `stream`, with a new byte
  /// value each time.
  Status flush(CUstream stream);
  size_t size() const { return buffer.size(); }
  /// Forgets the buffer without freeing it (after a sticky error).
  void release() { buffer.release(); }

private:
  const CudaDriver *driver;
  DeviceBuffer buffer;
  unsigned char value = 0;
};

/// Enqueues one run of the timed work on the stream, without synchronizing.
using TimedWork = std::function<Status()>;

/// Times `work` on `stream` (see the file comment); `flusher` may be null
/// when options.flushL2 is false. Returns the first failure of the work or
/// of the timing calls; on success fills `stats`.
Status timeRepeated(const CudaDriver &driver, CUstream stream,
                    L2Flusher *flusher, const TimingOptions &options,
                    const TimedWork &work, TimingStats &stats);

} // namespace runtime
} // namespace tessel

#endif // TESSEL_RUNTIME_TIMING_H
