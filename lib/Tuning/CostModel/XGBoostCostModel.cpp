//===- XGBoostCostModel.cpp - Gradient-boosted-tree cost model ------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/CostModel/XGBoostCostModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"

#include <xgboost/c_api.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Frees a DMatrixHandle.
struct DMatrixDeleter {
  void operator()(void *handle) const { XGDMatrixFree(handle); }
};
using DMatrix = std::unique_ptr<void, DMatrixDeleter>;

/// Frees a BoosterHandle.
struct BoosterDeleter {
  void operator()(void *handle) const { XGBoosterFree(handle); }
};
using Booster = std::unique_ptr<void, BoosterDeleter>;

} // namespace

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "xgboost cost model: " + message);
}

/// Turns the return code of an XGBoost C API call into an llvm::Error that
/// carries XGBGetLastError()'s text.
static llvm::Error check(int rc, llvm::StringRef call) {
  if (rc == 0)
    return llvm::Error::success();
  const char *text = XGBGetLastError();
  return makeError(call +
                   " failed: " + (text && *text ? text : "(no message)"));
}

/// A dense DMatrix of `features` (all `width` wide, checked by the caller).
static llvm::Expected<DMatrix>
createMatrix(llvm::ArrayRef<FeatureVector> features, size_t width) {
  std::vector<float> data;
  data.reserve(features.size() * width);
  for (const FeatureVector &vector : features)
    data.insert(data.end(), vector.begin(), vector.end());
  DMatrixHandle handle = nullptr;
  if (llvm::Error error =
          check(XGDMatrixCreateFromMat(data.data(), features.size(), width,
                                       std::numeric_limits<float>::quiet_NaN(),
                                       &handle),
                "XGDMatrixCreateFromMat"))
    return std::move(error);
  return DMatrix(handle);
}

/// The predictions of all trees of `booster` for the rows of `matrix`.
static llvm::Expected<std::vector<double>> predictMatrix(void *booster,
                                                         void *matrix) {
  static const char *config = R"({"type": 0, "training": false,
      "iteration_begin": 0, "iteration_end": 0, "strict_shape": false})";
  const bst_ulong *shape = nullptr;
  bst_ulong dim = 0;
  const float *result = nullptr;
  if (llvm::Error error =
          check(XGBoosterPredictFromDMatrix(booster, matrix, config, &shape,
                                            &dim, &result),
                "XGBoosterPredictFromDMatrix"))
    return std::move(error);
  bst_ulong size = 1;
  for (bst_ulong i = 0; i < dim; ++i)
    size *= shape[i];
  return std::vector<double>(result, result + size);
}

/// The root mean square error of `predictions` (TVM's p-rmse).
static double rmse(llvm::ArrayRef<double> predictions,
                   llvm::ArrayRef<float> labels) {
  double sum = 0;
  for (auto [prediction, label] : llvm::zip_equal(predictions, labels))
    sum += (prediction - label) * (prediction - label);
  return std::sqrt(sum / labels.size());
}

/// The ranks of `values` from 0, ties sharing their mean rank.
static std::vector<double> getRanks(llvm::ArrayRef<double> values) {
  std::vector<size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::stable_sort(order,
                    [&](size_t a, size_t b) { return values[a] < values[b]; });
  std::vector<double> ranks(values.size());
  for (size_t begin = 0, end; begin < order.size(); begin = end) {
    for (end = begin + 1;
         end < order.size() && values[order[end]] == values[order[begin]];
         ++end)
      ;
    for (size_t i = begin; i < end; ++i)
      ranks[order[i]] = 0.5 * (begin + end - 1);
  }
  return ranks;
}

/// Spearman's rank correlation of `predictions` and `labels` (the Pearson
/// correlation of their ranks); 0 when either is constant.
static double spearman(llvm::ArrayRef<double> predictions,
                       llvm::ArrayRef<float> labels) {
  std::vector<double> x = getRanks(predictions);
  std::vector<double> y =
      getRanks(std::vector<double>(labels.begin(), labels.end()));
  double mean = 0.5 * (x.size() - 1);
  double xy = 0, xx = 0, yy = 0;
  for (size_t i = 0, e = x.size(); i < e; ++i) {
    xy += (x[i] - mean) * (y[i] - mean);
    xx += (x[i] - mean) * (x[i] - mean);
    yy += (y[i] - mean) * (y[i] - mean);
  }
  return xx > 0 && yy > 0 ? xy / std::sqrt(xx * yy) : 0;
}

/// Sets the parameters that predictions and training share.
static llvm::Error setCommonParams(void *booster,
                                   const XGBoostCostModelOptions &options) {
  std::string nthread = std::to_string(options.nthread);
  if (llvm::Error error =
          check(XGBoosterSetParam(booster, "nthread", nthread.c_str()),
                "XGBoosterSetParam(nthread)"))
    return error;
  return check(XGBoosterSetParam(booster, "verbosity", "0"),
               "XGBoosterSetParam(verbosity)");
}

XGBoostCostModel::XGBoostCostModel(XGBoostCostModelOptions options)
    : options(options) {}

XGBoostCostModel::~XGBoostCostModel() {
  if (booster)
    XGBoosterFree(booster);
}

std::string XGBoostCostModel::getXGBoostVersion() {
  int major = 0, minor = 0, patch = 0;
  XGBoostVersion(&major, &minor, &patch);
  return llvm::formatv("{0}.{1}.{2}", major, minor, patch).str();
}

llvm::Error XGBoostCostModel::train(llvm::ArrayRef<FeatureVector> features,
                                    llvm::ArrayRef<double> throughputs) {
  return trainGrouped(features, throughputs, {});
}

/// The mean over the groups (consecutive runs of equal ids in `groups`, all
/// rows when empty) of 1 - Spearman's correlation.
static double rankMetric(llvm::ArrayRef<double> predictions,
                         llvm::ArrayRef<float> labels,
                         llvm::ArrayRef<unsigned> groups) {
  if (groups.empty())
    return 1 - spearman(predictions, labels);
  double sum = 0;
  int count = 0;
  for (size_t begin = 0, end; begin < groups.size(); begin = end) {
    for (end = begin + 1; end < groups.size() && groups[end] == groups[begin];
         ++end)
      ;
    sum += 1 - spearman(predictions.slice(begin, end - begin),
                        labels.slice(begin, end - begin));
    ++count;
  }
  return sum / count;
}

llvm::Error XGBoostCostModel::trainGrouped(
    llvm::ArrayRef<FeatureVector> unsortedFeatures,
    llvm::ArrayRef<double> unsortedThroughputs,
    llvm::ArrayRef<unsigned> unsortedGroups) {
  if (options.maxRounds < 1 || options.earlyStoppingRounds < 1)
    return makeError("train: maxRounds and earlyStoppingRounds must be "
                     "positive");
  if (!unsortedGroups.empty() &&
      unsortedGroups.size() != unsortedFeatures.size())
    return makeError(llvm::formatv("train: {0} group ids for {1} records",
                                   unsortedGroups.size(),
                                   unsortedFeatures.size()));
  if (llvm::Error error =
          checkTrainingSet(unsortedFeatures, unsortedThroughputs))
    return error;
  // Rows sorted by group: XGBoost's groups are consecutive rows.
  std::vector<size_t> order(unsortedFeatures.size());
  std::iota(order.begin(), order.end(), 0);
  if (!unsortedGroups.empty())
    llvm::stable_sort(order, [&](size_t a, size_t b) {
      return unsortedGroups[a] < unsortedGroups[b];
    });
  std::vector<FeatureVector> features;
  std::vector<double> throughputs;
  std::vector<unsigned> groups;
  for (size_t i : order) {
    features.push_back(unsortedFeatures[i]);
    throughputs.push_back(unsortedThroughputs[i]);
    if (!unsortedGroups.empty())
      groups.push_back(unsortedGroups[i]);
  }
  std::vector<double> normalized = normalizeThroughputs(throughputs, groups);
  if (llvm::none_of(normalized, [](double value) { return value > 0; }))
    return makeError("train: no record has a positive throughput");
  std::vector<float> labels(normalized.begin(), normalized.end());

  llvm::Expected<DMatrix> matrix = createMatrix(features, *featureWidth);
  if (!matrix)
    return matrix.takeError();
  void *dtrain = matrix->get();
  if (llvm::Error error = check(
          XGDMatrixSetFloatInfo(dtrain, "label", labels.data(), labels.size()),
          "XGDMatrixSetFloatInfo(label)"))
    return error;
  bool rank = options.objective == XGBoostObjective::PairwiseRank;
  if (rank) {
    // One query group per group id (all records without ids).
    std::vector<unsigned> sizes;
    for (size_t begin = 0, end; begin < labels.size(); begin = end) {
      end = groups.empty() ? labels.size() : begin + 1;
      while (end < groups.size() && groups[end] == groups[begin])
        ++end;
      sizes.push_back(end - begin);
    }
    if (llvm::Error error = check(
            XGDMatrixSetUIntInfo(dtrain, "group", sizes.data(), sizes.size()),
            "XGDMatrixSetUIntInfo(group)"))
      return error;
  } else {
    // TVM weights each record by its normalized throughput, so that the
    // model is most accurate for the best candidates.
    if (llvm::Error error =
            check(XGDMatrixSetFloatInfo(dtrain, "weight", labels.data(),
                                        labels.size()),
                  "XGDMatrixSetFloatInfo(weight)"))
      return error;
  }

  BoosterHandle handle = nullptr;
  DMatrixHandle cache[] = {dtrain};
  if (llvm::Error error =
          check(XGBoosterCreate(cache, 1, &handle), "XGBoosterCreate"))
    return error;
  Booster model(handle);
  if (!baseModel.empty())
    if (llvm::Error error = check(XGBoosterLoadModelFromBuffer(
                                      handle, baseModel.data(),
                                      baseModel.size()),
                                  "XGBoosterLoadModelFromBuffer(base)"))
      return error;
  std::string params[][2] = {
      {"objective", rank ? "rank:pairwise" : "reg:squarederror"},
      {"max_depth", std::to_string(options.maxDepth)},
      {"gamma", llvm::formatv("{0}", options.gamma).str()},
      {"min_child_weight", llvm::formatv("{0}", options.minChildWeight).str()},
      {"eta", llvm::formatv("{0}", options.eta).str()},
      {"seed", std::to_string(options.seed)},
      {"disable_default_eval_metric", "1"},
      {"tree_method", options.treeMethod},
  };
  if (llvm::Error error = setCommonParams(handle, options))
    return error;
  for (auto &[key, value] : params)
    if (llvm::Error error =
            check(XGBoosterSetParam(handle, key.c_str(), value.c_str()),
                  "XGBoosterSetParam(" + key + ")"))
      return error;

  // Boost until the training metric has not improved for
  // earlyStoppingRounds rounds (TVM's custom_callback on the training set).
  double bestMetric = std::numeric_limits<double>::infinity();
  int bestRound = 0;
  for (int round = 0; round < options.maxRounds; ++round) {
    if (llvm::Error error =
            check(XGBoosterUpdateOneIter(handle, baseRounds + round, dtrain),
                  "XGBoosterUpdateOneIter"))
      return error;
    llvm::Expected<std::vector<double>> predictions =
        predictMatrix(handle, dtrain);
    if (!predictions)
      return predictions.takeError();
    double metric = rank ? rankMetric(*predictions, labels, groups)
                         : rmse(*predictions, labels);
    if (metric < bestMetric) {
      bestMetric = metric;
      bestRound = round;
    } else if (round - bestRound >= options.earlyStoppingRounds) {
      break;
    }
  }

  // Keep the trees up to the best round.
  int boosted = 0;
  if (llvm::Error error = check(XGBoosterBoostedRounds(handle, &boosted),
                                "XGBoosterBoostedRounds"))
    return error;
  int keep = baseRounds + bestRound + 1;
  if (keep < boosted) {
    BoosterHandle sliced = nullptr;
    if (llvm::Error error =
            check(XGBoosterSlice(handle, 0, keep, 1, &sliced),
                  "XGBoosterSlice"))
      return error;
    model.reset(sliced);
    if (llvm::Error error = setCommonParams(sliced, options))
      return error;
  }

  if (booster)
    XGBoosterFree(booster);
  booster = model.release();
  numRounds = keep;
  saveIfAsked();
  return llvm::Error::success();
}

void XGBoostCostModel::saveIfAsked() const {
  if (options.saveTo.empty())
    return;
  llvm::Expected<std::string> saved = save();
  if (!saved) {
    llvm::consumeError(saved.takeError());
    return;
  }
  // Written whole or not at all.
  llvm::Error written =
      llvm::writeToOutput(options.saveTo, [&](llvm::raw_ostream &os) {
        os << *saved;
        return llvm::Error::success();
      });
  if (written)
    llvm::consumeError(std::move(written));
}

llvm::Error XGBoostCostModel::setBaseModel(llvm::StringRef buffer) {
  if (buffer.empty()) {
    baseModel.clear();
    baseRounds = 0;
    return llvm::Error::success();
  }
  // Check the buffer by loading it into a scratch model.
  XGBoostCostModel scratch(options);
  if (featureWidth)
    scratch.featureWidth = featureWidth;
  if (llvm::Error error = scratch.load(buffer))
    return makeError("base model: " + llvm::toString(std::move(error)));
  baseModel = buffer.str();
  baseRounds = scratch.getNumRounds();
  featureWidth = scratch.featureWidth;
  return llvm::Error::success();
}

llvm::Expected<std::vector<double>>
XGBoostCostModel::predict(llvm::ArrayRef<FeatureVector> features) {
  if (!booster)
    return makeError("predict: the model is not trained (call train() or "
                     "load() first)");
  if (features.empty())
    return std::vector<double>();
  llvm::Expected<size_t> width = checkWidth(features, "predict");
  if (!width)
    return width.takeError();
  llvm::Expected<DMatrix> matrix = createMatrix(features, *width);
  if (!matrix)
    return matrix.takeError();
  llvm::Expected<std::vector<double>> scores =
      predictMatrix(booster, matrix->get());
  if (scores && scores->size() != features.size())
    return makeError(llvm::formatv("predict: XGBoost returned {0} scores for "
                                   "{1} feature vectors",
                                   scores->size(), features.size()));
  return scores;
}

llvm::Expected<std::string> XGBoostCostModel::save() const {
  if (!booster)
    return makeError("save: the model is not trained");
  bst_ulong length = 0;
  const char *data = nullptr;
  if (llvm::Error error =
          check(XGBoosterSaveModelToBuffer(booster, R"({"format": "ubj"})",
                                           &length, &data),
                "XGBoosterSaveModelToBuffer"))
    return std::move(error);
  return std::string(data, length);
}

llvm::Error XGBoostCostModel::load(llvm::StringRef buffer) {
  BoosterHandle handle = nullptr;
  if (llvm::Error error =
          check(XGBoosterCreate(nullptr, 0, &handle), "XGBoosterCreate"))
    return error;
  Booster model(handle);
  if (llvm::Error error = check(
          XGBoosterLoadModelFromBuffer(handle, buffer.data(), buffer.size()),
          "XGBoosterLoadModelFromBuffer"))
    return error;
  if (llvm::Error error = setCommonParams(handle, options))
    return error;
  bst_ulong width = 0;
  if (llvm::Error error = check(XGBoosterGetNumFeature(handle, &width),
                                "XGBoosterGetNumFeature"))
    return error;
  if (width == 0)
    return makeError("load: the model has no features");
  if (featureWidth && *featureWidth != width)
    return makeError(llvm::formatv("load: the loaded model has feature width "
                                   "{0}, but this model's feature width is {1}",
                                   width, *featureWidth));
  int rounds = 0;
  if (llvm::Error error = check(XGBoosterBoostedRounds(handle, &rounds),
                                "XGBoosterBoostedRounds"))
    return error;
  if (booster)
    XGBoosterFree(booster);
  booster = model.release();
  featureWidth = width;
  numRounds = rounds;
  return llvm::Error::success();
}
