//===- CostModelRegistry.h - Cost models by name ----------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The cost models a tuning run can use, by name, each with its options:
// `--cost-model="xgboost tree-method=exact"`, `--cost-model=random`.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_COSTMODEL_COSTMODELREGISTRY_H
#define TESSEL_TUNING_COSTMODEL_COSTMODELREGISTRY_H

#include "tessel/Tuning/CostModel/CostModel.h"
#include "tessel/Tuning/Registry.h"

#include <cstdint>
#include <memory>

namespace mlir {
namespace tessel {

/// What a cost model is created for.
struct CostModelEnvironment {
  /// The run's seed.
  uint64_t seed = 0;
  /// The strategy ranks candidates within a task (a pairwise ranking
  /// objective suits it); used where the model's own option says `auto`.
  bool ranking = false;
};

/// A registered cost model.
struct CostModelInfo : ComponentInfo {
  std::function<llvm::Expected<std::unique_ptr<CostModel>>(
      const ComponentOptions &, const CostModelEnvironment &)>
      create;
};

/// The registry of cost models, with Tessel's own (`xgboost`, `random`)
/// registered.
ComponentRegistry<CostModelInfo> &getCostModelRegistry();

/// Parses `spec` and creates the cost model; errors are one line.
llvm::Expected<std::unique_ptr<CostModel>>
createCostModel(llvm::StringRef spec, const CostModelEnvironment &environment);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_COSTMODEL_COSTMODELREGISTRY_H
