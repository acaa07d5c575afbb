//===- TopKStrategy.h - ETO's TopK baseline (applying beta's best) -*- C++
//-*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The baseline of ETO's evaluation (the paper's "ST TopK", K = 3): tune a task
// alpha by applying the best programs of a tuned task beta of the same kind,
// best first, K per round, until a round has a program that runs on alpha;
// the best of those is kept. A program of beta is moved to alpha's loop
// extents by adaptConfig (beta's tiles do not multiply to alpha's extents);
// see docs/Eto.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_ETO_TOPKSTRATEGY_H
#define TESSEL_TUNING_STRATEGIES_ETO_TOPKSTRATEGY_H

#include "tessel/Tuning/Tuner/Strategy.h"

#include <optional>
#include <vector>

namespace mlir {
namespace tessel {

/// A program of another task: its sketch and config.
struct ProgramRef {
  SketchAttr sketch;
  ConfigAttr config;
  /// Its measured median (0 when not known).
  double medianUs = 0;
};

/// The index of the space of `state` whose sketch has the structure of
/// `sketch` (haveSameSketchStructure: fused consumers and inlined producers
/// aside); std::nullopt when none has.
std::optional<unsigned> findMatchingSpace(const TaskSearchState &state,
                                          SketchAttr sketch);

/// `config` (a config of another task's op with the same sketch structure)
/// moved to the loop extents of `space`: per loop, from the innermost level
/// outwards, each level keeps the greatest common divisor of its tile and
/// what is left of the extent; the outermost level (the block count of a
/// space loop, the fetch steps of a reduction loop) takes the rest. Unroll
/// is kept; each vector width is the widest valid one not above the old.
/// std::nullopt when the loop counts or levels differ or the result fails
/// SearchSpace::check.
std::optional<ConfigAttr> adaptConfig(const SearchSpace &space,
                                      ConfigAttr config);

/// Strategy `eto-topk` for one task: `programs` (beta's, best first) adapted
/// to the task, `k` per round, until a round measures a program that runs.
/// Programs that do not adapt, or adapt to a config already seen, are
/// skipped without measuring.
class EtoTopKStrategy : public SearchStrategy {
public:
  EtoTopKStrategy(int64_t k, std::vector<ProgramRef> programs);

  std::string name() const override { return "eto-topk"; }
  std::vector<Candidate> propose(TaskSearchState &state, int count) override;
  llvm::Error observe(TaskSearchState &state,
                      llvm::ArrayRef<Trial> trials) override;

  /// Programs that did not adapt to the task so far.
  int64_t getSkippedCount() const { return skipped; }

private:
  int64_t k;
  std::vector<ProgramRef> programs;
  /// The next program to try.
  size_t next = 0;
  /// Candidates of the current round still to be measured or observed.
  int64_t pending = 0;
  bool done = false;
  /// Whether a program measured so far ran.
  bool roundRan = false;
  int64_t skipped = 0;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_ETO_TOPKSTRATEGY_H
