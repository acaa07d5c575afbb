//===- Actions.h - Fasor's moves in a shrunk search space -------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Seed 004, section 6: an action moves one knob of one of the n_p tuned
// primitives to an adjacent option of the shrunk (power-of-two) space. In
// Tessel's terms (docs/Fasor.md): Split and Parallel move a factor of 2
// between two levels of one loop's tiles (Parallel when one of them is the
// block level), Vectorization halves or doubles a staged operand's vector
// width, Unrolling takes the next or previous auto-unroll value, Compute At
// adds or removes a shared-memory stage. Fuse, Compute Inline and Reorder
// choose among a task's sketches and have no action within one space.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_FASOR_ACTIONS_H
#define TESSEL_TUNING_STRATEGIES_FASOR_ACTIONS_H

#include "tessel/Tuning/Search/SearchSpace.h"
#include "tessel/Tuning/Strategies/Fasor/Shrinking.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace tessel {
namespace fasor {

/// One move of one knob.
struct Action {
  Primitive primitive = Primitive::Split;
  /// Split and Parallel: the loop, and the levels `factor` moves from and
  /// to.
  unsigned loop = 0;
  unsigned fromLevel = 0;
  unsigned toLevel = 0;
  /// Vectorization: the staged operand (position in the sketch's `shared`).
  unsigned operand = 0;
  /// Vectorization, Unrolling, Compute At: +1 for the next larger option,
  /// -1 for the next smaller.
  int direction = 0;
  /// Split and Parallel: the factor moved (2, or another divisor of the
  /// extent for the wide moves of enumerateWideActions).
  int64_t factor = 2;

  /// "split loop 2: level 3 -> 1", "split loop 0: level 1 -> 2 (x3)",
  /// "unroll +1", ...
  std::string describe() const;
  bool operator==(const Action &other) const;
};

/// Width of encodeAction(): one-hot primitive (8), loop (8), source and
/// destination level (8 each) and operand (4), the direction, and
/// log2(factor) - 1 (0 for the factor-2 moves).
constexpr int64_t kActionFeatures = 8 + 8 + 8 + 8 + 4 + 1 + 1;

/// The action as the DQN reads it (kActionFeatures values; loops, levels
/// and operands beyond the one-hot slots share the last slot).
std::vector<float> encodeAction(const Action &action);

/// Every action of `primitives` on `space`, in Tab. 1's order, then by loop,
/// levels, operand and direction. Which of them apply depends on the config
/// (applyAction).
std::vector<Action> enumerateActions(const SearchSpace &space,
                                     llvm::ArrayRef<Primitive> primitives);

/// The wider neighbourhood of Split and Parallel among `primitives`: per
/// loop, a move of each divisor of the extent other than 2 that is a prime
/// or 4 or 8, between any two levels. Fasor's walk takes them when every
/// factor-2 child of its start point has been measured (docs/Fasor.md), so
/// odd factors (7 of 56) move too and a local optimum of single factor-2
/// steps can be left.
std::vector<Action> enumerateWideActions(const SearchSpace &space,
                                         llvm::ArrayRef<Primitive> primitives);

/// `config` after `action`, or std::nullopt when the move leaves the space:
/// a factor moves only from a level it divides, widths and unroll values step
/// to the adjacent option, and the result must pass `space.check()`. A tile
/// move keeps the vector widths, or narrows one that no longer fits to the
/// widest valid width below it, and keeps the stages the new staging loop
/// allows.
std::optional<ConfigAttr> applyAction(const SearchSpace &space,
                                      ConfigAttr config, const Action &action);

} // namespace fasor
} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_FASOR_ACTIONS_H
