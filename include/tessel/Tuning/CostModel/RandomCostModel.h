//===- RandomCostModel.h - Uniformly random scores --------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A CostModel that ignores its training data and scores every candidate
// uniformly at random in [0, 1): the baseline of ablations, and what TVM
// predicts before it has enough records to train a model.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_COSTMODEL_RANDOMCOSTMODEL_H
#define TESSEL_TUNING_COSTMODEL_RANDOMCOSTMODEL_H

#include "tessel/Tuning/CostModel/CostModel.h"

#include <cstdint>
#include <random>

namespace mlir {
namespace tessel {

/// Scores candidates uniformly at random. The same seed and the same
/// sequence of calls give the same scores on every platform.
class RandomCostModel : public CostModel {
public:
  explicit RandomCostModel(uint64_t seed = 0) : engine(seed) {}

  llvm::StringRef name() const override { return "random"; }

  /// Checks the arguments (as every CostModel does) and learns nothing.
  llvm::Error train(llvm::ArrayRef<FeatureVector> features,
                    llvm::ArrayRef<double> throughputs) override;

  /// One score in [0, 1) per vector; works before train().
  llvm::Expected<std::vector<double>>
  predict(llvm::ArrayRef<FeatureVector> features) override;

private:
  std::mt19937_64 engine;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_COSTMODEL_RANDOMCOSTMODEL_H
