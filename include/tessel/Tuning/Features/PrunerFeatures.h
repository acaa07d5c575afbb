//===- PrunerFeatures.h - Pruner's pattern-aware features -------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The "pruner" feature extractor: the "ansor" statement features followed by
// the data-flow features of Pruner's pattern-aware cost model (Qiao et al.,
// section 3.3): the buffers of the multi-tiling pattern (global -> shared ->
// registers), in the order the data moves, each described by 23 values;
// slots the schedule lacks (no staging, one staged operand, no fused
// consumer) are zeros. docs/Pruner.md lists the slots and the values.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_FEATURES_PRUNERFEATURES_H
#define TESSEL_TUNING_FEATURES_PRUNERFEATURES_H

#include "tessel/Tuning/Features/AnsorFeatures.h"

namespace mlir {
namespace tessel {

/// Buffers of the data-flow pattern: per staged operand (two) its global
/// source and shared copy, the compute statement's shared reads (two), its
/// accumulator and the kernel's last store.
constexpr unsigned kDataFlowSlots = 8;
/// Values per buffer: log2(1 + flops of its statement), Ansor's 21 buffer
/// features, log2(1 + allocated bytes).
constexpr unsigned kDataFlowBufferFeatures = 23;
/// Width of the data-flow block.
constexpr unsigned kDataFlowWidth = kDataFlowSlots * kDataFlowBufferFeatures;
/// Width of a "pruner" feature vector.
constexpr unsigned kPrunerFeatureWidth = kAnsorFeatureWidth + kDataFlowWidth;

/// The statement features of "ansor" and Pruner's data-flow features.
class PrunerFeatureExtractor : public FeatureExtractor {
public:
  std::string name() const override { return "pruner"; }
  size_t width() const override { return kPrunerFeatureWidth; }
  std::vector<std::string> featureNames() const override;
  FailureOr<std::vector<float>>
  extract(linalg::LinalgOp op, ArrayRef<linalg::LinalgOp> fusedConsumers,
          SketchAttr sketch, ConfigAttr config,
          const DeviceDescription &device) const override;

private:
  AnsorFeatureExtractor statements;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_FEATURES_PRUNERFEATURES_H
