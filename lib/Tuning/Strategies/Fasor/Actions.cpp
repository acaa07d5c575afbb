//===- Actions.cpp - Fasor's moves in a shrunk search space ---------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/Actions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <iterator>

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::fasor;

std::string Action::describe() const {
  switch (primitive) {
  case Primitive::Split:
  case Primitive::Parallel: {
    std::string text =
        llvm::formatv("{0} loop {1}: level {2} -> {3}",
                      getPrimitiveName(primitive), loop, fromLevel, toLevel)
            .str();
    if (factor != 2)
      text += llvm::formatv(" (x{0})", factor).str();
    return text;
  }
  case Primitive::Vectorization:
    return llvm::formatv("{0} operand {1} {2}", getPrimitiveName(primitive),
                         operand, direction > 0 ? "+1" : "-1")
        .str();
  default:
    return llvm::formatv("{0} {1}", getPrimitiveName(primitive),
                         direction > 0 ? "+1" : "-1")
        .str();
  }
}

bool Action::operator==(const Action &other) const {
  return primitive == other.primitive && loop == other.loop &&
         fromLevel == other.fromLevel && toLevel == other.toLevel &&
         factor == other.factor && operand == other.operand &&
         direction == other.direction;
}

std::vector<float> mlir::tessel::fasor::encodeAction(const Action &action) {
  std::vector<float> features(kActionFeatures, 0);
  auto oneHot = [&](int64_t offset, int64_t slots, int64_t value) {
    features[offset + std::min(value, slots - 1)] = 1;
  };
  oneHot(0, 8, static_cast<int64_t>(action.primitive));
  bool tiles = action.primitive == Primitive::Split ||
               action.primitive == Primitive::Parallel;
  if (tiles) {
    oneHot(8, 8, action.loop);
    oneHot(16, 8, action.fromLevel);
    oneHot(24, 8, action.toLevel);
  }
  if (action.primitive == Primitive::Vectorization)
    oneHot(32, 4, action.operand);
  features[36] = static_cast<float>(action.direction);
  if (tiles)
    features[37] = static_cast<float>(std::log2(action.factor) - 1);
  return features;
}

/// Levels of `loop` the search chooses: a tensor_core sketch's innermost
/// level is one fixed instruction.
static unsigned getFreeLevels(const SearchSpace &space, unsigned loop) {
  SketchAttr sketch = space.getSketch();
  unsigned levels = space.getLoopNest().isReduction[loop]
                        ? sketch.getNumReductionLevels()
                        : sketch.getNumSpaceLevels();
  return sketch.getKind() == SketchKind::TensorCore ? levels - 1 : levels;
}

/// Appends the moves of `primitive` (Split or Parallel) of `factor` between
/// two levels of `loop`.
static void addTileMoves(const SearchSpace &space, Primitive primitive,
                         unsigned loop, int64_t factor,
                         std::vector<Action> &actions) {
  unsigned levels = getFreeLevels(space, loop);
  // Level 0 of a space loop counts the blocks: moves through it change the
  // work per block (Parallel); the others split it (Split).
  bool blocks = !space.getLoopNest().isReduction[loop];
  for (unsigned from = 0; from < levels; ++from)
    for (unsigned to = 0; to < levels; ++to) {
      if (from == to)
        continue;
      bool parallel = blocks && (from == 0 || to == 0);
      if (parallel == (primitive == Primitive::Parallel))
        actions.push_back({primitive, loop, from, to, 0, 0, factor});
    }
}

/// The factors of the wide moves of a loop of `extent`: its prime divisors
/// other than 2, and 4 and 8 when they divide it, in increasing order.
static SmallVector<int64_t> getWideFactors(int64_t extent) {
  SmallVector<int64_t> factors;
  int64_t rest = extent;
  for (int64_t prime = 2; prime * prime <= rest; ++prime) {
    if (rest % prime != 0)
      continue;
    if (prime != 2)
      factors.push_back(prime);
    while (rest % prime == 0)
      rest /= prime;
  }
  if (rest > 2)
    factors.push_back(rest);
  for (int64_t power : {4, 8})
    if (extent % power == 0)
      factors.push_back(power);
  llvm::sort(factors);
  return factors;
}

std::vector<Action>
mlir::tessel::fasor::enumerateWideActions(const SearchSpace &space,
                                          ArrayRef<Primitive> primitives) {
  std::vector<Action> actions;
  const LoopNest &nest = space.getLoopNest();
  for (Primitive primitive : primitives) {
    if (primitive != Primitive::Split && primitive != Primitive::Parallel)
      continue;
    for (unsigned loop = 0; loop < nest.size(); ++loop)
      for (int64_t factor : getWideFactors(nest.extents[loop]))
        addTileMoves(space, primitive, loop, factor, actions);
  }
  return actions;
}

std::vector<Action>
mlir::tessel::fasor::enumerateActions(const SearchSpace &space,
                                      ArrayRef<Primitive> primitives) {
  std::vector<Action> actions;
  const LoopNest &nest = space.getLoopNest();
  for (Primitive primitive : primitives) {
    switch (primitive) {
    case Primitive::Split:
    case Primitive::Parallel:
      for (unsigned loop = 0; loop < nest.size(); ++loop)
        addTileMoves(space, primitive, loop, /*factor=*/2, actions);
      break;
    case Primitive::Vectorization:
      for (unsigned operand = 0; operand < space.getSketch().getShared().size();
           ++operand)
        for (int direction : {1, -1})
          actions.push_back({primitive, 0, 0, 0, operand, direction});
      break;
    case Primitive::Unrolling:
      for (int direction : {1, -1})
        actions.push_back({primitive, 0, 0, 0, 0, direction});
      break;
    case Primitive::ComputeAt:
      if (space.hasStagesKnob())
        for (int direction : {1, -1})
          actions.push_back({primitive, 0, 0, 0, 0, direction});
      break;
    case Primitive::Fuse:
    case Primitive::ComputeInline:
    case Primitive::Reorder:
      break;
    }
  }
  return actions;
}

/// The valid config with `tiles`, `unroll`, `stages` and `config`'s vector
/// widths, each narrowed to the widest valid width not above it if it no
/// longer fits.
static std::optional<ConfigAttr>
withTiles(const SearchSpace &space, ConfigAttr config,
          ArrayRef<SmallVector<int64_t>> tiles) {
  MLIRContext *ctx = config.getContext();
  SmallVector<int64_t> vector(config.getVector());
  if (!vector.empty()) {
    SmallVector<SmallVector<int64_t>> valid = space.getValidVectors(tiles);
    if (valid.size() != vector.size())
      return std::nullopt;
    for (auto [width, options] : llvm::zip(vector, valid)) {
      // The options increase: the last one not above the width.
      int64_t narrowed = 0;
      for (int64_t option : options)
        if (option <= width)
          narrowed = option;
      if (narrowed == 0)
        return std::nullopt;
      width = narrowed;
    }
  }
  int64_t stages =
      std::min(config.getStages(), space.getStageOptions(tiles).back());
  auto moved = ConfigAttr::get(ctx, tiles, config.getUnroll(), vector, stages);
  if (failed(space.check(moved)))
    return std::nullopt;
  return moved;
}

std::optional<ConfigAttr>
mlir::tessel::fasor::applyAction(const SearchSpace &space, ConfigAttr config,
                                 const Action &action) {
  MLIRContext *ctx = config.getContext();
  SmallVector<SmallVector<int64_t>> tiles;
  for (unsigned loop = 0; loop < config.getNumLoops(); ++loop)
    tiles.emplace_back(config.getLoopTiles(loop));
  SmallVector<int64_t> vector(config.getVector());
  int64_t unroll = config.getUnroll();
  int64_t stages = config.getStages();

  switch (action.primitive) {
  case Primitive::Split:
  case Primitive::Parallel: {
    if (action.loop >= tiles.size())
      return std::nullopt;
    SmallVector<int64_t> &levels = tiles[action.loop];
    if (action.factor < 2 || action.fromLevel >= levels.size() ||
        action.toLevel >= levels.size() ||
        levels[action.fromLevel] % action.factor != 0)
      return std::nullopt;
    levels[action.fromLevel] /= action.factor;
    levels[action.toLevel] *= action.factor;
    return withTiles(space, config, tiles);
  }
  case Primitive::Vectorization: {
    if (action.operand >= vector.size())
      return std::nullopt;
    SmallVector<SmallVector<int64_t>> valid = space.getValidVectors(tiles);
    if (action.operand >= valid.size())
      return std::nullopt;
    ArrayRef<int64_t> options = valid[action.operand];
    const int64_t *at = llvm::find(options, vector[action.operand]);
    if (at == options.end())
      return std::nullopt;
    int64_t index = (at - options.begin()) + action.direction;
    if (index < 0 || index >= static_cast<int64_t>(options.size()))
      return std::nullopt;
    vector[action.operand] = options[index];
    break;
  }
  case Primitive::Unrolling: {
    const int64_t *at = llvm::find(kUnrollValues, unroll);
    int64_t index = (at - std::begin(kUnrollValues)) + action.direction;
    if (at == std::end(kUnrollValues) || index < 0 ||
        index >= static_cast<int64_t>(std::size(kUnrollValues)))
      return std::nullopt;
    unroll = kUnrollValues[index];
    break;
  }
  case Primitive::ComputeAt: {
    SmallVector<int64_t> options = space.getStageOptions(tiles);
    stages += action.direction;
    if (!llvm::is_contained(options, stages))
      return std::nullopt;
    break;
  }
  default:
    return std::nullopt;
  }
  auto moved = ConfigAttr::get(ctx, tiles, unroll, vector, stages);
  if (failed(space.check(moved)))
    return std::nullopt;
  return moved;
}
