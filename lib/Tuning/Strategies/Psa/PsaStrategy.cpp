//===- PsaStrategy.cpp - Pruner's search strategy -------------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Psa/PsaStrategy.h"
#include "tessel/Tuning/CostModel/XGBoostCostModel.h"
#include "tessel/Tuning/Features/FeatureExtractor.h"
#include "tessel/Tuning/Strategies/Psa/TargetSpace.h"
#include "tessel/Tuning/Tuner/TrainingRecords.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Pruner's search: target spaces by the PSA, picks by a ranking model.
class PsaStrategy : public SearchStrategy {
public:
  PsaStrategy(PrunerOptions options, DeviceDescription device,
              std::unique_ptr<FeatureExtractor> features,
              std::unique_ptr<CostModel> model)
      : options(std::move(options)), device(std::move(device)),
        analyzer(this->device, this->options.psa),
        features(std::move(features)), model(std::move(model)) {}

  std::string name() const override { return "psa"; }
  std::vector<Candidate> propose(TaskSearchState &state, int count) override;
  llvm::Error observe(TaskSearchState &state, ArrayRef<Trial> trials) override;

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

  PrunerOptions options;
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
  const PrunerOptions &p = options;
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
    error =
        xgb->trainGrouped(records.features, records.throughputs, records.tasks);
  else
    error =
        model->train(records.features,
                     normalizeThroughputs(records.throughputs, records.tasks));
  if (error) {
    llvm::consumeError(std::move(error));
    return;
  }
  trained = true;
}

std::vector<std::pair<double, Candidate>>
PsaStrategy::rankByModel(TaskSearchState &state, TargetSpace &space) {
  const PrunerOptions &p = options;
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
  std::stable_sort(
      measured.begin(), measured.end(),
      [](const Trial *a, const Trial *b) { return a->gflops > b->gflops; });
  size_t fromMeasured =
      static_cast<size_t>(population.size() * p.measuredShare);
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
  std::stable_sort(
      ranked.begin(), ranked.end(),
      [](const auto &a, const auto &b) { return a.first > b.first; });
  return ranked;
}

std::vector<Candidate> PsaStrategy::propose(TaskSearchState &state, int count) {
  retrain();
  TargetSpace &space = getTargetSpace(state);
  int randomCount = static_cast<int>(count * options.epsilonGreedy + 0.5);
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

namespace {
/// The options of `psa` (PrunerOptions), in the registry's syntax.
struct PsaStrategyOptions : ComponentOptions {
  PrunerOptions defaults;
  Option<int> targetSize{*this,
                         "target-size",
                         defaults.targetSpace.size,
                         "Candidates of lowest PSA latency kept in a target "
                         "space",
                         {1, std::nullopt}};
  Option<double> unprunedShare{
      *this,
      "unpruned-share",
      defaults.targetSpace.unprunedShare,
      "Share of unpruned random samples in a target space (below 1)",
      {0, std::nullopt}};
  Option<int> samples{*this,
                      "samples",
                      defaults.targetSpace.samples,
                      "Random samples that start a target space",
                      {1, std::nullopt}};
  Option<int> generations{*this,
                          "generations",
                          defaults.targetSpace.generations,
                          "Generations of PSA-driven evolution",
                          {0, std::nullopt}};
  Option<int> regenerateEvery{*this,
                              "regenerate-every",
                              defaults.regenerateEvery,
                              "Rounds of a task between two target spaces",
                              {1, std::nullopt}};
  Option<int> modelGenerations{*this,
                               "model-generations",
                               defaults.modelGenerations,
                               "Generations of model-guided mutation per round",
                               {0, std::nullopt}};
  Option<double> measuredShare{
      *this,
      "measured-share",
      defaults.measuredShare,
      "Share of the round's population taken from the best measured (below "
      "1)",
      {0, std::nullopt}};
  Option<double> epsilon{*this,
                         "epsilon",
                         defaults.epsilonGreedy,
                         "Share of each batch drawn at random (below 1)",
                         {0, std::nullopt}};
  Option<double> mutationProbability{
      *this,
      "mutation-probability",
      defaults.mutationProbability,
      "Chance that a child of the model-guided mutation is mutated",
      {0, 1}};
  Option<std::string> form{*this,   "form",
                           "paper", "PSA formulas: paper or code",
                           {},      {"paper", "code"}};
  Option<std::string> disable{
      *this, "disable", "",
      "PSA penalties to switch off (comma-separated: alpha, reg, warp, "
      "kernel, mem, compute)"};
  Option<bool> uncappedWarps{
      *this, "uncapped-warps", false,
      "Count every warp of a block in the warp-granular P_kernel (the "
      "paper's literal W; default: at most n_w per block)"};
  Option<bool> prune{*this, "prune", defaults.prune,
                     "false: the paper's w/o-PSA ablation (the target space "
                     "is unpruned random samples)"};

  std::string validate() const override {
    for (auto [name, share] :
         {std::pair<const char *, double>{"unpruned-share", unprunedShare},
          {"epsilon", epsilon},
          {"measured-share", measuredShare}})
      if (share >= 1)
        return llvm::formatv("{0}={1} is out of range: 0 to below 1", name,
                             formatOptionNumber(share))
            .str();
    llvm::Expected<PsaPenalties> penalties =
        PsaPenalties::parseDisabled(disable.getValue());
    if (!penalties)
      return "disable=" + disable.getValue() + ": " +
             llvm::toString(penalties.takeError());
    return "";
  }

  PrunerOptions get() const {
    PrunerOptions p;
    p.psa.form = llvm::cantFail(parsePsaForm(form.getValue()));
    p.psa.penalties =
        llvm::cantFail(PsaPenalties::parseDisabled(disable.getValue()));
    p.psa.capBlockWarps = !uncappedWarps;
    p.prune = prune;
    p.targetSpace.size = targetSize;
    p.targetSpace.unprunedShare = unprunedShare;
    p.targetSpace.samples = samples;
    p.targetSpace.generations = generations;
    p.regenerateEvery = regenerateEvery;
    p.modelGenerations = modelGenerations;
    p.measuredShare = measuredShare;
    p.epsilonGreedy = epsilon;
    p.mutationProbability = mutationProbability;
    return p;
  }
};
} // namespace

StrategyInfo tessel::getPsaStrategyInfo() {
  StrategyInfo info;
  info.name = "psa";
  info.summary = "Pruner: PSA-pruned target spaces ranked by a learned model";
  info.createOptions = [] { return std::make_unique<PsaStrategyOptions>(); };
  info.defaultFeatures = "pruner";
  info.ranking = true;
  info.defaultMeasuresPerRound = 10;
  info.create = [](const ComponentOptions &options,
                   StrategyEnvironment environment)
      -> llvm::Expected<std::unique_ptr<SearchStrategy>> {
    PrunerOptions p = static_cast<const PsaStrategyOptions &>(options).get();
    if (p.prune)
      if (llvm::Error error =
              PsaParameters::fromDevice(environment.device, p.psa.form)
                  .verify())
        return llvm::createStringError(
            "strategy 'psa': " + llvm::toString(std::move(error)) +
            " (device '" + environment.device.id + "')");
    return std::make_unique<PsaStrategy>(
        std::move(p), std::move(environment.device),
        std::move(environment.features), std::move(environment.costModel));
  };
  return info;
}
