//===- DgdStrategy.h - The `dgd` search strategy (ICS'24) -------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// `--strategy=dgd`: dynamic gradient descent (Li et al., ICS'24, section 5)
// on the tile-size vectors of a task's search spaces (DgdSpace.h), driven by
// DgdSearch (DgdSearch.h) with an online cost model over any feature set
// (`ansor` for Ansor-DS, `af` for Ansor-AF-DS). One DgdSearch per task; the
// model is shared by the tasks, trained on every measurement with
// throughputs normalized per task (as the evolutionary strategy does).
// propose() returns what DGD wants measured next: a batch of initial
// samples, one start point or one window (often fewer than asked for), and
// nothing once the search is over (budget, time limit, starts).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_DGD_DGDSTRATEGY_H
#define TESSEL_TUNING_STRATEGIES_DGD_DGDSTRATEGY_H

#include "tessel/Tuning/CostModel/CostModel.h"
#include "tessel/Tuning/Features/FeatureExtractor.h"
#include "tessel/Tuning/Strategies/Dgd/DgdSearch.h"
#include "tessel/Tuning/Strategies/Dgd/DgdSpace.h"
#include "tessel/Tuning/Tuner/StrategyRegistry.h"

#include <functional>

namespace mlir {
namespace tessel {

/// The `dgd` strategy (see the file comment).
class DgdStrategy : public SearchStrategy {
public:
  /// Seconds since some fixed time (the default: a steady clock).
  using Clock = std::function<double()>;

  DgdStrategy(DgdOptions options, DeviceDescription device,
              std::unique_ptr<FeatureExtractor> features,
              std::unique_ptr<CostModel> model, Clock clock = {});
  ~DgdStrategy() override;

  std::string name() const override { return "dgd"; }
  std::vector<Candidate> propose(TaskSearchState &state, int count) override;
  llvm::Error observe(TaskSearchState &state, ArrayRef<Trial> trials) override;

  /// The search of `state`'s task, or null before its first propose().
  const DgdSearch *getSearch(const TaskSearchState &state) const;
  /// The candidate behind a point id of `state`'s search.
  const Candidate *getPoint(const TaskSearchState &state,
                            DgdSearch::PointId id) const;

private:
  struct TaskData;
  TaskData &getTask(TaskSearchState &state);
  void retrain();
  /// Features of point `id` of `task` (extracted once; zeros on failure).
  const FeatureVector &getFeatures(TaskData &task, unsigned id);

  DgdOptions options;
  DeviceDescription device;
  std::unique_ptr<FeatureExtractor> features;
  std::unique_ptr<CostModel> model;
  Clock clock;
  std::optional<double> startTime;
  std::vector<std::unique_ptr<TaskData>> tasks;
  /// Training set over all tasks.
  std::vector<FeatureVector> trainFeatures;
  std::vector<double> trainThroughputs;
  std::vector<unsigned> trainTasks;
  bool dirty = false;
  bool trained = false;
};

/// The registry entry of `dgd`.
StrategyInfo getDgdStrategyInfo();

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_DGD_DGDSTRATEGY_H
