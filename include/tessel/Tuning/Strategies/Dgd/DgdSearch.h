//===- DgdSearch.h - Dynamic gradient descent over abstract points -*- C++
//-*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The control of DGD_Search and DGD_Move (Li et al., ICS'24, Fig. 9), apart
// from what a point is: initial random samples seed the model; from a start
// point, the model ranks the n-hop neighbours; windows of the best-ranked
// are measured until one beats the current point (move, n = 1), an early
// stop fires or the list ends (n + 1, up to the maximum radius); at a local
// optimum the search restarts from a new point. The paper's pseudocode has
// defects; docs/Dgd.md lists them and the resolutions, and the ambiguous
// ones are the switches of DgdOptions.
//
// DgdSearch is driven in steps: next() returns points to measure, report()
// takes their measurements. Points are opaque ids; the caller supplies
// neighbours, predictions, random points and retraining (DgdHooks), so the
// rules can be tested on scripted models and measurements.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_DGD_DGDSEARCH_H
#define TESSEL_TUNING_STRATEGIES_DGD_DGDSEARCH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
namespace tessel {

/// Every knob of DGD; defaults are the paper's (docs/Dgd.md).
struct DgdOptions {
  /// Random samples measured to train the first model (paper: 64).
  int initialSamples = 64;
  /// Candidates measured per window (paper: 3; Fig. 10 uses 2).
  int window = 3;
  /// Early stop (i): candidates predicted under scoreRatio x the top score
  /// of the ranking are not measured (paper: 0.6).
  double scoreRatio = 0.6;
  /// Early stop (ii): a window whose best measurement is under
  /// measureRatio x the best measurement ends the move (paper: 0.6).
  double measureRatio = 0.6;
  /// Largest hop radius n (the paper's hop_threshold, 3).
  int maxHops = 3;
  /// How early stop (i) reads a window: "prefix" measures the window's
  /// candidates at or above the threshold and stops when none is; "all"
  /// (the pseudocode's literal `all(scores[i:i+wd]) >= threshold`) stops
  /// as soon as any candidate of the window is under it.
  std::string scoreStop = "prefix";
  /// What early stop (ii) compares with: "running", the best measurement of
  /// the task so far; "window", the best of the previous window (the
  /// pseudocode overwrites best_measured with every window's maximum).
  std::string bestMeasured = "running";
  /// Where a descent starts: "random", a new random point (the paper);
  /// "best", the best measured point not yet used as a start (random when
  /// none is left).
  std::string start = "random";
  /// When the model is retrained: "move", after each move and at each local
  /// optimum (the pseudocode's line 20); "window", after every window.
  std::string retrain = "move";
  /// Measurements DGD may ask for, 0 for no limit (the caller's budget
  /// still applies). Whether the initial samples count: initialCount.
  int64_t budget = 0;
  /// Whether the initial samples count toward `budget`.
  bool initialCount = true;
  /// Descents (starts) before DGD stops, 0 for no limit (the pseudocode's
  /// `i < search_budget` counts them).
  int64_t maxStarts = 0;
  /// Wall-clock limit of the search in seconds, 0 for none (checked by the
  /// strategy before each proposal).
  double timeLimit = 0;
  /// Also hop the auto-unroll knob, as one more coordinate (the paper's
  /// space holds tile sizes only).
  bool hopUnroll = false;
  /// Vector widths of the staged loads after a hop: "keep", the width of
  /// the point hopped from when it still fits (else halved until it does:
  /// widths only shrink along a descent); "widest", the widest width that
  /// fits the new tiles.
  std::string vectorWidths = "keep";

  /// Checks the values; an error message, or empty when valid.
  std::string validate() const;
};

/// What DgdSearch needs to know of points, which are opaque ids.
struct DgdHooks {
  using PointId = unsigned;
  /// The valid points exactly `hops` hops from `point` (measured ones
  /// included: DgdSearch skips or uses them).
  std::function<std::vector<PointId>(PointId point, int hops)> neighbours;
  /// The model's scores of `points`, higher is better.
  std::function<std::vector<double>(llvm::ArrayRef<PointId>)> predict;
  /// A random point not measured or proposed yet; std::nullopt when none
  /// could be found.
  std::function<std::optional<PointId>()> randomPoint;
  /// Retrains the model on every measurement so far.
  std::function<void()> retrain;
};

/// What happened, for logs and tests.
struct DgdEvent {
  enum Kind {
    /// The initial samples are measured and the model trained.
    Seeded,
    /// A descent starts at `point`.
    Start,
    /// The search moved to `point` (`value`: its performance).
    Move,
    /// Early stop (i): the window's scores are under the threshold.
    ScoreStop,
    /// Early stop (ii): the window's best measurement is under the threshold.
    MeasureStop,
    /// Every ranked neighbour at `hops` was tried without improvement.
    Exhausted,
    /// The radius grows to `hops`.
    Widen,
    /// A local optimum at `point`.
    LocalOptimum,
    /// The search stopped (budget, starts, or no start point).
    Done,
  };
  Kind kind;
  unsigned point = 0;
  int hops = 0;
  double value = 0;
};

/// DGD over opaque points (see the file comment).
class DgdSearch {
public:
  using PointId = DgdHooks::PointId;

  DgdSearch(DgdOptions options, DgdHooks hooks);

  /// Records a measurement DgdSearch did not ask for (a default schedule, a
  /// resumed record): it trains the model and may be moved to, and before
  /// the first next() it counts as an initial sample.
  void addKnown(PointId point, double performance);

  /// The next points to measure, at most `max` (fewer is normal: a window
  /// holds `window` points). Empty when the search is over.
  std::vector<PointId> next(int max);

  /// The measurements of the points of the last next(), in any order;
  /// performance is higher-is-better, 0 for a failed point.
  void report(llvm::ArrayRef<std::pair<PointId, double>> measured);

  bool isDone() const { return phase == Phase::Done; }
  /// Measurements asked for so far (the ones counting toward the budget).
  int64_t getBudgetUsed() const { return budgetUsed; }
  /// Every event so far, in order.
  llvm::ArrayRef<DgdEvent> getEvents() const { return events; }
  /// The current point of the descent, if any.
  std::optional<PointId> getCurrent() const { return current; }
  int getHops() const { return hops; }

private:
  enum class Phase { Init, NeedStart, AwaitStart, Search, AwaitWindow, Done };

  void finish();
  /// No improvement at the current radius: widen or restart.
  void noImprovement();
  void moveTo(PointId point, double performance);
  /// Ranks the unmeasured neighbours at the current radius; moves for free
  /// to a measured neighbour that beats the current point. Returns false if
  /// it moved.
  bool buildRanking();
  void maybeRetrain();
  int64_t budgetLeft() const;

  DgdOptions options;
  DgdHooks hooks;
  Phase phase = Phase::Init;
  bool started = false;
  int initLeft = 0;
  int initPending = 0;
  llvm::DenseMap<PointId, double> measured;
  llvm::DenseSet<PointId> usedStarts;
  std::vector<PointId> pending;
  std::optional<PointId> current;
  double currentPerformance = 0;
  int hops = 1;
  bool ranked = false;
  std::vector<std::pair<double, PointId>> ranking;
  size_t position = 0;
  double scoreThreshold = 0;
  double measureThreshold = 0;
  double bestMeasured = 0;
  int64_t budgetUsed = 0;
  int64_t starts = 0;
  bool untrainedData = false;
  std::vector<DgdEvent> events;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_DGD_DGDSEARCH_H
