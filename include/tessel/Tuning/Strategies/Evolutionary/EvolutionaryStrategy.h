//===- EvolutionaryStrategy.h - Ansor's evolutionary search -----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Strategy `evolutionary` (Ansor, section 5): a population of fresh samples
// and the best measured schedules, evolved by mutation under a learned cost
// model; each batch is the model's best unseen candidates plus an
// epsilon-greedy share of random ones. Defaults are Ansor's (TVM's).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_EVOLUTIONARY_EVOLUTIONARYSTRATEGY_H
#define TESSEL_TUNING_STRATEGIES_EVOLUTIONARY_EVOLUTIONARYSTRATEGY_H

#include "tessel/Tuning/Tuner/StrategyRegistry.h"
#include "tessel/Tuning/Tuner/TrainingRecords.h"

namespace mlir {
namespace tessel {

/// Every knob of the evolutionary search; defaults are Ansor's (TVM's).
struct EvolutionaryOptions {
  int populationSize = 2048;
  int generations = 4;
  double mutationProbability = 0.85;
  /// Chance that a mutation changes tile sizes rather than the unroll knob
  /// (TVM's GPU mutation weights: tile size 0.9, auto-unroll 0.1).
  double tileMutationWeight = 0.9;
  /// Fraction of each batch drawn at random instead of by the model.
  double epsilonGreedy = 0.05;
  /// Fraction of the initial population taken from the best measured.
  double measuredRatio = 0.2;
  /// Diversity-aware batch selection (AutoTVM's diversity filter): when at
  /// least 1, the model-picked part of a batch is chosen among the
  /// `diversityRatio` x its size best candidates by pickDiverse(); 0 takes
  /// the best by score, as Ansor.
  double diversityRatio = 0;
};

/// Ansor's evolutionary search with a learned cost model.
class EvolutionaryStrategy : public SearchStrategy {
public:
  EvolutionaryStrategy(EvolutionaryOptions options, DeviceDescription device,
                       std::unique_ptr<FeatureExtractor> features,
                       std::unique_ptr<CostModel> model)
      : options(std::move(options)), device(std::move(device)),
        features(std::move(features)), model(std::move(model)) {}

  std::string name() const override { return "evolutionary"; }
  std::vector<Candidate> propose(TaskSearchState &state, int count) override;
  llvm::Error observe(TaskSearchState &state, ArrayRef<Trial> trials) override;

private:
  /// Retrains the model on every observed trial if new ones arrived.
  void retrain();

  EvolutionaryOptions options;
  DeviceDescription device;
  std::unique_ptr<FeatureExtractor> features;
  std::unique_ptr<CostModel> model;
  bool trained = false;
  /// Rows and features; after `features`, which it refers to.
  TrainingRecords records{*features, device};
};

/// The registry entry of `evolutionary`.
StrategyInfo getEvolutionaryStrategyInfo();

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_EVOLUTIONARY_EVOLUTIONARYSTRATEGY_H
