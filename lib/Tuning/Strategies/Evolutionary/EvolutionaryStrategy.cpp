//===- EvolutionaryStrategy.cpp - Ansor's evolutionary search -------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Evolutionary/EvolutionaryStrategy.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tessel;

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
  int fromMeasured =
      static_cast<int>(options.populationSize * options.measuredRatio);
  std::vector<const Trial *> measured;
  for (const Trial &trial : state.trials)
    if (trial.result.isOk())
      measured.push_back(&trial);
  std::sort(
      measured.begin(), measured.end(),
      [](const Trial *a, const Trial *b) { return a->gflops > b->gflops; });
  for (const Trial *trial : llvm::ArrayRef(measured).take_front(fromMeasured))
    population.push_back(trial->candidate);
  for (int tries = 0;
       static_cast<int>(population.size()) < options.populationSize &&
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
    RouletteWheel wheel(*scores);
    std::vector<Candidate> next;
    next.reserve(population.size());
    for (size_t i = 0; i < population.size(); ++i) {
      Candidate child = population[wheel.pick(state.rng)];
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
  std::stable_sort(
      ranked.begin(), ranked.end(),
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

namespace {
/// The options of `evolutionary`, in the registry's syntax.
struct EvolutionaryStrategyOptions : ComponentOptions {
  EvolutionaryOptions defaults;
  Option<int> population{*this,
                         "population",
                         defaults.populationSize,
                         "Population size",
                         {1, std::nullopt}};
  Option<int> generations{*this,
                          "generations",
                          defaults.generations,
                          "Generations of mutation per round",
                          {0, std::nullopt}};
  Option<double> mutationProbability{*this,
                                     "mutation-probability",
                                     defaults.mutationProbability,
                                     "Chance that a selected parent is mutated",
                                     {0, 1}};
  Option<double> tileMutationWeight{
      *this,
      "tile-mutation-weight",
      defaults.tileMutationWeight,
      "Chance that a mutation changes tile sizes rather than the unroll knob "
      "(TVM: 0.9)",
      {0, 1}};
  Option<double> epsilonGreedy{
      *this,
      "epsilon-greedy",
      defaults.epsilonGreedy,
      "Share of each batch drawn at random instead of by the model (Ansor: "
      "0.05)",
      {0, 1}};
  Option<double> measuredRatio{
      *this,
      "measured-ratio",
      defaults.measuredRatio,
      "Share of the initial population taken from the best measured",
      {0, 1}};
  Option<double> diversityFilter{
      *this,
      "diversity-filter",
      defaults.diversityRatio,
      "Pick the model's part of a batch for knob diversity among this many "
      "times its size best candidates (AutoTVM's filter; 0: off, Ansor)",
      {0, std::nullopt}};

  std::string validate() const override {
    if (diversityFilter != 0 && diversityFilter < 1)
      return llvm::formatv("diversity-filter={0} is out of range: 0 (off) or "
                           "at least 1",
                           formatOptionNumber(diversityFilter))
          .str();
    return "";
  }

  EvolutionaryOptions get() const {
    EvolutionaryOptions o;
    o.populationSize = population;
    o.generations = generations;
    o.mutationProbability = mutationProbability;
    o.tileMutationWeight = tileMutationWeight;
    o.epsilonGreedy = epsilonGreedy;
    o.measuredRatio = measuredRatio;
    o.diversityRatio = diversityFilter;
    return o;
  }
};
} // namespace

StrategyInfo tessel::getEvolutionaryStrategyInfo() {
  StrategyInfo info;
  info.name = "evolutionary";
  info.summary = "Ansor's evolutionary search under a learned cost model";
  info.createOptions = [] {
    return std::make_unique<EvolutionaryStrategyOptions>();
  };
  info.create = [](const ComponentOptions &options,
                   StrategyEnvironment environment)
      -> llvm::Expected<std::unique_ptr<SearchStrategy>> {
    return std::make_unique<EvolutionaryStrategy>(
        static_cast<const EvolutionaryStrategyOptions &>(options).get(),
        std::move(environment.device), std::move(environment.features),
        std::move(environment.costModel));
  };
  return info;
}
