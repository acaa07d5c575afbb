//===- tessel-model-eval.cpp - How well a cost model ranks records --------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Trains a cost model on part of the records of a task and reports how well
// it ranks the rest: the question behind every model-guided search.
//
//   tessel-model-eval model.mlir --db=FILE --target=sim:h100-sxm:analytic \
//       [--task=N] [--features=ansor] [--cost-model=xgboost] [--train=256]
//       [--seed=N]
//
// Prints, for the held-out records, Spearman's rank correlation between the
// predicted scores and the measured throughputs, and the top-k recall: of
// the best 10% measured, the share the model also puts in its best 10%.
// Not a test: it prints figures.
//
//===----------------------------------------------------------------------===//

#include "tessel/InitAllDialects.h"
#include "tessel/Tuning/CostModel/RandomCostModel.h"
#include "tessel/Tuning/CostModel/XGBoostCostModel.h"
#include "tessel/Tuning/Device.h"
#include "tessel/Tuning/Features/FeatureExtractor.h"
#include "tessel/Tuning/ModelFile.h"
#include "tessel/Tuning/Records/RecordsDatabase.h"
#include "tessel/Tuning/Search/RandomEngine.h"
#include "tessel/Tuning/Search/Task.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace mlir::tessel;
namespace cl = llvm::cl;

static cl::OptionCategory toolCategory("tessel-model-eval options");

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<model .mlir>"),
                                      cl::cat(toolCategory));
static cl::opt<std::string> dbPath("db", cl::Required,
                                   cl::desc("Records database"),
                                   cl::cat(toolCategory));
static cl::opt<std::string> target("target", cl::Required,
                                   cl::desc("Records of this measurer"),
                                   cl::cat(toolCategory));
static cl::opt<unsigned> taskIndex("task", cl::init(0),
                                   cl::desc("Task of the model (index)"),
                                   cl::cat(toolCategory));
static cl::opt<std::string> featuresName("features", cl::init("ansor"),
                                         cl::desc("Feature set"),
                                         cl::cat(toolCategory));
static cl::opt<std::string>
    treeMethod("xgb-tree-method", cl::init("hist"),
               cl::desc("XGBoost tree_method: hist, exact or approx"),
               cl::cat(toolCategory));
static cl::opt<std::string> costModelName("cost-model", cl::init("xgboost"),
                                          cl::desc("xgboost or random"),
                                          cl::cat(toolCategory));
static cl::opt<unsigned> trainCount("train", cl::init(256),
                                    cl::desc("Records to train on"),
                                    cl::cat(toolCategory));
static cl::opt<uint64_t> seed("seed", cl::init(0),
                              cl::desc("Seed of the train/test split"),
                              cl::cat(toolCategory));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "tessel-model-eval: " << message << "\n";
  return 1;
}

/// Ranks of `values` (0 = smallest), ties sharing their mean rank.
static std::vector<double> ranks(llvm::ArrayRef<double> values) {
  std::vector<size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return values[a] < values[b]; });
  std::vector<double> result(values.size());
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]])
      ++j;
    for (size_t k = i; k <= j; ++k)
      result[order[k]] = (static_cast<double>(i) + static_cast<double>(j)) / 2;
    i = j + 1;
  }
  return result;
}

/// Spearman's rank correlation of `a` and `b`.
static double spearman(llvm::ArrayRef<double> a, llvm::ArrayRef<double> b) {
  std::vector<double> ra = ranks(a), rb = ranks(b);
  double n = static_cast<double>(a.size());
  double ma = std::accumulate(ra.begin(), ra.end(), 0.0) / n;
  double mb = std::accumulate(rb.begin(), rb.end(), 0.0) / n;
  double cov = 0, va = 0, vb = 0;
  for (size_t i = 0; i < ra.size(); ++i) {
    cov += (ra[i] - ma) * (rb[i] - mb);
    va += (ra[i] - ma) * (ra[i] - ma);
    vb += (rb[i] - mb) * (rb[i] - mb);
  }
  return va > 0 && vb > 0 ? cov / std::sqrt(va * vb) : 0;
}

/// Indices of the `k` largest of `values`.
static std::vector<size_t> topK(llvm::ArrayRef<double> values, size_t k) {
  std::vector<size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return values[a] > values[b]; });
  order.resize(std::min(k, order.size()));
  return order;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(toolCategory);
  cl::ParseCommandLineOptions(argc, argv, "Tessel cost model evaluation\n");

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  std::string error;
  std::unique_ptr<ModelFile> modelFile =
      ModelFile::load(inputFile, &context, error);
  if (!modelFile)
    return fail(error.empty() ? "cannot parse '" + inputFile + "'" : error);
  ModuleOp model = modelFile->getModule();
  auto tasks = extractTasks(model, &context);
  if (!tasks)
    return fail(llvm::toString(tasks.takeError()));
  if (taskIndex >= tasks->size())
    return fail(llvm::formatv("the model has {0} task(s)", tasks->size()));
  TuningTask &task = (*tasks)[taskIndex];

  auto db = RecordsDatabase::open(dbPath, RecordsDatabase::OpenMode::ReadOnly);
  if (!db)
    return fail(llvm::toString(db.takeError()));
  auto info = (*db)->getTask(task.workloadKey);
  if (!info)
    return fail(llvm::toString(info.takeError()));
  if (!*info)
    return fail("the database has no records of task " + task.describe());
  auto records = (*db)->getMeasurements((*info)->id, target);
  if (!records)
    return fail(llvm::toString(records.takeError()));

  StringRef deviceId = target;
  deviceId.consume_front("sim:");
  deviceId = deviceId.split(':').first;
  auto device = findDevice(deviceId);
  if (!device)
    return fail(llvm::toString(device.takeError()));
  auto extractor = createFeatureExtractor(featuresName);
  if (!extractor)
    return fail(llvm::toString(extractor.takeError()));

  // Features and throughputs of every record (failed ones score 0).
  SmallVector<linalg::LinalgOp> consumers;
  for (Operation *op : getTaskConsumers(task.getTargetOp()))
    consumers.push_back(cast<linalg::LinalgOp>(op));
  std::vector<FeatureVector> features;
  std::vector<double> throughputs;
  for (const MeasurementRecord &record : *records) {
    auto sketch = dyn_cast_or_null<SketchAttr>(
        parseAttribute(record.sketch, &context));
    auto config = dyn_cast_or_null<ConfigAttr>(
        parseAttribute(record.config, &context));
    if (!sketch || !config)
      return fail("cannot parse record " + std::to_string(record.id));
    FailureOr<std::vector<float>> f = (*extractor)->extract(
        task.getTargetOp(), consumers, sketch, config, *device);
    if (failed(f))
      continue;
    features.push_back(std::move(*f));
    throughputs.push_back(record.isOk() && record.timing.medianUs > 0
                              ? task.flops / record.timing.medianUs / 1e3
                              : 0.0);
  }
  if (features.size() <= trainCount + 10)
    return fail(llvm::formatv("{0} usable records: need more than --train={1} "
                              "+ 10",
                              features.size(), trainCount));

  // A seeded split.
  std::vector<size_t> order(features.size());
  std::iota(order.begin(), order.end(), 0);
  RandomEngine rng(seed);
  for (size_t i = order.size(); i > 1; --i)
    std::swap(order[i - 1], order[rng.uniform(i)]);
  std::vector<FeatureVector> trainX, testX;
  std::vector<double> trainY, testY;
  for (auto [position, index] : llvm::enumerate(order)) {
    bool train = position < trainCount;
    (train ? trainX : testX).push_back(features[index]);
    (train ? trainY : testY).push_back(throughputs[index]);
  }

  std::unique_ptr<CostModel> costModel;
  if (costModelName == "xgboost") {
    XGBoostCostModelOptions options;
    options.treeMethod = treeMethod;
    costModel = std::make_unique<XGBoostCostModel>(options);
  } else if (costModelName == "random")
    costModel = std::make_unique<RandomCostModel>(seed);
  else
    return fail("unknown cost model '" + costModelName + "'");
  if (llvm::Error err = costModel->train(trainX, normalizeThroughputs(trainY)))
    return fail(llvm::toString(std::move(err)));
  auto predicted = costModel->predict(testX);
  if (!predicted)
    return fail(llvm::toString(predicted.takeError()));

  size_t k = std::max<size_t>(1, testY.size() / 10);
  std::vector<size_t> bestMeasured = topK(testY, k);
  std::vector<size_t> bestPredicted = topK(*predicted, k);
  size_t overlap = 0;
  for (size_t i : bestPredicted)
    overlap += llvm::is_contained(bestMeasured, i);
  double bestOfTopPredicted = 0;
  for (size_t i : bestPredicted)
    bestOfTopPredicted = std::max(bestOfTopPredicted, testY[i]);
  double best = *std::max_element(testY.begin(), testY.end());
  llvm::outs() << llvm::formatv(
      "{0} on {1}: features {2}, model {3}, trained on {4}, tested on {5}\n"
      "spearman {6:F3}; top-10% recall {7:F2}; best of the predicted top "
      "10% = {8:F3} of the best tested\n",
      task.describe(), target, featuresName, costModelName, trainX.size(),
      testX.size(), spearman(*predicted, testY),
      static_cast<double>(overlap) / static_cast<double>(k),
      best > 0 ? bestOfTopPredicted / best : 0.0);
  return 0;
}
