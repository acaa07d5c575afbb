//===- AnsorFeatures.h - Ansor's statement features -------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The "ansor" feature extractor: the per-statement features of Ansor's cost
// model (Zheng et al., OSDI 2020, appendix B) computed from the loop nest
// that a sketch and a config describe. A kernel has three kinds of
// statements: the op's body (compute), the cooperative shared-memory copies
// (one per staged operand) and the fused consumers. Each kind gets one block
// of statement features (statements of the same kind are summed), followed by
// a block of kernel-wide features. docs/Features.md lists every feature.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_FEATURES_ANSORFEATURES_H
#define TESSEL_TUNING_FEATURES_ANSORFEATURES_H

#include "tessel/Tuning/Features/FeatureExtractor.h"

namespace mlir {
namespace tessel {

/// Buffers described per statement; more are dropped (smallest first), fewer
/// leave zeros.
constexpr unsigned kAnsorMaxBuffers = 5;
/// Features of one buffer access.
constexpr unsigned kAnsorBufferFeatures = 21;
/// Samples of the arithmetic-intensity curve.
constexpr unsigned kAnsorCurveSamples = 10;
/// Features of one statement block.
constexpr unsigned kAnsorStatementFeatures =
    18 + 3 * 11 + 7 + kAnsorCurveSamples +
    kAnsorMaxBuffers * kAnsorBufferFeatures + 3;
/// Statement blocks: compute, shared copies, fused consumers.
constexpr unsigned kAnsorStatementBlocks = 3;
/// Kernel-wide features after the statement blocks.
constexpr unsigned kAnsorKernelFeatures = 17;
/// Width of an "ansor" feature vector.
constexpr unsigned kAnsorFeatureWidth =
    kAnsorStatementBlocks * kAnsorStatementFeatures + kAnsorKernelFeatures;
/// Cache line size, in bytes, of the line features.
constexpr int64_t kAnsorCacheLineBytes = 128;

/// Ansor's features of a scheduled candidate (see the file comment).
class AnsorFeatureExtractor : public FeatureExtractor {
public:
  std::string name() const override { return "ansor"; }
  size_t width() const override { return kAnsorFeatureWidth; }
  std::vector<std::string> featureNames() const override;
  FailureOr<std::vector<float>>
  extract(linalg::LinalgOp op, ArrayRef<linalg::LinalgOp> fusedConsumers,
          SketchAttr sketch, ConfigAttr config,
          const DeviceDescription &device) const override;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_FEATURES_ANSORFEATURES_H
