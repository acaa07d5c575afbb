//===- RandomCostModel.cpp - Uniformly random scores ----------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/CostModel/RandomCostModel.h"

using namespace mlir;
using namespace mlir::tessel;

llvm::Error RandomCostModel::train(llvm::ArrayRef<FeatureVector> features,
                                   llvm::ArrayRef<double> throughputs) {
  return checkTrainingSet(features, throughputs);
}

llvm::Expected<std::vector<double>>
RandomCostModel::predict(llvm::ArrayRef<FeatureVector> features) {
  if (features.empty())
    return std::vector<double>();
  llvm::Expected<size_t> width = checkWidth(features, "predict");
  if (!width)
    return width.takeError();
  featureWidth = *width;
  std::vector<double> scores;
  scores.reserve(features.size());
  // The top 53 bits of the engine's output, scaled to [0, 1): unlike
  // std::uniform_real_distribution, the same on every standard library.
  for (size_t i = 0, e = features.size(); i < e; ++i)
    scores.push_back(static_cast<double>(engine() >> 11) * 0x1.0p-53);
  return scores;
}
