//===- AnalyticalFeatures.h - The seven analytical features -----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The "af" feature extractor: the seven analytical features of Li et al.,
// "Accelerated Auto-Tuning of GPU Kernels for Tensor Computations" (ICS'24,
// section 4.1): three operational intensities (global -> shared memory,
// shared memory -> registers with bank conflicts, registers -> global
// memory), two measures of concurrency (ILP, WLP), the estimated occupancy
// and the wave efficiency. The paper gives a formula only for the wave
// efficiency; the others are derived from its descriptions and written out
// in docs/AnalyticalFeatures.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_FEATURES_ANALYTICALFEATURES_H
#define TESSEL_TUNING_FEATURES_ANALYTICALFEATURES_H

#include "tessel/Tuning/Features/FeatureExtractor.h"
#include "tessel/Tuning/Occupancy.h"

namespace mlir {
namespace tessel {

/// Width of an "af" feature vector.
constexpr unsigned kAnalyticalFeatureWidth = 7;

/// The counts the seven features are made of (whole grid, in elements or
/// warp-level transactions; see docs/AnalyticalFeatures.md).
struct AnalyticalQuantities {
  /// Arithmetic operations of the op and its fused consumers (an FMA counts
  /// 2, as in KernelFacts::flops).
  double ops = 0;
  /// Elements loaded from global memory: shared-memory buffer sizes times
  /// the trips around the buffering statement (blocks x staging steps), and
  /// the per-thread loads of unstaged inputs.
  double globalReads = 0;
  /// Warp-level shared-memory load transactions into registers, each load
  /// multiplied by its bank-conflict degree.
  double sharedTransactions = 0;
  /// Elements moved between registers and global memory for the result:
  /// the result once with a register accumulator, else a read and a write
  /// per iteration of the reduction.
  double outputTraffic = 0;
  /// Independent accumulators of a thread (its register tile of outputs).
  int64_t registerTile = 1;
  int64_t blocks = 0;
  int64_t threadsPerBlock = 0;
  int64_t registersPerThread = 0;
  int64_t sharedMemoryBytes = 0;
  /// Occupancy on the device under the resource estimates above.
  Occupancy occupancy;
};

/// The seven features, in the order of the vector.
struct AnalyticalFeatures {
  double oiGlobalMem = 0;
  double oiSharedMem = 0;
  double regReuseFactor = 0;
  double ilp = 0;
  double wlp = 0;
  double estimatedOccupancy = 0;
  double waveEfficiency = 0;

  std::vector<float> toVector() const;
};

/// Useful waves over executed waves of a grid of `blocks` blocks on `smCount`
/// SMs holding `blocksPerSm` blocks each: W / ceil(W) with
/// W = blocks / (smCount * blocksPerSm). 0 when any argument is not positive.
/// 128 SMs, 320 blocks, 1 block per SM: 2.5 / 3 = 0.83.
double computeWaveEfficiency(int64_t blocks, int64_t blocksPerSm,
                             int64_t smCount);

/// Bank-conflict degree of the shared-memory loads of staged input
/// `inputIndex` by the threads of a warp: gcd(stride, banks) for a stride of
/// `stride` 4-byte words between the elements adjacent threads read, 1 for a
/// broadcast (stride 0) or when no loop is split over threads.
int64_t getSharedBankConflictDegree(linalg::LinalgOp op, SketchAttr sketch,
                                    ConfigAttr config, int64_t inputIndex,
                                    int64_t banks = 32);

/// The quantities of `op` (with its fused `consumers`) under `sketch` and
/// `config` on `device`. Fails on dynamic shapes and on a config that does
/// not fit the op.
FailureOr<AnalyticalQuantities>
computeAnalyticalQuantities(linalg::LinalgOp op,
                            ArrayRef<linalg::LinalgOp> consumers,
                            SketchAttr sketch, ConfigAttr config,
                            const DeviceDescription &device);

/// The features made of `quantities` on `device`.
AnalyticalFeatures computeAnalyticalFeatures(const AnalyticalQuantities &q,
                                             const DeviceDescription &device);

/// The "af" extractor (see the file comment).
class AnalyticalFeatureExtractor : public FeatureExtractor {
public:
  std::string name() const override { return "af"; }
  size_t width() const override { return kAnalyticalFeatureWidth; }
  /// OI_Global_Mem, OI_Shared_Mem, Reg_Reuse_Factor, ILP, WLP,
  /// Estimated_Occupancy, Wave_Efficiency (the paper's names).
  std::vector<std::string> featureNames() const override;
  FailureOr<std::vector<float>>
  extract(linalg::LinalgOp op, ArrayRef<linalg::LinalgOp> fusedConsumers,
          SketchAttr sketch, ConfigAttr config,
          const DeviceDescription &device) const override;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_FEATURES_ANALYTICALFEATURES_H
