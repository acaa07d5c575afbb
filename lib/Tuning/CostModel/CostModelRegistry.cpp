//===- CostModelRegistry.cpp - Cost models by name ------------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/CostModel/CostModelRegistry.h"
#include "tessel/Tuning/CostModel/RandomCostModel.h"
#include "tessel/Tuning/CostModel/XGBoostCostModel.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {
/// The options of `xgboost` (XGBoostCostModelOptions).
struct XGBoostOptions : ComponentOptions {
  Option<std::string> treeMethod{
      *this,  "tree-method",
      "hist", "XGBoost's tree_method (exact: TVM's effective choice)",
      {},     {"hist", "exact", "approx"}};
  Option<std::string> objective{
      *this,
      "objective",
      "auto",
      "regression (Ansor's weighted squared error), rank (pairwise), or "
      "auto: rank for strategies that rank (psa), else regression",
      {},
      {"auto", "regression", "rank"}};
  Option<int> threads{*this,
                      "threads",
                      1,
                      "XGBoost threads (1 trains reproducibly)",
                      {1, 1024}};
  Option<std::string> init{
      *this, "init", "",
      "Continue boosting from this saved model (e.g. of another device)"};
  Option<std::string> save{*this, "save", "",
                           "Save the model here after every training"};
};
} // namespace

static llvm::Expected<std::unique_ptr<CostModel>>
createXGBoost(const ComponentOptions &options,
              const CostModelEnvironment &environment) {
  const auto &o = static_cast<const XGBoostOptions &>(options);
  XGBoostCostModelOptions xgb;
  xgb.seed = environment.seed;
  xgb.nthread = o.threads;
  xgb.treeMethod = o.treeMethod;
  bool rank = o.objective.getValue() == "rank" ||
              (o.objective.getValue() == "auto" && environment.ranking);
  xgb.objective =
      rank ? XGBoostObjective::PairwiseRank : XGBoostObjective::SquaredError;
  xgb.saveTo = o.save;
  auto model = std::make_unique<XGBoostCostModel>(xgb);
  const std::string &path = o.init;
  if (!path.empty()) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer)
      return llvm::createStringError("cannot read the cost model '" + path +
                                     "': " + buffer.getError().message());
    if (llvm::Error error = model->setBaseModel((*buffer)->getBuffer()))
      return llvm::createStringError("'" + path +
                                     "': " + llvm::toString(std::move(error)));
  }
  return std::unique_ptr<CostModel>(std::move(model));
}

ComponentRegistry<CostModelInfo> &tessel::getCostModelRegistry() {
  static ComponentRegistry<CostModelInfo> *registry = [] {
    auto *registry = new ComponentRegistry<CostModelInfo>("cost model");
    CostModelInfo xgboost;
    xgboost.name = "xgboost";
    xgboost.summary = "gradient-boosted trees (Ansor's model, XGBoost C API)";
    xgboost.createOptions = [] { return std::make_unique<XGBoostOptions>(); };
    xgboost.create = createXGBoost;
    registry->add(std::move(xgboost));
    CostModelInfo random;
    random.name = "random";
    random.summary = "random scores (an ablation: search without a model)";
    random.create = [](const ComponentOptions &,
                       const CostModelEnvironment &environment)
        -> llvm::Expected<std::unique_ptr<CostModel>> {
      return std::make_unique<RandomCostModel>(environment.seed);
    };
    registry->add(std::move(random));
    return registry;
  }();
  return *registry;
}

llvm::Expected<std::unique_ptr<CostModel>>
tessel::createCostModel(llvm::StringRef spec,
                        const CostModelEnvironment &environment) {
  auto parsed = getCostModelRegistry().parse(spec);
  if (!parsed)
    return parsed.takeError();
  return parsed->info->create(*parsed->options, environment);
}
