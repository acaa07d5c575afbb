//===- DgdSpace.cpp - The divisor tile-size vector space of DGD -----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Dgd/DgdSpace.h"

#include "tessel/Dialect/Tessel/IR/Schedule.h"
#include "tessel/Dialect/Tessel/IR/TileShape.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tessel;

uint64_t tessel::countInteriorHops(unsigned m, unsigned n) {
  if (n > m)
    return 0;
  uint64_t choose = 1;
  for (unsigned i = 0; i < n; ++i)
    choose = choose * (m - i) / (i + 1);
  return choose << n;
}

std::vector<SmallVector<unsigned>>
tessel::enumerateHops(ArrayRef<unsigned> indices, ArrayRef<unsigned> sizes,
                      unsigned hops) {
  std::vector<SmallVector<unsigned>> result;
  unsigned m = indices.size();
  if (hops == 0 || hops > m)
    return result;
  // Combinations of `hops` coordinates in lexicographic order; for each,
  // every choice of direction (bit i set: coordinate i moves up).
  SmallVector<unsigned> chosen(hops);
  for (unsigned i = 0; i < hops; ++i)
    chosen[i] = i;
  while (true) {
    for (unsigned mask = 0; mask < (1u << hops); ++mask) {
      SmallVector<unsigned> moved(indices.begin(), indices.end());
      bool inRange = true;
      for (unsigned i = 0; i < hops && inRange; ++i) {
        unsigned c = chosen[i];
        if (mask & (1u << i)) {
          if (moved[c] + 1 >= sizes[c])
            inRange = false;
          else
            ++moved[c];
        } else {
          if (moved[c] == 0)
            inRange = false;
          else
            --moved[c];
        }
      }
      if (inRange)
        result.push_back(std::move(moved));
    }
    // Next combination.
    int i = hops - 1;
    while (i >= 0 && chosen[i] == m - hops + i)
      --i;
    if (i < 0)
      break;
    ++chosen[i];
    for (unsigned j = i + 1; j < hops; ++j)
      chosen[j] = chosen[j - 1] + 1;
  }
  return result;
}

static SmallVector<int64_t> getDivisors(int64_t n) {
  SmallVector<int64_t> low, high;
  for (int64_t d = 1; d * d <= n; ++d) {
    if (n % d)
      continue;
    low.push_back(d);
    if (d != n / d)
      high.push_back(n / d);
  }
  low.append(high.rbegin(), high.rend());
  return low;
}

TileVectorSpace::TileVectorSpace(const SearchSpace &space, bool hopUnroll,
                                 bool widestVectors)
    : space(&space), widestVectors(widestVectors) {
  const LoopNest &nest = space.getLoopNest();
  SketchAttr sketch = space.getSketch();
  for (unsigned loop = 0; loop < nest.size(); ++loop) {
    if (nest.extents[loop] <= 1)
      continue;
    unsigned levels = nest.isReduction[loop] ? sketch.getNumReductionLevels()
                                             : sketch.getNumSpaceLevels();
    SmallVector<int64_t> divisors = getDivisors(nest.extents[loop]);
    for (unsigned level = 1; level < levels; ++level)
      coordinates.push_back({static_cast<int>(loop), level, divisors});
  }
  if (hopUnroll)
    coordinates.push_back({kUnrollCoordinate, 0,
                           SmallVector<int64_t>(std::begin(kUnrollValues),
                                                std::end(kUnrollValues))});
  // The `stages` knob, where the space has it: a neighbour moves it by one.
  if (space.hasStagesKnob()) {
    SmallVector<int64_t> stages;
    for (int64_t s = 1; s <= kMaxPipelineStages; ++s)
      stages.push_back(s);
    coordinates.push_back({kStagesCoordinate, 0, stages});
  }
}

std::optional<SmallVector<unsigned>>
TileVectorSpace::getIndices(ConfigAttr config) const {
  SmallVector<unsigned> indices;
  for (const Coordinate &c : coordinates) {
    int64_t value = c.loop == kUnrollCoordinate   ? config.getUnroll()
                    : c.loop == kStagesCoordinate ? config.getStages()
                                                  : config.getLoopTiles(c.loop)[c.level];
    auto it = llvm::find(c.values, value);
    if (it == c.values.end())
      return std::nullopt;
    indices.push_back(it - c.values.begin());
  }
  return indices;
}

std::optional<ConfigAttr> TileVectorSpace::toConfig(ArrayRef<unsigned> indices,
                                                    ConfigAttr like) const {
  const LoopNest &nest = space->getLoopNest();
  SmallVector<SmallVector<int64_t>> tiles = getTileVectors(like);
  int64_t unroll = like.getUnroll();
  int64_t stages = like.getStages();
  for (auto [c, index] : llvm::zip(coordinates, indices)) {
    if (c.loop == kUnrollCoordinate)
      unroll = c.values[index];
    else if (c.loop == kStagesCoordinate)
      stages = c.values[index];
    else
      tiles[c.loop][c.level] = c.values[index];
  }
  for (unsigned loop = 0; loop < nest.size(); ++loop) {
    int64_t inner = 1;
    for (int64_t t : ArrayRef(tiles[loop]).drop_front())
      inner *= t;
    if (nest.extents[loop] % inner != 0)
      return std::nullopt;
    tiles[loop][0] = nest.extents[loop] / inner;
  }
  // Vector widths: the widest valid one up to the old one (or up to the
  // widest candidate with widestVectors).
  SmallVector<int64_t> vector(like.getVector());
  if (!vector.empty()) {
    // Most neighbours of a fragmented space fail here, cheaply.
    if (!space->fitsTiles(tiles))
      return std::nullopt;
    SmallVector<SmallVector<int64_t>> valid = space->getValidVectors(tiles);
    if (valid.size() != vector.size())
      return std::nullopt;
    for (auto [i, widths] : llvm::enumerate(valid)) {
      int64_t limit = widestVectors ? widths.back() : vector[i];
      vector[i] = *llvm::find_if(llvm::reverse(widths),
                                 [&](int64_t width) { return width <= limit; });
    }
  }
  ConfigAttr config =
      ConfigAttr::get(like.getContext(), tiles, unroll, vector, stages);
  if (failed(space->check(config)))
    return std::nullopt;
  return config;
}

std::vector<ConfigAttr> TileVectorSpace::getNeighbours(ConfigAttr config,
                                                       unsigned hops) const {
  std::vector<ConfigAttr> result;
  std::optional<SmallVector<unsigned>> indices = getIndices(config);
  if (!indices)
    return result;
  SmallVector<unsigned> sizes;
  for (const Coordinate &c : coordinates)
    sizes.push_back(c.values.size());
  for (const SmallVector<unsigned> &moved :
       enumerateHops(*indices, sizes, hops))
    if (std::optional<ConfigAttr> neighbour = toConfig(moved, config))
      result.push_back(*neighbour);
  return result;
}
