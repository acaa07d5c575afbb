//===- CostModel.cpp - Learned cost models of candidates ------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/CostModel/CostModel.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <cassert>
#include <cmath>

using namespace mlir;
using namespace mlir::tessel;

CostModel::~CostModel() = default;

static llvm::Error makeError(llvm::StringRef model,
                             const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 model + " cost model: " + message);
}

llvm::Expected<size_t>
CostModel::checkWidth(llvm::ArrayRef<FeatureVector> features,
                      llvm::StringRef what) const {
  if (features.empty())
    return featureWidth.value_or(0);
  size_t width = featureWidth ? *featureWidth : features.front().size();
  if (width == 0)
    return makeError(name(), what + ": feature vectors are empty");
  for (auto [index, vector] : llvm::enumerate(features)) {
    if (vector.size() == width)
      continue;
    if (featureWidth)
      return makeError(name(),
                       llvm::formatv("{0}: feature vector {1} has width {2}, "
                                     "but the model's feature width is {3}",
                                     what, index, vector.size(), width));
    return makeError(name(),
                     llvm::formatv("{0}: feature vector {1} has width {2}, "
                                   "but feature vector 0 has width {3}",
                                   what, index, vector.size(), width));
  }
  return width;
}

llvm::Error CostModel::checkTrainingSet(llvm::ArrayRef<FeatureVector> features,
                                        llvm::ArrayRef<double> throughputs) {
  if (features.empty())
    return makeError(name(), "train: no training records");
  if (features.size() != throughputs.size())
    return makeError(name(),
                     llvm::formatv("train: {0} feature vectors but {1} "
                                   "throughputs",
                                   features.size(), throughputs.size()));
  for (auto [index, throughput] : llvm::enumerate(throughputs))
    if (!std::isfinite(throughput) || throughput < 0)
      return makeError(name(), llvm::formatv("train: throughput {0} is {1}; "
                                             "throughputs must be finite and "
                                             "non-negative",
                                             index, throughput));
  llvm::Expected<size_t> width = checkWidth(features, "train");
  if (!width)
    return width.takeError();
  featureWidth = *width;
  return llvm::Error::success();
}

std::vector<double>
mlir::tessel::normalizeThroughputs(llvm::ArrayRef<double> throughputs,
                                   llvm::ArrayRef<unsigned> taskIds) {
  assert((taskIds.empty() || taskIds.size() == throughputs.size()) &&
         "one task id per throughput");
  auto taskOf = [&](size_t i) { return taskIds.empty() ? 0u : taskIds[i]; };
  llvm::DenseMap<unsigned, double> best;
  for (size_t i = 0, e = throughputs.size(); i < e; ++i) {
    double &max = best[taskOf(i)];
    max = std::max(max, throughputs[i]);
  }
  std::vector<double> normalized(throughputs.size(), 0.0);
  for (size_t i = 0, e = throughputs.size(); i < e; ++i) {
    double max = best.lookup(taskOf(i));
    if (max > 0)
      normalized[i] = throughputs[i] / max;
  }
  return normalized;
}
