//===- XGBoostCostModel.h - Gradient-boosted-tree cost model ----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Ansor's cost model (§5.2): gradient-boosted trees (XGBoost, through its C
// API) trained from scratch on all the records of a task each round, on
// throughputs normalized by the task's best, with TVM auto_scheduler's
// hyperparameters. See docs/CostModel.md for where each default comes from
// and how the objective departs from TVM's pack-sum loss.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_COSTMODEL_XGBOOSTCOSTMODEL_H
#define TESSEL_TUNING_COSTMODEL_XGBOOSTCOSTMODEL_H

#include "tessel/Tuning/CostModel/CostModel.h"

#include <cstdint>
#include <string>

namespace mlir {
namespace tessel {

/// The loss that the trees minimize.
enum class XGBoostObjective {
  /// `reg:squarederror` on normalized throughputs, each sample weighted by
  /// its normalized throughput (TVM's weights). The default.
  SquaredError,
  /// `rank:pairwise`: only the order of the throughputs matters.
  PairwiseRank,
};

/// The hyperparameters of XGBoostCostModel. The defaults are TVM
/// auto_scheduler's (python/tvm/auto_scheduler/cost_model/xgb_model.py),
/// except nthread (TVM: half the cores).
struct XGBoostCostModelOptions {
  /// Maximum depth of a tree.
  int maxDepth = 10;
  /// Minimum loss reduction to split a leaf.
  double gamma = 0.001;
  /// Minimum sum of hessians in a child.
  double minChildWeight = 0;
  /// Learning rate.
  double eta = 0.2;
  /// Most boosting rounds per train().
  int maxRounds = 10000;
  /// Training stops after this many rounds without improving the training
  /// metric (RMSE of the normalized throughputs, or 1 - their Spearman
  /// correlation for PairwiseRank); the trees after the best round are
  /// dropped.
  int earlyStoppingRounds = 50;
  /// XGBoost's random seed (TVM: 43).
  uint64_t seed = 43;
  /// Threads XGBoost uses; 1 makes training reproducible bit for bit.
  int nthread = 1;
  XGBoostObjective objective = XGBoostObjective::SquaredError;
  /// XGBoost's tree_method. TVM leaves it at `auto`, which is `exact` for
  /// data of this size; `hist` trains about 8x faster with the same rank
  /// quality on tuning records (docs/CostModel.md).
  std::string treeMethod = "hist";
  /// When set, the model is written here (whole or not at all) after every
  /// successful training.
  std::string saveTo;
};

/// A CostModel of gradient-boosted trees. Each train() retrains from scratch
/// on the given records; predict() before any train() or load fails.
class XGBoostCostModel : public CostModel {
public:
  explicit XGBoostCostModel(XGBoostCostModelOptions options = {});
  ~XGBoostCostModel() override;
  XGBoostCostModel(const XGBoostCostModel &) = delete;
  XGBoostCostModel &operator=(const XGBoostCostModel &) = delete;

  llvm::StringRef name() const override { return "xgboost"; }

  /// Normalizes `throughputs` by their maximum (one task; normalize per
  /// task beforehand with normalizeThroughputs() for records of several
  /// tasks) and boosts a new model on them.
  llvm::Error train(llvm::ArrayRef<FeatureVector> features,
                    llvm::ArrayRef<double> throughputs) override;

  /// Like train(), on records of several groups (tasks): `groups[i]` is the
  /// group of record i (empty: one group). Throughputs are normalized per
  /// group; the ranking objective only compares records of one group (the
  /// rows are sorted by group for XGBoost) and its training metric is the
  /// mean over groups of 1 - Spearman's correlation.
  llvm::Error trainGrouped(llvm::ArrayRef<FeatureVector> features,
                           llvm::ArrayRef<double> throughputs,
                           llvm::ArrayRef<unsigned> groups);

  /// Makes every later train() continue boosting from the model that save()
  /// produced in `buffer` (e.g. trained on another device's records): its
  /// trees are kept and new trees fit the new records on top of them. Fails
  /// if the buffer is not a model or its feature width differs from this
  /// model's. An empty buffer removes the base model.
  llvm::Error setBaseModel(llvm::StringRef buffer);
  /// Boosting rounds of the base model (0 without one).
  int getBaseRounds() const { return baseRounds; }

  llvm::Expected<std::vector<double>>
  predict(llvm::ArrayRef<FeatureVector> features) override;

  /// Whether a model was trained or loaded.
  bool isTrained() const { return booster != nullptr; }

  /// Boosting rounds kept by the last train(), base rounds included (0 when
  /// untrained).
  int getNumRounds() const { return numRounds; }

  /// Serializes the trained model (XGBoost's UBJSON format, which also
  /// records the feature width).
  llvm::Expected<std::string> save() const;

  /// Replaces the model with one that save() produced. Fails if the
  /// buffer is not a model, or if its feature width differs from the width
  /// this model already uses.
  llvm::Error load(llvm::StringRef buffer);

  const XGBoostCostModelOptions &getOptions() const { return options; }

  /// The version of the XGBoost library in use, e.g. "1.7.4".
  static std::string getXGBoostVersion();

private:
  /// Writes the model to options.saveTo, when set (errors are dropped: a
  /// snapshot that cannot be written must not stop the tuning).
  void saveIfAsked() const;
  XGBoostCostModelOptions options;
  /// The XGBoost BoosterHandle; null until trained or loaded.
  void *booster = nullptr;
  int numRounds = 0;
  /// The serialized base model of setBaseModel(), and its rounds.
  std::string baseModel;
  int baseRounds = 0;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_COSTMODEL_XGBOOSTCOSTMODEL_H
