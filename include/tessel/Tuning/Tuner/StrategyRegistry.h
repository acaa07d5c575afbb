//===- StrategyRegistry.h - Search strategies by name -----------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Strategies are found by name, each with its own options in MLIR's
// pass-option syntax: `--strategy="evolutionary population=2048"`. A strategy
// is created with its options and what the run gives it: the device, the
// seed, and (for strategies with a learned model) the feature extractor and
// the cost model, which the run builds from their own registries.
//
// Adding a strategy: a folder lib/Tuning/Strategies/<Name>/ with its
// StrategyInfo, one line in lib/Tuning/Strategies/Registration.cpp, and its
// tests.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_TUNER_STRATEGYREGISTRY_H
#define TESSEL_TUNING_TUNER_STRATEGYREGISTRY_H

#include "tessel/Tuning/CostModel/CostModel.h"
#include "tessel/Tuning/Device.h"
#include "tessel/Tuning/Features/FeatureExtractor.h"
#include "tessel/Tuning/Registry.h"
#include "tessel/Tuning/Tuner/SearchDriver.h"
#include "tessel/Tuning/Tuner/Strategy.h"

namespace mlir {
namespace tessel {

/// What a run gives a strategy it creates.
struct StrategyEnvironment {
  DeviceDescription device;
  /// The run's seed.
  uint64_t seed = 0;
  /// The run's task scheduler (`--scheduler`), for a driver that schedules
  /// the tasks with createSchedulerDriver.
  std::string scheduler;
  /// The feature extractor and cost model of the run; null for strategies
  /// whose StrategyInfo::usesCostModel is false.
  std::unique_ptr<FeatureExtractor> features;
  std::unique_ptr<CostModel> costModel;
};

/// A registered strategy.
struct StrategyInfo : ComponentInfo {
  using Factory = std::function<llvm::Expected<std::unique_ptr<SearchStrategy>>(
      const ComponentOptions &options, StrategyEnvironment environment)>;
  /// Creates the strategy with options made by createOptions().
  Factory create;
  /// Whether the strategy takes a feature extractor and a cost model.
  bool usesCostModel = true;
  /// The cost model and features of a run that names none.
  std::string defaultCostModel = "xgboost";
  std::string defaultFeatures = "ansor";
  /// The strategy ranks candidates within a task (CostModelEnvironment).
  bool ranking = false;
  /// Candidates measured per round when the run does not say.
  int defaultMeasuresPerRound = 64;

  /// A strategy that tunes a model's tasks its own way (ETO: an operator
  /// set in tree order) makes the run's driver; null: the task scheduler
  /// drives `create`'s strategy (createSchedulerDriver).
  using DriverFactory =
      std::function<llvm::Expected<std::unique_ptr<SearchDriver>>(
          const ComponentOptions &options, StrategyEnvironment environment)>;
  DriverFactory createDriver;
};

/// The registry of strategies, with every strategy of
/// lib/Tuning/Strategies/Registration.cpp registered.
ComponentRegistry<StrategyInfo> &getStrategyRegistry();

/// Prints every strategy, cost model and feature set with its options,
/// defaults and help (tessel-tune --list-strategies).
void printTunerComponents(llvm::raw_ostream &os);

/// The three specs of a strategy, in canonical form (getCanonicalSpec): the
/// strategy's, and the cost model's and features' (empty when the strategy
/// uses none; its defaults when `costModel` or `features` is empty).
struct StrategySpecs {
  std::string strategy, costModel, features;
  /// The strategy's registry entry.
  const StrategyInfo *info = nullptr;
};

/// Parses and canonicalizes the specs; errors are one line and name the
/// component ("strategy 'dgd': unknown option 'windw' (options: ...)").
/// Naming a cost model or features for a strategy without a model is an
/// error.
llvm::Expected<StrategySpecs> resolveStrategySpecs(llvm::StringRef strategy,
                                                   llvm::StringRef costModel,
                                                   llvm::StringRef features);

/// Creates the strategy of `specs` (resolveStrategySpecs) on `device`, with
/// its cost model and features built from their registries. Fails when a
/// cost model loaded from a file does not fit the features' width.
llvm::Expected<std::unique_ptr<SearchStrategy>>
createStrategy(const StrategySpecs &specs, const DeviceDescription &device,
               uint64_t seed);

/// Shorthand: resolve and create ("psa target-size=32", "", "").
llvm::Expected<std::unique_ptr<SearchStrategy>>
createStrategy(llvm::StringRef strategy, const DeviceDescription &device,
               uint64_t seed, llvm::StringRef costModel = "",
               llvm::StringRef features = "");

/// The driver of a run of `specs`: the strategy's own (createDriver), or
/// the task scheduler `scheduler` over the strategy.
llvm::Expected<std::unique_ptr<SearchDriver>>
createSearchDriver(const StrategySpecs &specs, const DeviceDescription &device,
                   uint64_t seed, llvm::StringRef scheduler);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_TUNER_STRATEGYREGISTRY_H
