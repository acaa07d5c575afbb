//===- BoundScores.h - Fasor's MS and CS labels -----------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Fasor labels each schedule with its memory-bound and compute-bound scores
// (MS, CS), measured with top-down counters (seed 004, section 4.1). Tessel
// has no counters; its substitutes are the fractions of the device's peaks
// a kernel achieves, from its kernel facts and its time: DRAM bytes / time
// over the peak DRAM bandwidth, and FLOP / time over the peak of the units
// it runs on (tensor cores for tensor_core kernels, FP32 lanes otherwise).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_FASOR_BOUNDSCORES_H
#define TESSEL_TUNING_STRATEGIES_FASOR_BOUNDSCORES_H

#include "tessel/Dialect/Tessel/Transforms/KernelFacts.h"
#include "tessel/Tuning/Device.h"

namespace mlir {
namespace tessel {
namespace fasor {

/// MS and CS, each in [0, 1].
struct BoundScores {
  double memoryBound = 0;
  double computeBound = 0;
};

/// The scores of a kernel with `facts` that ran in `timeUs` on `device`:
/// MS = (global bytes read + written) / time / `dramBandwidthGbps`; CS =
/// FLOP / time / the peak of the kernel's units (`tf32TensorPeakGflops` or
/// `fp16TensorPeakGflops` for tensor-core kernels, else `fp32PeakGflops`).
/// Each is clamped to [0, 1] (a simulated or cached run can exceed a peak);
/// both are 0 for a non-positive time or a device without the peak.
BoundScores getBoundScores(const KernelFacts &facts, double timeUs,
                           const DeviceDescription &device);

} // namespace fasor
} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_FASOR_BOUNDSCORES_H
