//===- BoundScores.cpp - Fasor's MS and CS labels -------------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/BoundScores.h"

#include <algorithm>

using namespace mlir::tessel;
using namespace mlir::tessel::fasor;

BoundScores mlir::tessel::fasor::getBoundScores(const KernelFacts &facts,
                                                double timeUs,
                                                const DeviceDescription &device) {
  BoundScores scores;
  if (!(timeUs > 0))
    return scores;
  double seconds = timeUs * 1e-6;
  double bytes = static_cast<double>(facts.globalBytesRead) +
                 static_cast<double>(facts.globalBytesWritten);
  if (device.dramBandwidthGbps > 0)
    scores.memoryBound = std::clamp(
        bytes / seconds / (device.dramBandwidthGbps * 1e9), 0.0, 1.0);
  double peakGflops = device.fp32PeakGflops;
  if (facts.mmaTilesPerWarp > 0)
    peakGflops = facts.tf32 ? device.tf32TensorPeakGflops
                            : device.fp16TensorPeakGflops;
  if (peakGflops > 0)
    scores.computeBound =
        std::clamp(facts.flops / seconds / (peakGflops * 1e9), 0.0, 1.0);
  return scores;
}
