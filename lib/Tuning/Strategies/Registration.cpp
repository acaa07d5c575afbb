//===- Registration.cpp - The strategies Tessel knows ---------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// To add a strategy: its folder beside this file, its add_subdirectory in
// CMakeLists.txt, and one line below.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/CostModel/CostModelRegistry.h"
#include "tessel/Tuning/Strategies/Dgd/DgdStrategy.h"
#include "tessel/Tuning/Strategies/Eto/EtoDriver.h"
#include "tessel/Tuning/Strategies/Evolutionary/EvolutionaryStrategy.h"
#ifdef TESSEL_HAVE_FASOR
#include "tessel/Tuning/Strategies/Fasor/FasorStrategy.h"
#endif
#include "tessel/Tuning/Strategies/Psa/PsaStrategy.h"
#include "tessel/Tuning/Strategies/Random/RandomStrategy.h"
#include "tessel/Tuning/Tuner/StrategyRegistry.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tessel;

ComponentRegistry<StrategyInfo> &tessel::getStrategyRegistry() {
  static ComponentRegistry<StrategyInfo> *registry = [] {
    auto *registry = new ComponentRegistry<StrategyInfo>("strategy");
    registry->add(getRandomStrategyInfo());
    registry->add(getEvolutionaryStrategyInfo());
    registry->add(getDgdStrategyInfo());
    registry->add(getPsaStrategyInfo());
    registry->add(getEtoStrategyInfo());
    registry->add(getEtoTopKStrategyInfo());
#ifdef TESSEL_HAVE_FASOR
    registry->add(getFasorStrategyInfo());
#endif
    return registry;
  }();
  return *registry;
}

llvm::Expected<StrategySpecs>
tessel::resolveStrategySpecs(llvm::StringRef strategy,
                             llvm::StringRef costModel,
                             llvm::StringRef features) {
  StrategySpecs specs;
  auto parsed = getStrategyRegistry().parse(strategy);
  if (!parsed)
    return parsed.takeError();
  specs.info = parsed->info;
  specs.strategy = getCanonicalSpec(specs.info->name, *parsed->options);
  if (!specs.info->usesCostModel) {
    if (!costModel.empty() || !features.empty())
      return llvm::createStringError("strategy '" + specs.info->name +
                                     "' uses no cost model or features");
    return specs;
  }
  auto model = getCostModelRegistry().canonicalize(
      costModel.empty() ? llvm::StringRef(specs.info->defaultCostModel)
                        : costModel);
  if (!model)
    return model.takeError();
  auto featureSet = getFeatureSetRegistry().canonicalize(
      features.empty() ? llvm::StringRef(specs.info->defaultFeatures)
                       : features);
  if (!featureSet)
    return featureSet.takeError();
  specs.costModel = std::move(*model);
  specs.features = std::move(*featureSet);
  return specs;
}

llvm::Expected<std::unique_ptr<SearchStrategy>>
tessel::createStrategy(const StrategySpecs &specs,
                       const DeviceDescription &device, uint64_t seed) {
  auto parsed = getStrategyRegistry().parse(specs.strategy);
  if (!parsed)
    return parsed.takeError();
  StrategyEnvironment environment;
  environment.device = device;
  environment.seed = seed;
  if (parsed->info->usesCostModel) {
    auto features = createFeatureExtractor(specs.features);
    if (!features)
      return features.takeError();
    CostModelEnvironment modelEnvironment;
    modelEnvironment.seed = seed;
    modelEnvironment.ranking = parsed->info->ranking;
    auto model = createCostModel(specs.costModel, modelEnvironment);
    if (!model)
      return model.takeError();
    std::optional<size_t> width = (*model)->getFeatureWidth();
    if (width && *width != (*features)->width())
      return llvm::createStringError(llvm::formatv(
          "cost model '{0}' has feature width {1}, but the '{2}' features "
          "have {3}",
          specs.costModel, *width, (*features)->name(), (*features)->width()));
    environment.features = std::move(*features);
    environment.costModel = std::move(*model);
  }
  if (parsed->info->createDriver)
    return llvm::createStringError(
        "strategy '" + parsed->info->name +
        "' drives a whole run; it has no per-task strategy");
  return parsed->info->create(*parsed->options, std::move(environment));
}

llvm::Expected<std::unique_ptr<SearchDriver>>
tessel::createSearchDriver(const StrategySpecs &specs,
                           const DeviceDescription &device, uint64_t seed,
                           llvm::StringRef scheduler) {
  auto parsed = getStrategyRegistry().parse(specs.strategy);
  if (!parsed)
    return parsed.takeError();
  if (parsed->info->createDriver) {
    StrategyEnvironment environment;
    environment.device = device;
    environment.seed = seed;
    environment.scheduler = scheduler.str();
    return parsed->info->createDriver(*parsed->options, std::move(environment));
  }
  auto strategy = createStrategy(specs, device, seed);
  if (!strategy)
    return strategy.takeError();
  return createSchedulerDriver(std::move(*strategy), scheduler, seed);
}

llvm::Expected<std::unique_ptr<SearchStrategy>>
tessel::createStrategy(llvm::StringRef strategy,
                       const DeviceDescription &device, uint64_t seed,
                       llvm::StringRef costModel, llvm::StringRef features) {
  auto specs = resolveStrategySpecs(strategy, costModel, features);
  if (!specs)
    return specs.takeError();
  return createStrategy(*specs, device, seed);
}

void tessel::printTunerComponents(llvm::raw_ostream &os) {
  os << "Strategies (--strategy=\"NAME option=value ...\"):\n";
  for (const StrategyInfo *info : getStrategyRegistry().getAll())
    printComponentHelp(os, *info);
  os << "Cost models (--cost-model=\"NAME option=value ...\"):\n";
  for (const CostModelInfo *info : getCostModelRegistry().getAll())
    printComponentHelp(os, *info);
  os << "Feature sets (--features=NAME):\n";
  for (const FeatureSetInfo *info : getFeatureSetRegistry().getAll())
    printComponentHelp(os, *info);
}
