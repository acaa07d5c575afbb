//===- Strategy.cpp - Search strategies over a task's configs -------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Tuner/Strategy.h"
#include "tessel/Dialect/Tessel/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "tessel/Tuning/Tuner/TrainingRecords.h"
#include "tessel/Tuning/CostModel/RandomCostModel.h"
#include "tessel/Tuning/CostModel/XGBoostCostModel.h"
#include "tessel/Tuning/Features/FeatureExtractor.h"
#include "tessel/Tuning/Tuner/DgdStrategy.h"
#include "tessel/Tuning/Tuner/PsaStrategy.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::tessel;

std::string Candidate::getKey() const {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << sketch << " " << config;
  return key;
}

const Trial *TaskSearchState::getBest() const {
  const Trial *best = nullptr;
  for (const Trial &trial : trials)
    if (trial.result.isOk() && (!best || trial.gflops > best->gflops))
      best = &trial;
  return best;
}

void TaskSearchState::record(Trial trial) {
  seen.insert(trial.candidate.getId());
  trials.push_back(std::move(trial));
}

SearchStrategy::~SearchStrategy() = default;

llvm::Error SearchStrategy::observe(TaskSearchState &, ArrayRef<Trial>) {
  return llvm::Error::success();
}

std::optional<Candidate> tessel::sampleCandidate(TaskSearchState &state) {
  if (state.spaces.empty())
    return std::nullopt;
  unsigned index = state.rng.uniform(state.spaces.size());
  FailureOr<ConfigAttr> config = state.spaces[index].sample(state.rng);
  if (failed(config))
    return std::nullopt;
  return Candidate{index, state.spaces[index].getSketch(), *config};
}

std::vector<Candidate> tessel::sampleUnseen(TaskSearchState &state,
                                            int count) {
  std::vector<Candidate> batch;
  // Small spaces run out: give up after many repeats.
  for (int tries = 0; static_cast<int>(batch.size()) < count &&
                      tries < 50 * count + 100;
       ++tries) {
    std::optional<Candidate> candidate = sampleCandidate(state);
    if (!candidate)
      continue;
    if (!state.seen.insert(candidate->getId()).second)
      continue;
    batch.push_back(*candidate);
  }
  return batch;
}

Candidate tessel::mutateCandidate(TaskSearchState &state,
                                  const Candidate &candidate,
                                  double tileMutationWeight) {
  Candidate child = candidate;
  SearchSpace &space = state.spaces[child.space];
  std::optional<ConfigAttr> mutated;
  if (state.rng.uniformReal() < tileMutationWeight)
    mutated = space.mutateTileSize(child.config, state.rng);
  else
    mutated = space.mutateUnroll(child.config, state.rng);
  if (mutated && succeeded(space.check(*mutated)))
    child.config = *mutated;
  return child;
}

namespace {

/// Uniform samples of the search space.
class RandomStrategy : public SearchStrategy {
public:
  std::string name() const override { return "random"; }
  std::vector<Candidate> propose(TaskSearchState &state, int count) override {
    return sampleUnseen(state, count);
  }
};

/// Ansor's evolutionary search with a learned cost model.
class EvolutionaryStrategy : public SearchStrategy {
public:
  EvolutionaryStrategy(StrategyOptions options, DeviceDescription device,
                       std::unique_ptr<FeatureExtractor> features,
                       std::unique_ptr<CostModel> model)
      : options(std::move(options)), device(std::move(device)),
        features(std::move(features)), model(std::move(model)) {}

  std::string name() const override { return "evolutionary"; }
  std::vector<Candidate> propose(TaskSearchState &state, int count) override;
  llvm::Error observe(TaskSearchState &state,
                      ArrayRef<Trial> trials) override;

private:
  /// Retrains the model on every observed trial if new ones arrived.
  void retrain();

  StrategyOptions options;
  DeviceDescription device;
  std::unique_ptr<FeatureExtractor> features;
  std::unique_ptr<CostModel> model;
  bool trained = false;
  /// Rows and features; after `features`, which it refers to.
  TrainingRecords records{*features, device};
};

} // namespace

llvm::Error EvolutionaryStrategy::observe(TaskSearchState &state,
                                          ArrayRef<Trial> trials) {
  records.add(state, trials);
  return llvm::Error::success();
}

void EvolutionaryStrategy::retrain() {
  if (!records.takeNewRows())
    return;
  std::vector<double> targets =
      normalizeThroughputs(records.throughputs, records.tasks);
  if (std::none_of(targets.begin(), targets.end(),
                   [](double t) { return t > 0; }))
    return;
  if (llvm::Error error = model->train(records.features, targets)) {
    llvm::consumeError(std::move(error));
    return;
  }
  trained = true;
}

std::vector<Candidate> EvolutionaryStrategy::propose(TaskSearchState &state,
                                                     int count) {
  retrain();
  if (!trained)
    return sampleUnseen(state, count);

  // Initial population: fresh samples and the best measured schedules.
  std::vector<Candidate> population;
  int fromMeasured = static_cast<int>(options.populationSize *
                                      options.measuredRatio);
  std::vector<const Trial *> measured;
  for (const Trial &trial : state.trials)
    if (trial.result.isOk())
      measured.push_back(&trial);
  std::sort(measured.begin(), measured.end(),
            [](const Trial *a, const Trial *b) { return a->gflops > b->gflops; });
  for (const Trial *trial :
       llvm::ArrayRef(measured).take_front(fromMeasured))
    population.push_back(trial->candidate);
  for (int tries = 0; static_cast<int>(population.size()) <
                          options.populationSize &&
                      tries < 4 * options.populationSize;
       ++tries)
    if (std::optional<Candidate> c = sampleCandidate(state))
      population.push_back(*c);
  if (population.empty())
    return sampleUnseen(state, count);

  // Evolve; remember the best unseen candidates of every generation.
  // Insertion-ordered, so that ties rank the same in every run.
  llvm::MapVector<std::pair<Attribute, Attribute>, std::pair<double, Candidate>>
      pool;
  for (int generation = 0;; ++generation) {
    auto scores = model->predict(records.extract(state, population));
    if (!scores) {
      llvm::consumeError(scores.takeError());
      return sampleUnseen(state, count);
    }
    for (auto [candidate, score] : llvm::zip(population, *scores)) {
      auto key = candidate.getId();
      if (!state.seen.contains(key))
        pool.insert({key, {score, candidate}});
    }
    if (generation == options.generations)
      break;
    // Roulette selection on the scores, then mutation.
    std::vector<double> weights(scores->begin(), scores->end());
    double floor = *std::min_element(weights.begin(), weights.end());
    for (double &w : weights)
      w = w - floor + 1e-6;
    std::vector<double> cumulative(weights.size());
    std::partial_sum(weights.begin(), weights.end(), cumulative.begin());
    std::vector<Candidate> next;
    next.reserve(population.size());
    for (size_t i = 0; i < population.size(); ++i) {
      double draw = state.rng.uniformReal() * cumulative.back();
      size_t parent =
          std::lower_bound(cumulative.begin(), cumulative.end(), draw) -
          cumulative.begin();
      Candidate child = population[std::min(parent, population.size() - 1)];
      if (state.rng.uniformReal() < options.mutationProbability)
        child = mutateCandidate(state, child, options.tileMutationWeight);
      next.push_back(child);
    }
    population = std::move(next);
  }

  // The best by the model, and epsilon of the batch at random.
  std::vector<std::pair<double, Candidate>> ranked;
  for (auto &entry : pool)
    ranked.push_back(entry.second);
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto &a, const auto &b) { return a.first > b.first; });
  int randomCount = static_cast<int>(count * options.epsilonGreedy + 0.5);
  std::vector<Candidate> batch;
  if (options.diversityRatio >= 1) {
    // The pool holds unseen candidates only.
    size_t picked = std::max(0, count - randomCount);
    size_t considered = std::min(
        ranked.size(), static_cast<size_t>(options.diversityRatio * picked));
    for (size_t index :
         pickDiverse(llvm::ArrayRef(ranked).take_front(considered), picked))
      if (state.seen.insert(ranked[index].second.getId()).second)
        batch.push_back(ranked[index].second);
  }
  for (auto &[score, candidate] : ranked) {
    if (static_cast<int>(batch.size()) >= count - randomCount)
      break;
    if (state.seen.insert(candidate.getId()).second)
      batch.push_back(candidate);
  }
  std::vector<Candidate> random =
      sampleUnseen(state, count - static_cast<int>(batch.size()));
  batch.insert(batch.end(), random.begin(), random.end());
  return batch;
}

/// The knob values of `candidate`, as (knob, value) keys: its sketch, each
/// loop's tile size at each level, the unroll value, each vector width.
static SmallVector<std::pair<int64_t, int64_t>>
getKnobValues(const Candidate &candidate) {
  SmallVector<std::pair<int64_t, int64_t>> knobs;
  int64_t knob = 0;
  knobs.push_back({knob++, candidate.space});
  ConfigAttr config = candidate.config;
  for (unsigned loop = 0; loop < config.getNumLoops(); ++loop)
    for (int64_t tile : config.getLoopTiles(loop))
      knobs.push_back({knob++, tile});
  knobs.push_back({knob++, config.getUnroll()});
  for (int64_t width : config.getVector())
    knobs.push_back({knob++, width});
  return knobs;
}

std::vector<size_t>
tessel::pickDiverse(ArrayRef<std::pair<double, Candidate>> ranked,
                    size_t count, double knobWeight) {
  std::vector<SmallVector<std::pair<int64_t, int64_t>>> knobs;
  for (const auto &entry : ranked)
    knobs.push_back(getKnobValues(entry.second));
  llvm::DenseSet<std::pair<int64_t, int64_t>> covered;
  std::vector<bool> taken(ranked.size(), false);
  std::vector<size_t> picked;
  while (picked.size() < std::min(count, ranked.size())) {
    size_t best = 0;
    double bestGain = -std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < ranked.size(); ++i) {
      if (taken[i])
        continue;
      int64_t fresh = llvm::count_if(
          knobs[i], [&](const auto &value) { return !covered.contains(value); });
      double gain = ranked[i].first + knobWeight * fresh;
      // Ties go to the better-ranked candidate.
      if (gain > bestGain) {
        bestGain = gain;
        best = i;
      }
    }
    taken[best] = true;
    picked.push_back(best);
    covered.insert(knobs[best].begin(), knobs[best].end());
  }
  return picked;
}

std::vector<std::string> tessel::getStrategyNames() {
  return {"dgd", "evolutionary", "psa", "random"};
}

llvm::Expected<std::unique_ptr<SearchStrategy>>
tessel::createStrategy(llvm::StringRef name, const StrategyOptions &options,
                       const DeviceDescription &device) {
  if (name == "random")
    return std::make_unique<RandomStrategy>();
  if (name == "psa")
    return createPsaStrategy(options, device);
  if (name != "evolutionary" && name != "dgd")
    return llvm::createStringError("unknown strategy '" + name.str() +
                                   "' (known: dgd, evolutionary, psa, random)");
  auto extractor = createFeatureExtractor(options.features);
  if (!extractor)
    return extractor.takeError();
  std::unique_ptr<CostModel> model;
  if (options.costModel == "xgboost") {
    XGBoostCostModelOptions xgb;
    xgb.seed = options.seed;
    xgb.nthread = options.modelThreads;
    xgb.treeMethod = options.treeMethod;
    model = std::make_unique<XGBoostCostModel>(xgb);
  } else if (options.costModel == "random") {
    model = std::make_unique<RandomCostModel>(options.seed);
  } else {
    return llvm::createStringError("unknown cost model '" + options.costModel +
                                   "' (known: xgboost, random)");
  }
  if (name == "dgd") {
    std::string invalid = options.dgd.validate();
    if (!invalid.empty())
      return llvm::createStringError(invalid);
    return std::make_unique<DgdStrategy>(options, device, std::move(*extractor),
                                         std::move(model));
  }
  return std::make_unique<EvolutionaryStrategy>(
      options, device, std::move(*extractor), std::move(model));
}

SmallVector<linalg::LinalgOp>
tessel::getTaskFusedConsumers(TuningTask &task) {
  SmallVector<linalg::LinalgOp> consumers;
  linalg::LinalgOp target = task.getTargetOp();
  bool after = false;
  task.module->walk([&](linalg::LinalgOp op) {
    if (op == target) {
      after = true;
      return;
    }
    if (after && !isa<linalg::FillOp>(op) &&
        static_cast<int64_t>(consumers.size()) < task.fusedConsumers)
      consumers.push_back(op);
  });
  return consumers;
}

std::optional<Candidate> tessel::getDefaultCandidate(TuningTask &task) {
  OwningOpRef<ModuleOp> module(cast<ModuleOp>(task.module->clone()));
  PassManager pm(module->getContext());
  pm.addPass(createTesselDefaultConfig());
  if (failed(pm.run(*module)))
    return std::nullopt;
  std::optional<Candidate> result;
  module->walk([&](linalg::LinalgOp op) {
    if (!op->hasAttr(kTaskTargetAttrName))
      return;
    auto sketch = op->getAttrOfType<SketchAttr>(TesselDialect::kSketchAttrName);
    auto config = op->getAttrOfType<ConfigAttr>(TesselDialect::kConfigAttrName);
    if (sketch && config)
      result = Candidate{0, sketch, config};
  });
  return result;
}
