//===- FeatureExtractor.h - Features of scheduled candidates ----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A feature extractor turns one candidate (a linalg op, its fused consumers,
// a sketch and a config) into the fixed-width vector a cost model reads
// (include/tessel/Tuning/CostModel). Extractors work analytically: the loop
// nest that materialization builds is fully determined by the schedule, so
// nothing is compiled. Extractors are created by name; docs/Features.md lists
// them and their features.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_FEATURES_FEATUREEXTRACTOR_H
#define TESSEL_TUNING_FEATURES_FEATUREEXTRACTOR_H

#include "tessel/Dialect/Tessel/IR/TesselAttrs.h"
#include "tessel/Tuning/Device.h"
#include "tessel/Tuning/Registry.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
namespace tessel {

/// Computes the features of scheduled candidates. Every vector an extractor
/// returns has width() entries, in the order of featureNames().
class FeatureExtractor {
public:
  virtual ~FeatureExtractor();

  /// The name the extractor is created by, e.g. "ansor".
  virtual std::string name() const = 0;

  /// Number of features of every vector.
  virtual size_t width() const = 0;

  /// One short name per feature, width() in all (e.g. "compute.float_fma").
  /// The default names the features "f0", "f1", ...
  virtual std::vector<std::string> featureNames() const;

  /// The features of `op` scheduled by `sketch` and `config` on `device`,
  /// with its fused elementwise `fusedConsumers` (in chain order). Fails on
  /// dynamic shapes and on a config that does not fit the op; every value
  /// of a successful result is finite.
  virtual FailureOr<std::vector<float>>
  extract(linalg::LinalgOp op, ArrayRef<linalg::LinalgOp> fusedConsumers,
          SketchAttr sketch, ConfigAttr config,
          const DeviceDescription &device) const = 0;
};

/// A registered feature set.
struct FeatureSetInfo : ComponentInfo {
  std::function<std::unique_ptr<FeatureExtractor>()> create;
};

/// The registry of feature sets, with Tessel's own (`af`, `ansor`,
/// `pruner`) registered.
ComponentRegistry<FeatureSetInfo> &getFeatureSetRegistry();

/// Names of the extractors createFeatureExtractor() knows, sorted.
std::vector<std::string> getFeatureExtractorNames();

/// Creates the extractor called `name`; fails for unknown names, listing
/// the known ones.
llvm::Expected<std::unique_ptr<FeatureExtractor>>
createFeatureExtractor(llvm::StringRef name);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_FEATURES_FEATUREEXTRACTOR_H
