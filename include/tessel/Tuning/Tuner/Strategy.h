//===- Strategy.h - Search strategies over a task's configs ----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A strategy proposes the next batch of schedules (sketch + config) of a task
// and observes their measurements. The strategies themselves live one folder
// each under lib/Tuning/Strategies/ and are found by name in the registry
// (StrategyRegistry.h); this header holds what they share: candidates,
// trials, the per-task search state and the sampling and mutation helpers.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_TUNER_STRATEGY_H
#define TESSEL_TUNING_TUNER_STRATEGY_H

#include "tessel/Tuning/Device.h"
#include "tessel/Tuning/Measure/Measurer.h"
#include "tessel/Tuning/Search/RandomEngine.h"
#include "tessel/Tuning/Search/SearchSpace.h"
#include "tessel/Tuning/Search/Task.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
namespace tessel {

/// A schedule of a task: which sketch, which config.
struct Candidate {
  /// Index into TaskSearchState::spaces.
  unsigned space = 0;
  SketchAttr sketch;
  ConfigAttr config;

  /// Printed sketch and config (for records and logs).
  std::string getKey() const;
  /// The uniqued sketch and config: identifies the candidate within its
  /// task (and context) without printing.
  std::pair<Attribute, Attribute> getId() const { return {sketch, config}; }
};

/// A candidate of a task (to compile several tasks' candidates together).
struct TaskCandidate {
  TuningTask *task;
  const Candidate *candidate;
};

/// A measured candidate.
struct Trial {
  Candidate candidate;
  MeasureResult result;
  /// FLOPs per second / 1e9 of the task; 0 when the status is not ok.
  double gflops = 0;
};

/// What a strategy knows of one task.
struct TaskSearchState {
  TuningTask *task = nullptr;
  /// One search space per usable sketch of the task.
  std::vector<SearchSpace> spaces;
  /// The fused consumers of the target op (for features).
  SmallVector<linalg::LinalgOp> consumers;
  /// Every measurement of the task, in order (including resumed ones).
  std::vector<Trial> trials;
  /// Measured (or already proposed) candidates, by getId(): never again.
  llvm::DenseSet<std::pair<Attribute, Attribute>> seen;
  RandomEngine rng;

  /// The best trial, or null.
  const Trial *getBest() const;
  /// Records `trial` (adds it to trials and seen).
  void record(Trial trial);

  /// The state of `task` before any trial: one space per sketch of the task
  /// that has a valid search space on `device`, its fused consumers, and a
  /// random engine seeded with `rngSeed`.
  /// `maxStages` > 1 adds the `stages` knob (SearchSpace::get).
  static TaskSearchState create(TuningTask &task,
                                const DeviceDescription &device,
                                uint64_t rngSeed, int64_t maxStages = 1);
};

/// Proposes and observes candidates of tasks.
class SearchStrategy {
public:
  virtual ~SearchStrategy();
  virtual std::string name() const = 0;
  /// Up to `count` new candidates of `state`'s task (fewer when the space is
  /// exhausted); none of them is in `state.seen`.
  virtual std::vector<Candidate> propose(TaskSearchState &state,
                                         int count) = 0;
  /// Called with the measurements of a proposed batch (already recorded in
  /// `state`).
  virtual llvm::Error observe(TaskSearchState &state,
                              llvm::ArrayRef<Trial> trials);
};

/// The elementwise consumers fused into `task`'s target op, in chain order.
SmallVector<linalg::LinalgOp> getTaskFusedConsumers(TuningTask &task);

/// The schedule --tessel-default-config gives `task`'s target op, with
/// `space` 0 (callers map the sketch to their own spaces); std::nullopt when
/// it gives none.
std::optional<Candidate> getDefaultCandidate(TuningTask &task);

/// Uniform random candidates of `state` not yet seen, at most `count`.
std::vector<Candidate> sampleUnseen(TaskSearchState &state, int count);

/// A uniform random candidate of `state` (a random sketch's random config),
/// seen or not; std::nullopt when sampling fails.
std::optional<Candidate> sampleCandidate(TaskSearchState &state);

/// Greedy submodular selection of `count` of `ranked` (best first): each
/// step takes the candidate maximizing its score plus `knobWeight` times the
/// number of its knob values (a tile size of a loop at a level, the unroll
/// value, a vector width of an operand) no selected candidate has yet.
/// Returns indices into `ranked` in the order taken.
std::vector<size_t>
pickDiverse(ArrayRef<std::pair<double, Candidate>> ranked, size_t count,
            double knobWeight = 1.0);

/// Ansor's roulette-wheel selection over a population's scores: pick()
/// draws an index with probability proportional to its score minus the
/// lowest score (plus 1e-6, so that the lowest can still be drawn), with
/// one draw of `rng`.
class RouletteWheel {
public:
  /// A wheel over `scores` (at least one).
  explicit RouletteWheel(ArrayRef<double> scores);
  size_t pick(RandomEngine &rng) const;

private:
  std::vector<double> cumulative;
};

/// Ansor's GPU mutation of `candidate`: its tile sizes (with chance
/// `tileMutationWeight`, TVM's 0.9) or else its unroll value, as the
/// evolutionary search mutates; in a space with the `stages` knob, half of
/// the non-tile mutations move `stages` instead. Returns `candidate` unchanged when the
/// mutation finds no valid config.
Candidate mutateCandidate(TaskSearchState &state, const Candidate &candidate,
                          double tileMutationWeight = 0.9);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_TUNER_STRATEGY_H
