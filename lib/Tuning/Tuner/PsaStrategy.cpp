//===- PsaStrategy.cpp - Pruner's search strategy -------------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Tuner/PsaStrategy.h"
#include "tessel/Tuning/Tuner/TrainingRecords.h"
#include "tessel/Tuning/CostModel/RandomCostModel.h"
#include "tessel/Tuning/CostModel/XGBoostCostModel.h"
#include "tessel/Tuning/Features/FeatureExtractor.h"
#include "tessel/Tuning/Tuner/TargetSpace.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Pruner's search: target spaces by the PSA, picks by a ranking model.
class PsaStrategy : public SearchStrategy {
public:
  PsaStrategy(StrategyOptions options, DeviceDescription device,
              std::unique_ptr<FeatureExtractor> features,
              std::unique_ptr<CostModel> model)
      : options(std::move(options)), device(std::move(device)),
        analyzer(this->device, this->options.pruner.psa),
        features(std::move(features)), model(std::move(model)) {}

  std::string name() const override { return "psa"; }
  std::vector<Candidate> propose(TaskSearchState &state, int count) override;
  llvm::Error observe(TaskSearchState &state,
                      ArrayRef<Trial> trials) override;

private:
  /// The target space of `state`'s task, regenerated every
  /// `regenerateEvery` rounds of the task.
  TargetSpace &getTargetSpace(TaskSearchState &state);
  /// The candidates the model ranks this round: the target space, the best
  /// measured and `modelGenerations` generations of their mutations. Each
  /// unseen one with its model score.
  std::vector<std::pair<double, Candidate>> rankByModel(TaskSearchState &state,
                                                        TargetSpace &space);
  /// Retrains the model on every observed trial if new ones arrived.
  void retrain();

  StrategyOptions options;
  DeviceDescription device;
  StaticAnalyzer analyzer;
  std::unique_ptr<FeatureExtractor> features;
  std::unique_ptr<CostModel> model;

  struct TaskPruning {
    TargetSpace space;
    int rounds = 0;
    bool generated = false;
  };
  llvm::DenseMap<TaskSearchState *, TaskPruning> pruning;
  bool trained = false;
  /// Rows and features; after `features`, which it refers to.
  TrainingRecords records{*features, device};
};

} // namespace

TargetSpace &PsaStrategy::getTargetSpace(TaskSearchState &state) {
  const PrunerOptions &p = options.pruner;
  TaskPruning &task = pruning[&state];
  if (task.rounds++ % std::max(1, p.regenerateEvery) != 0 && task.generated)
    return task.space;
  task.generated = true;
  if (p.prune) {
    task.space = generateTargetSpace(state, analyzer, p.targetSpace);
    return task.space;
  }
  // Without the PSA: as many unpruned samples, in sampling order.
  task.space = TargetSpace();
  int total = p.targetSpace.size +
              getUnprunedCount(p.targetSpace.size, p.targetSpace.unprunedShare);
  llvm::DenseSet<std::pair<Attribute, Attribute>> distinct;
  for (int tries = 0; static_cast<int>(task.space.unpruned.size()) < total &&
                      tries < 4 * total;
       ++tries)
    if (std::optional<Candidate> c = sampleCandidate(state))
      if (distinct.insert(c->getId()).second)
        task.space.unpruned.push_back(*c);
  return task.space;
}

llvm::Error PsaStrategy::observe(TaskSearchState &state,
                                 ArrayRef<Trial> trials) {
  records.add(state, trials);
  return llvm::Error::success();
}

void PsaStrategy::retrain() {
  if (!records.takeNewRows())
    return;
  if (llvm::none_of(records.throughputs, [](double t) { return t > 0; }))
    return;
  llvm::Error error = llvm::Error::success();
  if (auto *xgb = dynamic_cast<XGBoostCostModel *>(model.get()))
    error = xgb->trainGrouped(records.features, records.throughputs,
                              records.tasks);
  else
    error = model->train(
        records.features,
        normalizeThroughputs(records.throughputs, records.tasks));
  if (error) {
    llvm::consumeError(std::move(error));
    return;
  }
  trained = true;
  const std::string &path = options.pruner.saveCostModel;
  auto *xgb = dynamic_cast<XGBoostCostModel *>(model.get());
  if (path.empty() || !xgb)
    return;
  llvm::Expected<std::string> saved = xgb->save();
  if (!saved) {
    llvm::consumeError(saved.takeError());
    return;
  }
  // Written whole or not at all.
  llvm::Error written = llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    os << *saved;
    return llvm::Error::success();
  });
  if (written)
    llvm::consumeError(std::move(written));
}

std::vector<std::pair<double, Candidate>>
PsaStrategy::rankByModel(TaskSearchState &state, TargetSpace &space) {
  const PrunerOptions &p = options.pruner;
  std::vector<Candidate> population;
  for (const ScoredCandidate &c : space.pruned)
    population.push_back(c.candidate);
  population.insert(population.end(), space.unpruned.begin(),
                    space.unpruned.end());
  // The best measured schedules join the population.
  std::vector<const Trial *> measured;
  for (const Trial &trial : state.trials)
    if (trial.result.isOk())
      measured.push_back(&trial);
  std::stable_sort(measured.begin(), measured.end(),
                   [](const Trial *a, const Trial *b) {
                     return a->gflops > b->gflops;
                   });
  size_t fromMeasured = static_cast<size_t>(population.size() * p.measuredShare);
  for (const Trial *trial : ArrayRef(measured).take_front(fromMeasured))
    population.push_back(trial->candidate);

  llvm::MapVector<std::pair<Attribute, Attribute>, std::pair<double, Candidate>>
      pool;
  for (int generation = 0; !population.empty(); ++generation) {
    llvm::Expected<std::vector<double>> scores =
        model->predict(records.extract(state, population));
    if (!scores) {
      llvm::consumeError(scores.takeError());
      return {};
    }
    for (auto [candidate, score] : llvm::zip(population, *scores))
      if (!state.seen.contains(candidate.getId()))
        pool.insert({candidate.getId(), {score, candidate}});
    if (generation >= p.modelGenerations)
      break;
    // Roulette selection on the scores, then mutation (as the evolutionary
    // strategy does).
    std::vector<double> cumulative(scores->size());
    double floor = *std::min_element(scores->begin(), scores->end());
    double sum = 0;
    for (size_t i = 0; i < scores->size(); ++i)
      cumulative[i] = sum += (*scores)[i] - floor + 1e-6;
    std::vector<Candidate> next;
    next.reserve(population.size());
    for (size_t i = 0; i < population.size(); ++i) {
      double draw = state.rng.uniformReal() * cumulative.back();
      size_t parent =
          std::lower_bound(cumulative.begin(), cumulative.end(), draw) -
          cumulative.begin();
      Candidate child = population[std::min(parent, population.size() - 1)];
      if (state.rng.uniformReal() < options.mutationProbability)
        child = mutateCandidate(state, child);
      next.push_back(child);
    }
    population = std::move(next);
  }
  std::vector<std::pair<double, Candidate>> ranked;
  for (auto &entry : pool)
    ranked.push_back(entry.second);
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto &a, const auto &b) { return a.first > b.first; });
  return ranked;
}

std::vector<Candidate> PsaStrategy::propose(TaskSearchState &state,
                                            int count) {
  retrain();
  TargetSpace &space = getTargetSpace(state);
  int randomCount =
      static_cast<int>(count * options.pruner.epsilonGreedy + 0.5);
  std::vector<Candidate> batch;
  auto take = [&](const Candidate &c) {
    if (static_cast<int>(batch.size()) >= count - randomCount)
      return false;
    if (state.seen.insert(c.getId()).second)
      batch.push_back(c);
    return true;
  };
  if (trained) {
    for (auto &[score, candidate] : rankByModel(state, space))
      if (!take(candidate))
        break;
  } else {
    // No data yet: the PSA ranks (the target space is sorted by latency);
    // without pruning, the samples in order.
    for (const ScoredCandidate &c : space.pruned)
      if (!take(c.candidate))
        break;
    for (const Candidate &c : space.unpruned)
      if (!take(c))
        break;
  }
  std::vector<Candidate> random =
      sampleUnseen(state, count - static_cast<int>(batch.size()));
  batch.insert(batch.end(), random.begin(), random.end());
  return batch;
}

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "strategy psa: " + message);
}

llvm::Expected<std::unique_ptr<SearchStrategy>>
tessel::createPsaStrategy(const StrategyOptions &options,
                          const DeviceDescription &device) {
  const PrunerOptions &p = options.pruner;
  if (p.targetSpace.size < 1 || p.targetSpace.samples < 1 ||
      p.targetSpace.generations < 0 || p.regenerateEvery < 1 ||
      p.modelGenerations < 0)
    return makeError("target space size, samples and regeneration period "
                     "must be positive, generations not negative");
  for (auto [name, share] :
       {std::pair<const char *, double>{"unpruned share",
                                        p.targetSpace.unprunedShare},
        {"epsilon", p.epsilonGreedy},
        {"measured share", p.measuredShare}})
    if (!(share >= 0 && share < 1))
      return makeError(llvm::formatv("{0} must be in [0, 1), got {1}", name,
                                     share));
  if (p.prune)
    if (llvm::Error error =
            PsaParameters::fromDevice(device, p.psa.form).verify())
      return makeError(llvm::toString(std::move(error)) + " (device '" +
                       device.id + "')");
  auto extractor = createFeatureExtractor(p.features);
  if (!extractor)
    return extractor.takeError();
  std::unique_ptr<CostModel> model;
  if (options.costModel == "xgboost") {
    XGBoostCostModelOptions xgb;
    xgb.seed = options.seed;
    xgb.nthread = options.modelThreads;
    xgb.treeMethod = options.treeMethod;
    xgb.objective = XGBoostObjective::PairwiseRank;
    auto ranking = std::make_unique<XGBoostCostModel>(xgb);
    if (!p.costModelInit.empty()) {
      auto buffer = llvm::MemoryBuffer::getFile(p.costModelInit);
      if (!buffer)
        return makeError("cannot read the cost model '" + p.costModelInit +
                         "': " + buffer.getError().message());
      if (llvm::Error error = ranking->setBaseModel((*buffer)->getBuffer()))
        return makeError("'" + p.costModelInit +
                         "': " + llvm::toString(std::move(error)));
      if (ranking->getFeatureWidth() != (*extractor)->width())
        return makeError(llvm::formatv(
            "'{0}' has feature width {1}, but the '{2}' features have {3}",
            p.costModelInit, *ranking->getFeatureWidth(),
            (*extractor)->name(), (*extractor)->width()));
    }
    model = std::move(ranking);
  } else if (options.costModel == "random") {
    if (!p.costModelInit.empty())
      return makeError("--cost-model-init needs the xgboost cost model");
    model = std::make_unique<RandomCostModel>(options.seed);
  } else {
    return makeError("unknown cost model '" + options.costModel +
                     "' (known: xgboost, random)");
  }
  return std::make_unique<PsaStrategy>(options, device, std::move(*extractor),
                                       std::move(model));
}
